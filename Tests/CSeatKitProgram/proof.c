/*
 * A C compositor's use of SeatKit, built only from the installed header and seatkit.pc
 * (pkg-config or meson's dependency('seatkit')). It builds a surface tree, injects touches
 * and keys, and prints one line per responder call, filter, spy, recognizer callback,
 * destroy signal and log message; CSeatKitProgramTests compares the lines.
 */
#include <seatkit/seatkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY_ESC 1
#define KEY_Q 16
#define KEY_A 30
#define KEY_LEFTCTRL 29

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { printf("FAILED: %s (line %d)\n", #cond, __LINE__); failures++; } } while (0)

static void log_line(enum seatkit_log_importance importance, const char *fmt, va_list args) {
	char message[512];
	vsnprintf(message, sizeof message, fmt, args);
	printf("log %d: %s\n", importance, message);
}

/* One responder per surface: its name and which events it takes. */
struct view {
	const char *name;
	bool takes_touches;
	bool takes_keys;
	bool focusable;
};

static const char *target_name(const struct seatkit_event_context *context) {
	struct view *target = context->target ? seatkit_surface_get_responder_data(context->target) : NULL;
	return target ? target->name : "none";
}

static enum seatkit_result touches(void *data, const char *phase, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context) {
	struct view *view = data;
	for (size_t i = 0; i < event->touch_count; i++) {
		const struct seatkit_touch_point *t = &event->touches[i];
		printf("%s %s t%d at (%.0f, %.0f) local (%.0f, %.0f) target %s\n", view->name, phase, t->id,
			t->x, t->y, t->sx, t->sy, target_name(context));
	}
	return view->takes_touches ? SEATKIT_HANDLED : SEATKIT_NOT_HANDLED;
}

static enum seatkit_result began(void *data, const struct seatkit_touch_event *e, const struct seatkit_event_context *c) {
	return touches(data, "began", e, c);
}
static enum seatkit_result moved(void *data, const struct seatkit_touch_event *e, const struct seatkit_event_context *c) {
	return touches(data, "moved", e, c);
}
static enum seatkit_result ended(void *data, const struct seatkit_touch_event *e, const struct seatkit_event_context *c) {
	return touches(data, "ended", e, c);
}
static void cancelled(void *data, const struct seatkit_touch_event *e, const struct seatkit_event_context *c) {
	touches(data, "cancelled", e, c);
}

static enum seatkit_result key_down(void *data, const struct seatkit_key_event *e, const struct seatkit_event_context *c) {
	struct view *view = data;
	printf("%s key down %u text \"%s\" mods 0x%x\n", view->name, e->keycode, e->text, e->modifiers);
	return view->takes_keys ? SEATKIT_HANDLED : SEATKIT_NOT_HANDLED;
}
static enum seatkit_result key_up(void *data, const struct seatkit_key_event *e, const struct seatkit_event_context *c) {
	struct view *view = data;
	printf("%s key up %u\n", view->name, e->keycode);
	return view->takes_keys ? SEATKIT_HANDLED : SEATKIT_NOT_HANDLED;
}
static void entered(void *data, const struct seatkit_pointer_crossing_event *e, const struct seatkit_event_context *c) {
	printf("%s pointer entered at local (%.0f, %.0f)\n", ((struct view *)data)->name, e->sx, e->sy);
}
static void left(void *data, const struct seatkit_pointer_crossing_event *e, const struct seatkit_event_context *c) {
	printf("%s pointer left\n", ((struct view *)data)->name);
}
static enum seatkit_result button(void *data, const struct seatkit_pointer_button_event *e, const struct seatkit_event_context *c) {
	struct view *view = data;
	printf("%s button 0x%x %s at local (%.0f, %.0f)\n", view->name, e->button,
		e->state == SEATKIT_BUTTON_PRESSED ? "pressed" : "released", e->sx, e->sy);
	return view->takes_touches ? SEATKIT_HANDLED : SEATKIT_NOT_HANDLED;
}
static enum seatkit_result axis(void *data, const struct seatkit_pointer_axis_event *e, const struct seatkit_event_context *c) {
	printf("%s axis vertical %.0f (v120 %.0f)\n", ((struct view *)data)->name, e->axis.vertical, e->axis.vertical_v120);
	return SEATKIT_HANDLED;
}
static bool can_become(void *data) {
	return ((struct view *)data)->focusable;
}
static void did_become(void *data, const struct seatkit_event_context *c) {
	printf("%s became first responder\n", ((struct view *)data)->name);
}
static void did_resign(void *data, const struct seatkit_event_context *c) {
	printf("%s resigned first responder\n", ((struct view *)data)->name);
}
static bool can_perform(void *data, const char *action) {
	return strcmp(action, "quit") == 0;
}
static void perform(void *data, const char *action, const struct seatkit_event_context *c) {
	printf("%s performs %s\n", ((struct view *)data)->name, action);
}

static const struct seatkit_responder_interface view_impl = {
	.struct_size = sizeof(struct seatkit_responder_interface),
	.touches_began = began,
	.touches_moved = moved,
	.touches_ended = ended,
	.touches_cancelled = cancelled,
	.pointer_entered = entered,
	.pointer_left = left,
	.pointer_button = button,
	.pointer_axis = axis,
	.key_down = key_down,
	.key_up = key_up,
	.can_become_first_responder = can_become,
	.did_become_first_responder = did_become,
	.did_resign_first_responder = did_resign,
	.can_perform = can_perform,
	.perform = perform,
};

/* Only what it needs: a surface whose responder sets two members. */
static const struct seatkit_responder_interface sparse_impl = {
	.struct_size = sizeof(struct seatkit_responder_interface),
	.touches_began = began,
};

static enum seatkit_filter_decision filter_key(void *data, const struct seatkit_key_event *e) {
	if (e->keycode == KEY_ESC) {
		printf("filter takes key %u\n", e->keycode);
		return SEATKIT_FILTER_CONSUME;
	}
	return SEATKIT_FILTER_PASS;
}
static const struct seatkit_filter_interface filter_impl = { .struct_size = sizeof(struct seatkit_filter_interface), .filter_key = filter_key };

static int spied = 0, spied_consumed = 0;
static void spy(void *data, const struct seatkit_input_event *event, bool consumed) {
	spied++;
	if (consumed) {
		spied_consumed++;
	}
}

static const char *state_name(enum seatkit_recognizer_state state) {
	static const char *names[] = { "possible", "began", "changed", "ended", "cancelled", "failed", "recognized" };
	return state <= SEATKIT_RECOGNIZER_RECOGNIZED ? names[state] : "?";
}
static void recognizer_changed(void *data, struct seatkit_recognizer *r, enum seatkit_recognizer_state state) {
	printf("gesture %s %s\n", (const char *)data, state_name(state));
}

static void dropped(void *data, const char *kind) {
	printf("delegate: dropped %s\n", kind);
}
static void capabilities(void *data, uint32_t caps) {
	printf("delegate: capabilities 0x%x\n", caps);
}
static const struct seatkit_delegate_interface delegate_impl = {
	.struct_size = sizeof(struct seatkit_delegate_interface),
	.dropped = dropped,
	.capabilities_changed = capabilities,
};

struct destroy_watch {
	struct wl_listener listener;
	const char *name;
};
static void on_destroy(struct wl_listener *listener, void *data) {
	struct destroy_watch *watch = wl_container_of(listener, watch, listener);
	printf("destroyed %s\n", watch->name);
	wl_list_remove(&listener->link);
}
static void watch(struct destroy_watch *w, struct wl_signal *signal, const char *name) {
	w->name = name;
	w->listener.notify = on_destroy;
	wl_signal_add(signal, &w->listener);
}

/* A lock screen's grab: takes every touch (printing it), forwards nothing. */
static void lock_touch(void *data, struct seatkit_grab *grab, const struct seatkit_input_event *event) {
	static const char *names[] = { "down", "motion", "up", "cancel", "frame" };
	if (event->type != SEATKIT_INPUT_TOUCH_FRAME)
		printf("lock %s t%d\n", names[event->type], event->touch_id);
}
static void lock_cancel(void *data, struct seatkit_grab *grab) {
	printf("lock ended\n");
}
static const struct seatkit_grab_interface lock_impl = {
	.struct_size = sizeof(struct seatkit_grab_interface),
	.touch_down = lock_touch, .touch_motion = lock_touch, .touch_up = lock_touch,
	.touch_cancel = lock_touch, .touch_frame = lock_touch, .cancel = lock_cancel,
};

static void popup_dismissed(void *data, struct seatkit_grab *grab) {
	printf("popup %s dismissed\n", (const char *)data);
}

int main(void) {
	seatkit_log_init(SEATKIT_ERROR, log_line);
	setvbuf(stdout, NULL, _IOLBF, 0);

	struct seatkit_router *router = seatkit_router_create_virtual(0);
	CHECK(router != NULL);
	seatkit_router_set_delegate(router, &delegate_impl, NULL);
	struct seatkit_device_info screen = { .name = "screen", .capabilities = SEATKIT_DEVICE_TOUCH,
		.width_mm = 300, .height_mm = 200 };
	seatkit_router_notify_device_added(router, 0, 1, &screen);

	struct seatkit_output *output = seatkit_output_create(router, "DSI-1", 0, 0, 800, 600,
		SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1);
	struct seatkit_surface *root = seatkit_output_get_root(output);

	struct view background_view = { "background", true, false, false };
	struct view app_view = { "app", true, true, true };
	struct view button_view = { "button", false, false, false };
	struct seatkit_surface *background = seatkit_surface_create(router, "background", 0, 0, 800, 600);
	struct seatkit_surface *app = seatkit_surface_create(router, "app", 100, 100, 400, 300);
	struct seatkit_surface *button = seatkit_surface_create(router, "button", 10, 10, 50, 50);
	seatkit_surface_set_responder(background, &view_impl, &background_view);
	seatkit_surface_set_responder(app, &view_impl, &app_view);
	seatkit_surface_set_responder(button, &sparse_impl, &button_view);
	CHECK(seatkit_surface_add_child(root, background));
	CHECK(seatkit_surface_add_child(root, app));
	CHECK(seatkit_surface_add_child(app, button));

	struct destroy_watch button_watch, app_watch, output_watch, router_watch;
	watch(&button_watch, seatkit_surface_get_destroy_signal(button), "button");
	watch(&app_watch, seatkit_surface_get_destroy_signal(app), "app");
	watch(&output_watch, seatkit_output_get_destroy_signal(output), "output");
	watch(&router_watch, seatkit_router_get_destroy_signal(router), "router");

	/* A touch on the button: the button's responder does not take it, so it walks up to
	 * the app, with the button still the target. */
	printf("-- touch on the button\n");
	seatkit_router_notify_touch_down(router, 1000, 1, 0, 120, 125);
	seatkit_router_notify_touch_frame(router, 1000, 1);
	seatkit_router_notify_touch_motion(router, 2000, 1, 0, 130, 125);
	seatkit_router_notify_touch_frame(router, 2000, 1);
	seatkit_router_notify_touch_up(router, 3000, 1, 0);
	seatkit_router_notify_touch_frame(router, 3000, 1);

	/* Hidden and input-disabled surfaces are skipped: the same point now hits the app. */
	printf("-- touch with the button hidden\n");
	seatkit_surface_set_hidden(button, true);
	CHECK(seatkit_router_surface_at(router, 120, 125) == app);
	seatkit_router_notify_touch_down(router, 4000, 1, 1, 120, 125);
	seatkit_router_notify_touch_frame(router, 4000, 1);
	seatkit_router_notify_touch_up(router, 5000, 1, 1);
	seatkit_router_notify_touch_frame(router, 5000, 1);
	seatkit_surface_set_hidden(button, false);

	/* Moving the app: the point now hits the background. */
	printf("-- touch after moving the app\n");
	seatkit_surface_set_frame(app, 300, 100, 400, 300);
	CHECK(seatkit_router_surface_at(router, 120, 125) == background);
	seatkit_router_notify_touch_down(router, 6000, 1, 2, 120, 125);
	seatkit_router_notify_touch_frame(router, 6000, 1);
	seatkit_router_notify_touch_up(router, 7000, 1, 2);
	seatkit_router_notify_touch_frame(router, 7000, 1);

	/* Keys: a US keymap, the app as first responder, a filter, a key command. */
	printf("-- keys\n");
	struct seatkit_keymap *keymap = seatkit_keymap_create_from_names(NULL, NULL, "us", NULL, NULL);
	CHECK(keymap != NULL);
	seatkit_router_set_keymap(router, keymap, 0, 0);
	seatkit_keymap_destroy(keymap);
	struct seatkit_filter *filter = seatkit_router_add_filter(router, &filter_impl, NULL);
	struct seatkit_spy *spy_handle = seatkit_router_add_spy(router, spy, NULL);
	CHECK(!seatkit_router_set_first_responder(router, button));
	CHECK(seatkit_router_set_first_responder(router, app));
	CHECK(seatkit_router_get_first_responder(router) == app);
	CHECK(seatkit_surface_add_key_command(app, seatkit_keysym_from_name("q"), SEATKIT_MODIFIER_CTRL, "quit", false));
	seatkit_router_notify_key(router, 8000, 2, KEY_A, SEATKIT_KEY_PRESSED);
	seatkit_router_notify_key(router, 8100, 2, KEY_A, SEATKIT_KEY_RELEASED);
	seatkit_router_notify_key(router, 8200, 2, KEY_ESC, SEATKIT_KEY_PRESSED);
	seatkit_router_notify_key(router, 8300, 2, KEY_ESC, SEATKIT_KEY_RELEASED);
	seatkit_router_notify_key(router, 8400, 2, KEY_LEFTCTRL, SEATKIT_KEY_PRESSED);
	seatkit_router_notify_key(router, 8500, 2, KEY_Q, SEATKIT_KEY_PRESSED);
	seatkit_router_notify_key(router, 8600, 2, KEY_Q, SEATKIT_KEY_RELEASED);
	seatkit_router_notify_key(router, 8700, 2, KEY_LEFTCTRL, SEATKIT_KEY_RELEASED);
	CHECK(seatkit_router_send_action(router, "quit", NULL));
	CHECK(!seatkit_router_send_action(router, "paste", NULL));
	printf("spy saw %d events, %d consumed\n", spied, spied_consumed);
	seatkit_filter_destroy(filter);
	seatkit_spy_destroy(spy_handle);

	/* Recognizers: a long press on the background that waits for a double tap to fail,
	 * on the router's virtual clock. */
	printf("-- long press\n");
	struct seatkit_recognizer *press = seatkit_recognizer_create_long_press(router, "press", 500000, 1);
	struct seatkit_recognizer *double_tap = seatkit_recognizer_create_tap(router, "double-tap", 2, 1);
	seatkit_recognizer_set_callback(press, recognizer_changed, "press");
	seatkit_recognizer_set_callback(double_tap, recognizer_changed, "double-tap");
	CHECK(seatkit_recognizer_require_to_fail(press, double_tap));
	CHECK(seatkit_surface_add_recognizer(background, press));
	CHECK(seatkit_surface_add_recognizer(background, double_tap));
	seatkit_router_notify_touch_down(router, 10000, 1, 3, 50, 50);
	seatkit_router_notify_touch_frame(router, 10000, 1);
	seatkit_router_advance_clock(router, 700000);
	seatkit_router_notify_touch_up(router, 710000, 1, 3);
	seatkit_router_notify_touch_frame(router, 710000, 1);

	/* The pointer: enter, leave and the implicit grab (a held button keeps the focus). */
	printf("-- pointer\n");
	seatkit_router_notify_pointer_motion_absolute(router, 720000, 3, 350, 150);
	seatkit_router_notify_pointer_button(router, 721000, 3, 0x110, SEATKIT_BUTTON_PRESSED);
	seatkit_router_notify_pointer_motion(router, 722000, 3, -300, 0, -300, 0);
	CHECK(seatkit_router_get_pointer_focus(router) == button); /* held: the focus stays */
	seatkit_router_notify_pointer_button(router, 723000, 3, 0x110, SEATKIT_BUTTON_RELEASED);
	CHECK(seatkit_router_get_pointer_focus(router) == background);
	struct seatkit_axis wheel = { .source = SEATKIT_AXIS_SOURCE_WHEEL, .vertical = 15, .vertical_v120 = 120 };
	seatkit_router_notify_pointer_axis(router, 724000, 3, &wheel);

	/* Two pans on the background: by default the first to begin makes the other fail;
	 * declared simultaneous, both begin. */
	printf("-- simultaneous pans\n");
	seatkit_recognizer_destroy(press);
	seatkit_recognizer_destroy(double_tap);
	struct seatkit_recognizer *pan_a = seatkit_recognizer_create_pan(router, "pan-a", 1, 0);
	struct seatkit_recognizer *pan_b = seatkit_recognizer_create_pan(router, "pan-b", 1, 0);
	seatkit_recognizer_set_callback(pan_a, recognizer_changed, "pan-a");
	seatkit_recognizer_set_callback(pan_b, recognizer_changed, "pan-b");
	seatkit_surface_add_recognizer(background, pan_a);
	seatkit_surface_add_recognizer(background, pan_b);
	for (int round = 0; round < 2; round++) {
		printf("simultaneous: %s\n", round ? "yes" : "no");
		CHECK(seatkit_recognizer_set_simultaneous(pan_a, pan_b, round == 1));
		int64_t t = 730000 + round * 100000;
		seatkit_router_notify_touch_down(router, t, 1, 5, 50, 300);
		seatkit_router_notify_touch_frame(router, t, 1);
		seatkit_router_notify_touch_motion(router, t + 10000, 1, 5, 100, 300);
		seatkit_router_notify_touch_frame(router, t + 10000, 1);
		seatkit_router_notify_touch_up(router, t + 20000, 1, 5);
		seatkit_router_notify_touch_frame(router, t + 20000, 1);
	}
	double dx = 0, dy = 0;
	CHECK(seatkit_recognizer_get_translation(pan_a, &dx, &dy) && dx == 0 && dy == 0); /* reset after ending */

	/* A three-finger touchpad swipe recognized on the output, before the responders. */
	printf("-- touchpad swipe\n");
	struct seatkit_recognizer *swipe3 = seatkit_recognizer_create_touchpad_swipe(router, "swipe3", 3);
	seatkit_recognizer_set_callback(swipe3, recognizer_changed, "swipe3");
	CHECK(seatkit_output_add_recognizer(output, swipe3));
	struct seatkit_touchpad_gesture g = { .kind = SEATKIT_TOUCHPAD_SWIPE, .phase = SEATKIT_GESTURE_BEGIN, .fingers = 3 };
	seatkit_router_notify_touchpad_gesture(router, 950000, 4, &g);
	g.phase = SEATKIT_GESTURE_UPDATE;
	g.dx = 40;
	seatkit_router_notify_touchpad_gesture(router, 951000, 4, &g);
	g.phase = SEATKIT_GESTURE_END;
	g.dx = 0;
	seatkit_router_notify_touchpad_gesture(router, 952000, 4, &g);

	/* A lock screen takes the touch screen while a finger is on the app: the app hears that
	 * touch cancelled once; the rest of it, and new touches, are the lock screen's. */
	printf("-- lock screen grab mid-touch\n");
	seatkit_router_notify_touch_down(router, 953000, 1, 6, 450, 300);
	seatkit_router_notify_touch_frame(router, 953000, 1);
	struct seatkit_grab *lock = seatkit_grab_create(router, &lock_impl, NULL);
	CHECK(seatkit_router_start_touch_grab(router, lock));
	CHECK(seatkit_router_get_touch_grab(router) == lock);
	seatkit_router_notify_touch_motion(router, 954000, 1, 6, 460, 300);
	seatkit_router_notify_touch_frame(router, 954000, 1);
	seatkit_router_notify_touch_up(router, 955000, 1, 6);
	seatkit_router_notify_touch_frame(router, 955000, 1);
	seatkit_router_notify_touch_down(router, 956000, 1, 7, 450, 300);
	seatkit_router_notify_touch_up(router, 956000, 1, 7);
	seatkit_router_notify_touch_frame(router, 956000, 1);
	seatkit_grab_destroy(lock);
	CHECK(seatkit_router_get_touch_grab(router) == NULL);

	/* A popup (the button, as a menu) grabs pointer and touch: a tap inside reaches it, a
	 * tap outside dismisses it and reaches nobody. */
	printf("-- popup dismissed by a tap outside\n");
	struct seatkit_grab *popup = seatkit_router_start_popup_grab(router, button, popup_dismissed, "menu");
	CHECK(popup != NULL);
	seatkit_router_notify_touch_down(router, 957000, 1, 8, 320, 120);
	seatkit_router_notify_touch_frame(router, 957000, 1);
	seatkit_router_notify_touch_up(router, 957500, 1, 8);
	seatkit_router_notify_touch_frame(router, 957500, 1);
	seatkit_router_notify_touch_down(router, 958000, 1, 9, 450, 300);
	seatkit_router_notify_touch_frame(router, 958000, 1);
	seatkit_router_notify_touch_up(router, 959000, 1, 9);
	seatkit_router_notify_touch_frame(router, 959000, 1);
	CHECK(seatkit_router_get_pointer_grab(router) == NULL);

	/* The trace, as text and JSON. */
	seatkit_router_set_trace_enabled(router, true);
	seatkit_router_notify_touch_down(router, 960000, 1, 4, 350, 150);
	seatkit_router_notify_touch_frame(router, 960000, 1);
	char *text = seatkit_router_get_trace_text(router);
	char *json = seatkit_router_get_trace_json(router);
	CHECK(text && strstr(text, "touchesBegan -> app: handled"));
	CHECK(json && json[0] == '[' && strstr(json, "\"kind\":\"touch-down\""));
	free(text);
	free(json);
	seatkit_router_set_trace_enabled(router, false);

	/* Destroying a surface with a touch on it: its responder hears the cancel first. */
	printf("-- destroy the app during a touch\n");
	seatkit_surface_destroy(app);
	CHECK(seatkit_router_get_first_responder(router) == NULL);

	/* Misuse: refused and logged, never a crash. */
	printf("-- misuse\n");
	seatkit_surface_set_frame(app, 0, 0, 10, 10);
	seatkit_surface_set_frame(button, 0, 0, -1, 10);
	seatkit_router_notify_touch_down(NULL, 0, 1, 9, 0, 0);
	CHECK(!seatkit_surface_add_child(button, root));
	CHECK(seatkit_output_create(router, "bad", 0, 0, 10, 10, 9, 1) == NULL);
	seatkit_router_notify_pointer_button(router, 970000, 3, 0x110, 7);
	seatkit_surface_destroy(root);
	seatkit_router_destroy((struct seatkit_router *)output);

	printf("-- destroy the router\n");
	seatkit_router_destroy(router);
	seatkit_router_destroy(router);
	printf("done, %d failures\n", failures);
	return failures == 0 ? 0 : 1;
}
