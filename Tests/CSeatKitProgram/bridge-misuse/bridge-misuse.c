/* A C compositor's mistakes with the wlroots bridge's protocols (idle notify, session lock, pads,
 * cursor shape): every NULL argument, a session-lock interface too small or without
 * show_surface, calls on objects in the wrong state, and both ways of ending (each object's
 * _destroy, or wl_display_destroy taking what is left). Each call either does what the
 * header says or is refused with a logged error; none crashes. Built by BridgeMisuseTests
 * from the installed prefix (meson, dependency('seatkit-wlroots')) and run plain and under
 * valgrind; it prints one line per check, and "ok" last. */
#include <seatkit/seatkit-wlroots.h>
#include <stdio.h>
#include <stdlib.h>
#include <wayland-server-core.h>
#include <wlr/util/log.h>

static int refusals;

static void count_refusals(enum wlr_log_importance importance, const char *fmt, va_list args) {
	(void)fmt;
	(void)args;
	if (importance == WLR_ERROR) {
		refusals++;
	}
}

static void check(const char *what, bool ok) {
	printf("%s: %s\n", what, ok ? "yes" : "NO");
	if (!ok) {
		exit(1);
	}
}

static void *show(void *data, struct wlr_surface *surface, struct wlr_output *output, struct seatkit_output **routed_on) {
	(void)data;
	(void)surface;
	(void)output;
	(void)routed_on;
	return NULL;
}

static void log_line(void *data, const char *line) {
	(void)data;
	printf("log: %s\n", line);
}

/* A display with a router, a wlr_seat and a bridge: what every protocol object needs. */
struct scene {
	struct wl_display *display;
	struct seatkit_router *router;
	struct wlr_seat *seat;
	struct seatkit_wlr_seat *bridge;
};

static struct scene make_scene(void) {
	struct scene s;
	s.display = wl_display_create();
	s.router = seatkit_router_create(wl_display_get_event_loop(s.display));
	s.seat = wlr_seat_create(s.display, "seat0");
	s.bridge = seatkit_wlr_seat_create(s.router, s.seat, NULL);
	return s;
}

