/*
 * A gesture recognizer written in C: a two-finger double tap, as a seatkit_recognizer_interface
 * (the guide's example, EmbeddingInC.md "Writing a recognizer in C"). Built only from the
 * installed header and libseatkit; CCustomRecognizerTests runs it and compares its lines.
 *
 * It shows the custom recognizer beside the built-ins: a built-in two-finger tap that
 * requires it to fail, a built-in two-finger double tap that conflicts with it (and then
 * runs simultaneously), a finger that moves too far, refused state moves, and a compositor
 * swipe's progress and velocity read from C.
 */
#include <seatkit/seatkit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { printf("FAILED: %s (line %d)\n", #cond, __LINE__); failures++; } } while (0)

static void log_line(enum seatkit_log_importance importance, const char *fmt, va_list args) {
	char message[512];
	vsnprintf(message, sizeof message, fmt, args);
	printf("log %d: %s\n", importance, message);
}

/* ---- The recognizer ------------------------------------------------------------------ */

#define PRESS_LIMIT_USEC 500000    /* a tap's fingers stay down at most this long */
#define TAP_INTERVAL_USEC 300000   /* the second tap starts within this of the first */
#define ALLOWED_MOVEMENT_MM 5.0

struct two_finger_double_tap {
	int taps;               /* taps completed */
	int fingers_this_tap;   /* fingers that went down in the current tap */
	double x, y;            /* where the last tap was (layout space) */
};

static void tap_began(void *data, struct seatkit_recognizer *r, const struct seatkit_touch_event *event) {
	struct two_finger_double_tap *g = data;
	/* Every touch the recognizer follows; more than two fingers is not this gesture. */
	if (seatkit_recognizer_get_touches(r, NULL, 0) > 2) {
		seatkit_recognizer_fail(r);
		return;
	}
	if (g->fingers_this_tap == 0) {
		/* A new tap: the interval deadline is over, the press deadline starts. */
		seatkit_recognizer_cancel_deadlines(r);
		seatkit_recognizer_schedule(r, event->time_usec + PRESS_LIMIT_USEC);
	}
	g->fingers_this_tap += (int)event->touch_count;
}

static void tap_moved(void *data, struct seatkit_recognizer *r, const struct seatkit_touch_event *event) {
	(void)data;
	double limit = ALLOWED_MOVEMENT_MM * seatkit_recognizer_get_units_per_mm(r);
	for (size_t i = 0; i < event->touch_count; i++) {
		const struct seatkit_touch_point *t = &event->touches[i];
		if (hypot(t->x - t->start_x, t->y - t->start_y) > limit) {
			seatkit_recognizer_fail(r);
			return;
		}
	}
}

static void tap_ended(void *data, struct seatkit_recognizer *r, const struct seatkit_touch_event *event) {
	struct two_finger_double_tap *g = data;
	struct seatkit_touch_point touches[8];
	size_t n = seatkit_recognizer_get_touches(r, touches, 8);
	if (n > event->touch_count)
		return; /* fingers still down */
	g->x = g->y = 0;
	for (size_t i = 0; i < n && i < 8; i++) {
		g->x += touches[i].x / (double)n;
		g->y += touches[i].y / (double)n;
	}
	seatkit_recognizer_cancel_deadlines(r);
	if (g->fingers_this_tap != 2) {
		seatkit_recognizer_fail(r);
		return;
	}
	g->fingers_this_tap = 0;
	if (++g->taps == 2)
		seatkit_recognizer_set_state(r, SEATKIT_RECOGNIZER_RECOGNIZED);
	else
		seatkit_recognizer_schedule(r, event->time_usec + TAP_INTERVAL_USEC);
}

/* Held too long, or the second tap did not come in time. */
static void tap_deadline(void *data, struct seatkit_recognizer *r) {
	(void)data;
	seatkit_recognizer_fail(r);
}

static void tap_reset(void *data, struct seatkit_recognizer *r) {
	(void)r;
	struct two_finger_double_tap *g = data;
	g->taps = 0;
	g->fingers_this_tap = 0;
}

static const struct seatkit_recognizer_interface two_finger_double_tap_impl = {
	.struct_size = sizeof(struct seatkit_recognizer_interface),
	.touches_began = tap_began,
	.touches_moved = tap_moved,
	.touches_ended = tap_ended,
	.deadline_reached = tap_deadline,
	.reset = tap_reset,
};