int main(void) {
	wlr_log_init(WLR_ERROR, count_refusals);
	struct scene s = make_scene();
	check("a scene is made", s.display && s.router && s.seat && s.bridge);

	/* NULL arguments: refused with a logged error, NULL returned. */
	int before = refusals;
	check("idle notifier without a display is refused", !seatkit_wlr_idle_notifier_create(NULL, s.router));
	check("idle notifier without a router is refused", !seatkit_wlr_idle_notifier_create(s.display, NULL));
	check("cursor shape without a display is refused", !seatkit_wlr_cursor_shape_manager_create(NULL, s.bridge));
	check("cursor shape without a bridge is refused", !seatkit_wlr_cursor_shape_manager_create(s.display, NULL));
	struct seatkit_wlr_session_lock_interface lock_impl = {
		.struct_size = sizeof lock_impl, .show_surface = show,
	};
	check("session lock without a display is refused", !seatkit_wlr_session_lock_create(NULL, s.bridge, &lock_impl, NULL));
	check("session lock without a bridge is refused", !seatkit_wlr_session_lock_create(s.display, NULL, &lock_impl, NULL));
	check("session lock without an interface is refused", !seatkit_wlr_session_lock_create(s.display, s.bridge, NULL, NULL));
	struct seatkit_wlr_session_lock_interface small = { .struct_size = sizeof(size_t), .show_surface = show };
	check("session lock with a struct_size too small is refused", !seatkit_wlr_session_lock_create(s.display, s.bridge, &small, NULL));
	struct seatkit_wlr_session_lock_interface no_show = { .struct_size = sizeof no_show };
	check("session lock without show_surface is refused", !seatkit_wlr_session_lock_create(s.display, s.bridge, &no_show, NULL));
	check("each refusal is logged", refusals - before == 9);

	/* Every other call on NULL: nothing happens. */
	seatkit_wlr_idle_notifier_set_inhibited(NULL, true);
	seatkit_wlr_idle_notifier_set_log(NULL, log_line, NULL);
	seatkit_wlr_idle_notifier_destroy(NULL);
	seatkit_wlr_session_lock_raise(NULL);
	seatkit_wlr_session_lock_set_key_output(NULL, NULL);
	seatkit_wlr_session_lock_set_log(NULL, log_line, NULL);
	seatkit_wlr_session_lock_destroy(NULL);
	seatkit_wlr_cursor_shape_manager_set_log(NULL, log_line, NULL);
	seatkit_wlr_cursor_shape_manager_destroy(NULL);
	check("a NULL session lock is not locked", !seatkit_wlr_session_lock_is_locked(NULL));

	/* Made, used in the wrong state, destroyed by their own _destroy. */
	struct seatkit_wlr_idle_notifier *idle = seatkit_wlr_idle_notifier_create(s.display, s.router);
	struct seatkit_wlr_session_lock *lock = seatkit_wlr_session_lock_create(s.display, s.bridge, &lock_impl, NULL);
	struct seatkit_wlr_cursor_shape_manager *shapes = seatkit_wlr_cursor_shape_manager_create(s.display, s.bridge);
	check("each protocol object is made", idle && lock && shapes);
	seatkit_wlr_idle_notifier_set_log(idle, log_line, NULL);
	seatkit_wlr_idle_notifier_set_inhibited(idle, false);  /* already not inhibited */
	seatkit_wlr_idle_notifier_set_inhibited(idle, true);
	seatkit_wlr_idle_notifier_set_inhibited(idle, true);
	seatkit_wlr_idle_notifier_set_inhibited(idle, false);
	seatkit_wlr_session_lock_set_log(lock, log_line, NULL);
	seatkit_wlr_session_lock_raise(lock);  /* not locked: nothing to raise */
	seatkit_wlr_session_lock_set_key_output(lock, NULL);
	check("a session lock no client asked for is not locked", !seatkit_wlr_session_lock_is_locked(lock));
	seatkit_wlr_cursor_shape_manager_set_log(shapes, NULL, NULL);
	wl_event_loop_dispatch(wl_display_get_event_loop(s.display), 0);
	seatkit_wlr_idle_notifier_destroy(idle);
	seatkit_wlr_session_lock_destroy(lock);
	seatkit_wlr_cursor_shape_manager_destroy(shapes);
	check("no call on a live object was refused", refusals - before == 9);

	/* Pads: NULL refused and logged; added (again: replaced), told events with indices past
	 * their counts, asked for feedback no client gave, removed; one left for the display's
	 * end (valgrind: nothing leaks, nothing is read after it is freed). */
	uint32_t buttons[] = { 0, 1, 7 }, rings[] = { 0, 3 }, strips[] = { 0 };
	struct seatkit_pad_group groups[] = {
		{ .modes = 2, .button_count = 3, .buttons = buttons, .ring_count = 2, .rings = rings },
		{ .modes = 1, .strip_count = 1, .strips = strips },
	};
	struct seatkit_pad_layout layout = { .buttons = 2, .rings = 1, .strips = 1, .group_count = 2, .groups = groups };
	struct seatkit_pad_layout no_groups = { .buttons = 3, .rings = 1 };
	struct seatkit_pad_event press = { .device = 5, .kind = SEATKIT_PAD_BUTTON, .index = 1, .value = 1, .mode = 1 };
	struct seatkit_pad_event past = { .device = 5, .kind = SEATKIT_PAD_RING, .index = 3, .value = 90 };
	before = refusals;
	check("a pad before tablets are enabled is not added", !seatkit_wlr_seat_add_pad(s.bridge, 5, &layout));
	check("a pad without a bridge is refused", !seatkit_wlr_seat_add_pad(NULL, 5, &layout));
	check("a pad without a layout is refused", !seatkit_wlr_seat_add_pad(s.bridge, 5, NULL));
	seatkit_wlr_seat_notify_pad(NULL, &press);
	seatkit_wlr_seat_notify_pad(s.bridge, NULL);
	check("the four NULLs were logged", refusals - before == 4);
	check("tablets are enabled", seatkit_wlr_seat_enable_tablets(s.bridge));
	check("a pad is added", seatkit_wlr_seat_add_pad(s.bridge, 5, &layout));
	check("a pad added again replaces it", seatkit_wlr_seat_add_pad(s.bridge, 5, &layout));
	check("a pad without groups is added", seatkit_wlr_seat_add_pad(s.bridge, 6, &no_groups));
	seatkit_wlr_seat_notify_pad(s.bridge, &press);
	seatkit_wlr_seat_notify_pad(s.bridge, &past);
	check("no feedback was given", !seatkit_wlr_seat_get_pad_feedback(s.bridge, 5, SEATKIT_PAD_BUTTON, 1)
		&& !seatkit_wlr_seat_get_pad_feedback(s.bridge, 5, SEATKIT_PAD_RING, 9)
		&& !seatkit_wlr_seat_get_pad_feedback(NULL, 5, SEATKIT_PAD_BUTTON, 0));
	seatkit_wlr_seat_remove_tablet(s.bridge, 5);
	seatkit_wlr_seat_notify_pad(s.bridge, &press); /* a pad removed: nothing */
	check("no call on a live pad was refused", refusals - before == 4);

	/* Made again, left for wl_display_destroy (the header's other ending), after the clients
	 * and before the router, as a compositor's teardown goes. */
	check("they can be made again", seatkit_wlr_idle_notifier_create(s.display, s.router)
		&& seatkit_wlr_session_lock_create(s.display, s.bridge, &lock_impl, NULL)
		&& seatkit_wlr_cursor_shape_manager_create(s.display, s.bridge));
	wl_display_destroy_clients(s.display);
	wl_display_destroy(s.display);
	seatkit_router_destroy(s.router);

	/* A second scene whose router goes first: a lock asked of a bridge with no router is
	 * refused. */
	struct scene t = make_scene();
	seatkit_router_destroy(t.router);
	before = refusals;
	check("a session lock on a bridge whose router is gone is refused",
		!seatkit_wlr_session_lock_create(t.display, t.bridge, &lock_impl, NULL) && refusals - before == 1);
	wl_display_destroy(t.display);
	printf("ok\n");
	return 0;
}