/* ---- The program --------------------------------------------------------------------- */

static const char *state_name(enum seatkit_recognizer_state state) {
	static const char *names[] = { "possible", "began", "changed", "ended", "cancelled", "failed", "recognized" };
	return (unsigned)state < 7 ? names[state] : "?";
}

static struct two_finger_double_tap gesture;

static void changed(void *data, struct seatkit_recognizer *r, enum seatkit_recognizer_state state) {
	if (state == SEATKIT_RECOGNIZER_RECOGNIZED && strcmp(data, "double-tap-2") == 0)
		printf("%s %s at (%.0f, %.0f)\n", (const char *)data, state_name(state), gesture.x, gesture.y);
	else
		printf("%s %s\n", (const char *)data, state_name(state));
	(void)r;
}

static enum seatkit_result touches(const char *phase, const struct seatkit_touch_event *event) {
	for (size_t i = 0; i < event->touch_count; i++)
		printf("photo %s t%d\n", phase, event->touches[i].id);
	return SEATKIT_HANDLED;
}
static enum seatkit_result began(void *d, const struct seatkit_touch_event *e, const struct seatkit_event_context *c) {
	(void)d; (void)c; return touches("began", e);
}
static enum seatkit_result ended(void *d, const struct seatkit_touch_event *e, const struct seatkit_event_context *c) {
	(void)d; (void)c; return touches("ended", e);
}
static void cancelled(void *d, const struct seatkit_touch_event *e, const struct seatkit_event_context *c) {
	(void)d; (void)c; touches("cancelled", e);
}

static const struct seatkit_responder_interface photo_impl = {
	.struct_size = sizeof(struct seatkit_responder_interface),
	.touches_began = began,
	.touches_ended = ended,
	.touches_cancelled = cancelled,
};

static struct seatkit_router *router;
static int64_t now;

/* Two fingers down 20 units apart at (x, y), lifted `hold` later, then `pause`. */
static void two_finger_tap(double x, double y, int64_t hold, int64_t pause, int32_t first_id) {
	seatkit_router_advance_clock(router, now);
	seatkit_router_notify_touch_down(router, now, 1, first_id, x - 10, y);
	seatkit_router_notify_touch_down(router, now, 1, first_id + 1, x + 10, y);
	seatkit_router_notify_touch_frame(router, now, 1);
	now += hold;
	seatkit_router_advance_clock(router, now);
	seatkit_router_notify_touch_up(router, now, 1, first_id);
	seatkit_router_notify_touch_up(router, now, 1, first_id + 1);
	seatkit_router_notify_touch_frame(router, now, 1);
	now += pause;
	seatkit_router_advance_clock(router, now);
}

int main(void) {
	seatkit_log_init(SEATKIT_ERROR, log_line);
	setvbuf(stdout, NULL, _IOLBF, 0);

	router = seatkit_router_create_virtual(0);
	/* 100 mm across 1000 units: 10 layout units per millimetre. */
	struct seatkit_device_info screen = { .name = "screen", .capabilities = SEATKIT_DEVICE_TOUCH,
		.width_mm = 100, .height_mm = 100 };
	seatkit_router_notify_device_added(router, 0, 1, &screen);
	struct seatkit_output *output = seatkit_output_create(router, "DSI-1", 0, 0, 1000, 1000,
		SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1);
	struct seatkit_surface *photo = seatkit_surface_create(router, "photo", 0, 0, 1000, 1000);
	seatkit_surface_set_responder(photo, &photo_impl, NULL);
	CHECK(seatkit_surface_add_child(seatkit_output_get_root(output), photo));

	struct seatkit_recognizer *zoom = seatkit_recognizer_create_custom(router, "double-tap-2",
		&two_finger_double_tap_impl, &gesture);
	CHECK(zoom != NULL);
	seatkit_recognizer_set_callback(zoom, changed, "double-tap-2");
	/* A built-in two-finger single tap that must wait for the C double tap to fail. */
	struct seatkit_recognizer *select = seatkit_recognizer_create_tap(router, "tap-2", 1, 2);
	seatkit_recognizer_set_callback(select, changed, "tap-2");
	CHECK(seatkit_recognizer_require_to_fail(select, zoom));
	CHECK(seatkit_surface_add_recognizer(photo, zoom));
	CHECK(seatkit_surface_add_recognizer(photo, select));
	now = 10000;

	printf("-- a two-finger double tap\n");
	two_finger_tap(500, 500, 50000, 100000, 0);
	two_finger_tap(502, 500, 50000, 400000, 2);

	printf("-- a single two-finger tap: the C recognizer fails after the interval, the built-in tap follows\n");
	two_finger_tap(300, 300, 50000, 400000, 4);

	printf("-- a finger that moves 6 mm fails it\n");
	seatkit_router_notify_touch_down(router, now, 1, 6, 100, 100);
	seatkit_router_notify_touch_down(router, now, 1, 7, 120, 100);
	seatkit_router_notify_touch_frame(router, now, 1);
	now += 10000;
	seatkit_router_notify_touch_motion(router, now, 1, 6, 160, 100);
	seatkit_router_notify_touch_frame(router, now, 1);
	now += 10000;
	seatkit_router_notify_touch_up(router, now, 1, 6);
	seatkit_router_notify_touch_up(router, now, 1, 7);
	seatkit_router_notify_touch_frame(router, now, 1);
	now += 400000;
	seatkit_router_advance_clock(router, now);

	printf("-- beside a built-in two-finger double tap: the first to recognize excludes the other\n");
	seatkit_recognizer_detach(select);
	struct seatkit_recognizer *builtin = seatkit_recognizer_create_tap(router, "builtin-double-tap-2", 2, 2);
	seatkit_recognizer_set_callback(builtin, changed, "builtin-double-tap-2");
	CHECK(seatkit_surface_add_recognizer(photo, builtin));
	two_finger_tap(500, 500, 50000, 100000, 8);
	two_finger_tap(500, 500, 50000, 400000, 10);
	printf("-- simultaneous: both\n");
	CHECK(seatkit_recognizer_set_simultaneous(zoom, builtin, true));
	two_finger_tap(500, 500, 50000, 100000, 12);
	two_finger_tap(500, 500, 50000, 400000, 14);

	printf("-- refused moves\n");
	CHECK(!seatkit_recognizer_set_state(zoom, SEATKIT_RECOGNIZER_ENDED));
	CHECK(!seatkit_recognizer_set_state(zoom, SEATKIT_RECOGNIZER_POSSIBLE));
	CHECK(!seatkit_recognizer_set_state(builtin, SEATKIT_RECOGNIZER_RECOGNIZED));
	CHECK(!seatkit_recognizer_set_state(zoom, (enum seatkit_recognizer_state)42));
	struct seatkit_recognizer_interface unsized = two_finger_double_tap_impl;
	unsized.struct_size = 0;
	CHECK(seatkit_recognizer_create_custom(router, "unsized", &unsized, NULL) == NULL);
	CHECK(seatkit_recognizer_get_state(zoom) == SEATKIT_RECOGNIZER_POSSIBLE);

	printf("-- a compositor swipe: progress and velocity from C\n");
	seatkit_recognizer_destroy(zoom);
	seatkit_recognizer_destroy(builtin);
	struct seatkit_recognizer *swipe = seatkit_recognizer_create_swipe(router, "switch", SEATKIT_SWIPE_LEFT, 1);
	CHECK(seatkit_recognizer_set_commit_threshold(swipe, 20)); /* 20 mm: 200 units */
	seatkit_recognizer_set_callback(swipe, changed, "switch");
	CHECK(seatkit_output_add_recognizer(output, swipe));
	seatkit_router_notify_touch_down(router, now, 1, 20, 800, 500);
	seatkit_router_notify_touch_frame(router, now, 1);
	for (int i = 1; i <= 10; i++) {
		now += 10000;
		seatkit_router_notify_touch_motion(router, now, 1, 20, 800 - 25 * i, 500);
		seatkit_router_notify_touch_frame(router, now, 1);
		if (i % 4 == 0)
			printf("progress %.3f\n", seatkit_recognizer_get_progress(swipe));
	}
	double vx = 0, vy = 0, confidence = 0, mmx = 0;
	CHECK(seatkit_recognizer_get_velocity(swipe, &vx, &vy, &confidence));
	CHECK(seatkit_recognizer_get_velocity_mm(swipe, &mmx, NULL));
	printf("velocity %.0f units/s, %.0f mm/s, confidence %.2f\n", vx, mmx, confidence);
	now += 10000;
	seatkit_router_notify_touch_up(router, now, 1, 20);
	seatkit_router_notify_touch_frame(router, now, 1);

	seatkit_router_destroy(router);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
