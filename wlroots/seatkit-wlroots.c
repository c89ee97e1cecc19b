/*
 * SeatKit for wlroots 0.15: see include/seatkit/seatkit-wlroots.h. Built by
 * scripts/install.sh (with -Wall -Wextra -Werror) into libseatkit-wlroots.so.
 */
#define _POSIX_C_SOURCE 200809L
#include <linux/input-event-codes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <seatkit/seatkit-delivery.h>
#include <seatkit/seatkit-wlroots.h>
#include <wayland-server-protocol.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/interfaces/wlr_input_device.h>
#include <wlr/interfaces/wlr_tablet_pad.h>
#include <wlr/interfaces/wlr_tablet_tool.h>
#include <wlr/types/wlr_primary_selection.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_tablet_pad.h>
#include <wlr/types/wlr_tablet_tool.h>
#include <wlr/types/wlr_tablet_v2.h>
#include <wlr/types/wlr_touch.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>

/* The device numbers the bridge reports to SeatKit: the keyboard group, then the rest. */
#define KEYBOARDS_DEVICE 0x10000u
#define FIRST_DEVICE 0x10001u

struct seatkit_wlr_seat {
	struct seatkit_router *router; /* NULL once destroyed */
	struct wlr_seat *seat;
	struct wlr_output_layout *layout;
	struct wl_event_loop *loop;
	/* SeatKit's capabilities last set, and whether the seat never offers a pointer
	 * (seatkit_wlr_seat_set_no_pointer). */
	uint32_t capabilities;
	bool no_pointer;

	/* The modifiers of the last key SeatKit delivered (SeatKit's keymap is the truth). */
	struct wlr_keyboard_modifiers modifiers;
	struct wlr_keyboard_group *keyboards;
	int keyboard_count;

	/* The one emulated pointer (wlr_seat has one pointer focus), and its surface. */
	struct seatkit_pointer_emulation emulation;
	struct bridged_surface *emulation_surface;
	/* What was sent since the last frame. */
	bool touch_sent, pointer_sent;
	/* Inside a device's event: its frame, not an idle callback, closes the pointer frame. */
	int in_device_event;
	struct wl_event_source *pointer_frame_idle;
	/* The time of the routed pointer event whose deliveries the open frame holds. */
	int64_t pointer_frame_usec;

	int64_t last_time_usec;
	/* The second stamp_last_event last divided out: its start (router microseconds) and its
	 * number. Zero (calloc) is second 0, which is right for that second. */
	int64_t stamp_second_usec;
	time_t stamp_second;
	uint32_t next_device;
	struct wl_list devices; /* struct device::link */
	struct wl_list surfaces; /* struct bridged_surface::link */

	struct wlr_cursor *cursor;
	struct wlr_xcursor_manager *xcursor;
	bool cursor_is_default;
	/* With cursor_is_default: a theme image the focused client named (cursor-shape-v1,
	 * seatkit_wlr_seat_set_cursor_shape), or NULL for left_ptr. A static string. */
	const char *cursor_shape;
	/* The serial of the last wl_pointer.enter: a shape asked for before it is stale. */
	uint32_t pointer_enter_serial;
	/* seatkit_wlr_seat_set_cursor_hidden: no image shown; what would be shown is kept (the
	 * focused client's surface and hotspot, or the default) and shown again when unhidden. */
	bool cursor_hidden;
	struct wlr_surface *client_cursor;
	int32_t client_hotspot_x, client_hotspot_y;
	struct wl_listener client_cursor_destroy;
	/* wlroots 0.15's wlr_cursor gives an output added to the layout no image: set it again. */
	struct wl_listener layout_add, layout_destroy;

	/* Pens (seatkit_wlr_seat_enable_tablets): wlroots' tablet-v2 manager (NULL: none, or gone
	 * with the display), a tablet per SeatKit device a pen came from, a tool per pen. */
	struct wlr_tablet_manager_v2 *tablet_manager;
	struct wl_listener tablet_manager_destroy;
	struct wl_list tablets; /* struct bridged_tablet::link */
	struct wl_list tools; /* struct bridged_tool::link */
	/* The surface a pen drives as its pointer (its client bound no tablet seat). */
	struct bridged_surface *pen_pointer_surface;
	/* Pads (seatkit_wlr_seat_add_pad), and the tablet whose tool came in last: the one a
	 * pad's enter quotes when it follows keyboard focus. */
	struct wl_list pads; /* struct bridged_pad::link */
	struct bridged_tablet *last_tablet;

	void (*log)(void *data, const char *line);
	void *log_data;

	struct wl_listener router_destroy, touch_frame, seat_destroy;
	/* Touch frames come through the router's touch-frame callback (else its signal, whose
	 * listener is touch_frame: a second bridge on the router). */
	bool touch_frame_by_callback;
	struct wl_listener keyboards_key, keyboards_leave;
	struct wl_listener request_set_cursor, request_set_selection, request_set_primary_selection;
	struct wl_listener pointer_focus_change;
};

enum device_kind { DEVICE_POINTER, DEVICE_TOUCH, DEVICE_KEYBOARD, DEVICE_VIRTUAL_KEYBOARD, DEVICE_TABLET, DEVICE_PAD };

struct device {
	struct seatkit_wlr_seat *bridge;
	struct wlr_input_device *wlr;
	enum device_kind kind;
	uint32_t number;
	int64_t last_time_usec; /* a touch frame carries no time: its last event's */
	/* A wlroots tablet: its tool in proximity, and the last value of each of its axes
	 * (wlroots' axis events carry only the changed ones; SeatKit's every one), the position
	 * also normalized (0...1 of the tablet) as wlroots gave it. */
	struct wlr_tablet_tool *tool;
	struct seatkit_pen_event pen;
	double pen_nx, pen_ny;
	struct wl_listener event[6], destroy;
	struct wl_list link;
};

struct bridged_surface {
	struct seatkit_wlr_seat *bridge;
	struct seatkit_surface *surface;
	struct wlr_surface *wlr_surface; /* NULL once wlroots destroyed it */
	uint32_t flags;
	struct wl_listener surface_destroy, wlr_surface_destroy;
	struct wl_list link;
};

/* A SeatKit tablet device as wlroots' tablet-v2 knows it: a wlr_input_device of our own. */
struct bridged_tablet {
	uint32_t device;
	struct wlr_input_device *wlr;
	struct wlr_tablet_v2_tablet *v2;
	struct wl_list link;
};

/* A pen (tablet tool): one per kind and serial, and per tablet for tools without a serial. */
struct bridged_tool {
	struct seatkit_wlr_seat *bridge;
	uint32_t device;
	enum seatkit_pen_tool_type type;
	uint64_t serial;
	struct wlr_tablet_tool wlr;
	struct wlr_tablet_v2_tablet_tool *v2;
	struct wl_listener set_cursor;
	struct wl_list link;
};

/* A SeatKit tablet pad as wlroots' tablet-v2 knows it: a wlr_input_device of our own with
 * the pad's layout, and what clients asked to show for its buttons, rings and strips. */
struct bridged_pad {
	struct seatkit_wlr_seat *bridge;
	uint32_t device;
	struct wlr_input_device *wlr;
	struct wlr_tablet_v2_tablet_pad *v2;
	/* The surface the pad entered (NULL: none), and the tablet that enter quoted. */
	struct wlr_surface *focus;
	struct bridged_tablet *focus_tablet;
	struct wl_listener focus_destroy;
	/* Per mode group: the serial of its last mode_switch (the enter's, or a mode change's);
	 * a set_feedback quoting another is stale and ignored, as tablet-v2 says. */
	uint32_t *group_serials;
	size_t group_count;
	/* The mode group of each button, ring and strip, and the description set for each (a
	 * set_feedback; NULL: none). */
	uint32_t *button_groups, *ring_groups, *strip_groups;
	char **button_feedback, **ring_feedback, **strip_feedback;
	size_t button_count, ring_count, strip_count;
	struct wl_listener button_feedback_set, ring_feedback_set, strip_feedback_set;
	struct wl_list link;
};

static void pads_follow(struct seatkit_wlr_seat *b, struct wlr_surface *surface, struct bridged_tablet *t);
static void report_line(struct seatkit_wlr_seat *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The delivery log (seatkit_wlr_seat_set_delivery_log), if one is set: tested before the
 * call, so that without a log a delivery pays for no variadic call (its doubles moved into
 * registers). */
#define report(b, ...) do { if ((b)->log) report_line((b), __VA_ARGS__); } while (0)
static void report_line(struct seatkit_wlr_seat *b, const char *fmt, ...) {
	char line[160];
	va_list args;
	va_start(args, fmt);
	vsnprintf(line, sizeof line, fmt, args);
	va_end(args);
	b->log(b->log_data, line);
}

/* ---- Times and coordinates, converted once ---- */

/* wlroots' event times are milliseconds cut to 32 bits, of CLOCK_MONOTONIC for libinput
 * and the headless and wayland backends, of the X server's clock for x11. The router's
 * clock is CLOCK_MONOTONIC in microseconds (or a virtual one): the time is widened to the
 * 64-bit value nearest the router's now; one ahead of now or more than 10 s behind (another
 * clock) is now. Never earlier than the last. */
static int64_t router_time(struct seatkit_wlr_seat *b, uint32_t msec) {
	int64_t now = seatkit_router_get_time(b->router);
	int64_t now_ms = now / 1000;
	int64_t wrap = INT64_C(1) << 32;
	int64_t t = (now_ms - (now_ms & (wrap - 1))) + msec;
	if (t > now_ms + wrap / 2) {
		t -= wrap;
	} else if (t < now_ms - wrap / 2) {
		t += wrap;
	}
	int64_t usec = t * 1000;
	if (usec > now || usec < now - 10 * INT64_C(1000000)) {
		usec = now;
	}
	if (usec < b->last_time_usec) {
		usec = b->last_time_usec;
	}
	b->last_time_usec = usec;
	return usec;
}

static uint32_t msec(int64_t usec) {
	return (uint32_t)(usec / 1000);
}

/* A device's point (0...1 of its area) in layout space: SeatKit's router maps it (the
 * device's output, from its udev WL_OUTPUT or the x11/wayland backend's output name, or a
 * mapping rule; its calibration; the output's transform; one clamp). */
static bool device_to_layout(struct seatkit_wlr_seat *b, struct device *d, double x, double y, double *lx, double *ly) {
	return seatkit_router_device_point_from_normalized(b->router, d->number, x, y, lx, ly);
}

/* ---- Frames ---- */

static void send_pointer_frame(struct seatkit_wlr_seat *b) {
	if (b->pointer_sent) {
		b->pointer_sent = false;
		wlr_seat_pointer_notify_frame(b->seat);
		report(b, "pointer-frame");
	}
}

static void pointer_frame_idle(void *data) {
	struct seatkit_wlr_seat *b = data;
	b->pointer_frame_idle = NULL;
	send_pointer_frame(b);
}

/* A routed pointer event (motion, button, axis) is about to be delivered. Outside a wlroots
 * device's event (SeatKit's own libinput, a replay, the compositor's notify calls), an
 * open frame of an event of another time is closed first: each libinput pointer event is
 * a frame of its own, as wlroots' libinput backend frames it, while the deliveries of one
 * event (an enter, then the motion) stay together. Before, the frame was closed only once
 * the loop went idle, so the events read in one wakeup reached the client as one frame
 * (a touchpad's scroll made fewer frames than cage's, and a number that depended on how
 * the reads were batched). */
static void pointer_event_begins(struct seatkit_wlr_seat *b, int64_t time_usec) {
	if (!b->in_device_event && b->pointer_sent && time_usec != b->pointer_frame_usec) {
		send_pointer_frame(b);
	}
	b->pointer_frame_usec = time_usec;
}

/* Something went to the pointer: closed by the device's frame, or, when SeatKit sent it
 * outside a device event (focus moved under a still pointer), once the loop is idle. */
static void pointer_sent(struct seatkit_wlr_seat *b) {
	b->pointer_sent = true;
	if (!b->in_device_event && !b->pointer_frame_idle) {
		b->pointer_frame_idle = wl_event_loop_add_idle(b->loop, pointer_frame_idle, b);
	}
}

/* ---- Touch sends under wlroots' default touch grab ----
 *
 * wlroots 0.15 sends every wl_touch event through wl_touch_send_* (wl_resource_post_event,
 * varargs: libwayland parses the event's signature into an argument array for each event,
 * ~150 instructions an event on the touchscreen benchmark). While the seat's grab is
 * wlroots' default one, the bridge sends them with the array made directly
 * (wl_resource_post_event_array), exactly as that grab sends them (types/seat/wlr_seat_touch.c,
 * 0.15.1: default_touch_motion, wlr_seat_touch_send_motion, default_touch_frame,
 * wlr_seat_touch_send_frame; the downs and ups below). Under any other grab (an xdg popup's,
 * the silent one below) the grab decides, through wlroots' notify calls. A client's wl_touch
 * resources are walked by their links (wl_resource_for_each asks libwayland for each
 * resource's link twice a step). */
static bool touch_grab_is_default(struct wlr_seat *seat) {
	return seat->touch_state.grab == seat->touch_state.default_grab;
}

/* Sends an event to each live wl_touch of `client` (an inert one, its seat client gone, has
 * no user data), and marks the client for the next wl_touch.frame (as wlroots' sends do). */
static void post_to_touches(struct wlr_seat_client *client, uint32_t opcode, union wl_argument *args) {
	client->needs_touch_frame = true;
	struct wl_list *touches = &client->touches;
	for (struct wl_list *link = touches->next, *next; link != touches; link = next) {
		next = link->next;
		struct wl_resource *resource = wl_resource_from_link(link);
		if (wl_resource_get_user_data(resource)) {
			wl_resource_post_event_array(resource, opcode, args);
		}
	}
}

/* wlr_seat_touch_get_point, walked here (wlroots 0.15's own walk of the seat's public list
 * of points, without the call into libwlroots; one point per finger down). */
static struct wlr_touch_point *seat_touch_point(struct wlr_seat *seat, int32_t id) {
	struct wlr_touch_point *point;
	wl_list_for_each(point, &seat->touch_state.touch_points, link) {
		if (point->touch_id == id) {
			return point;
		}
	}
	return NULL;
}

/* wlr_seat.last_event stamped with the event's own time (`usec`, the router's clock:
 * CLOCK_MONOTONIC for a router on the event loop, where a libinput event's time is the
 * kernel's timestamp of it), where wlroots' notify calls read the clock (clock_gettime, a
 * call per motion: ~40 instructions with the benchmark's clock shim). wlroots 0.15 only
 * writes the field; a compositor reads it to tell which seat had input last. It never goes
 * back: a motion read in the same wakeup as a down that wlroots stamped with the clock's now
 * may be older than that now. */
static void stamp_last_event(struct seatkit_wlr_seat *b, int64_t usec) {
	/* A motion in the second of the last stamp (every motion but the first of a second)
	 * takes its second from there, without the two divisions (~7 instructions a motion). */
	uint64_t rem = (uint64_t)usec - (uint64_t)b->stamp_second_usec;
	time_t sec = b->stamp_second;
	if (rem >= 1000000) {
		int64_t s = usec / 1000000, r = usec % 1000000;
		if (r < 0) {
			s -= 1;
			r += 1000000;
		}
		sec = (time_t)s;
		rem = (uint64_t)r;
		b->stamp_second = sec;
		b->stamp_second_usec = usec - r;
	}
	struct timespec *last = &b->seat->last_event;
	long nsec = (long)rem * 1000;
	if (sec > last->tv_sec || (sec == last->tv_sec && nsec > last->tv_nsec)) {
		last->tv_sec = sec;
		last->tv_nsec = nsec;
	}
}

/* wlr_seat_touch_notify_motion for `point` (already looked up by the caller), at `usec`
 * (the router's time of the event) and `time_msec` (its milliseconds, wlroots' time). */
static void touch_notify_motion(struct seatkit_wlr_seat *b, struct wlr_touch_point *point, int64_t usec,
		uint32_t time_msec, double sx, double sy) {
	struct wlr_seat *seat = b->seat;
	if (!touch_grab_is_default(seat)) {
		wlr_seat_touch_notify_motion(seat, time_msec, point->touch_id, sx, sy);
		return;
	}
	stamp_last_event(b, usec);
	point->sx = sx;
	point->sy = sy;
	if (point->focus_surface && point->focus_surface != point->surface) {
		return;
	}
	/* Each argument's own 32-bit field written, the rest of its union left as it is: libwayland
	 * marshals only the field its signature names ("uiff"), and the initializer zeroed
	 * every union whole (~3 instructions a motion). */
	union wl_argument args[4];
	args[0].u = time_msec;
	args[1].i = point->touch_id;
	args[2].f = wl_fixed_from_double(sx);
	args[3].f = wl_fixed_from_double(sy);
	post_to_touches(point->client, WL_TOUCH_MOTION, args);
}

/* The arguments of an event that has none (wl_touch.frame): libwayland only reads them. */
static union wl_argument no_arguments[1];

/* wlr_seat_touch_notify_frame: one wl_touch.frame to each client sent an event since the
 * last frame (wlroots marks them). Not inlined: touch_frame_done ends with it (a jump), and
 * keeps no registers of its own around the walk's calls. */
__attribute__((noinline)) static void touch_notify_frame(struct wlr_seat *seat) {
	if (!touch_grab_is_default(seat)) {
		wlr_seat_touch_notify_frame(seat);
		return;
	}
	struct wlr_seat_client *client;
	wl_list_for_each(client, &seat->clients, link) {
		if (!client->needs_touch_frame) {
			continue;
		}
		struct wl_list *touches = &client->touches;
		for (struct wl_list *link = touches->next, *next; link != touches; link = next) {
			next = link->next;
			wl_resource_post_event_array(wl_resource_from_link(link), WL_TOUCH_FRAME, no_arguments);
		}
		client->needs_touch_frame = false;
	}
}

/* Downs and ups: wlroots makes and destroys the touch points, so they go through its notify
 * calls, with the default grab swapped for the call (as the silent grab below is for a
 * cancel) for one whose down and up send as wlroots' default ones do
 * (wlr_seat_touch_send_down, wlr_seat_touch_send_up) with the array; anything else asked of
 * it while it stands (a listener of the point's destroy) goes to the default grab. */
static struct wlr_seat_touch_grab *default_of(struct wlr_seat_touch_grab *grab) {
	return grab->seat->touch_state.default_grab;
}
static uint32_t array_touch_down(struct wlr_seat_touch_grab *grab, uint32_t time_msec, struct wlr_touch_point *point) {
	(void)grab;
	uint32_t serial = wlr_seat_client_next_serial(point->client);
	union wl_argument args[6]; /* as the motion's (touch_notify_motion) */
	args[0].u = serial;
	args[1].u = time_msec;
	args[2].o = (struct wl_object *)point->surface->resource;
	args[3].i = point->touch_id;
	args[4].f = wl_fixed_from_double(point->sx);
	args[5].f = wl_fixed_from_double(point->sy);
	post_to_touches(point->client, WL_TOUCH_DOWN, args);
	return serial;
}
static void array_touch_up(struct wlr_seat_touch_grab *grab, uint32_t time_msec, struct wlr_touch_point *point) {
	(void)grab;
	uint32_t serial = wlr_seat_client_next_serial(point->client);
	union wl_argument args[3]; /* as the motion's (touch_notify_motion) */
	args[0].u = serial;
	args[1].u = time_msec;
	args[2].i = point->touch_id;
	post_to_touches(point->client, WL_TOUCH_UP, args);
}
static void array_touch_motion(struct wlr_seat_touch_grab *grab, uint32_t time_msec, struct wlr_touch_point *point) {
	struct wlr_seat_touch_grab *d = default_of(grab);
	d->interface->motion(d, time_msec, point);
}
static void array_touch_enter(struct wlr_seat_touch_grab *grab, uint32_t time_msec, struct wlr_touch_point *point) {
	struct wlr_seat_touch_grab *d = default_of(grab);
	d->interface->enter(d, time_msec, point);
}
static void array_touch_frame(struct wlr_seat_touch_grab *grab) {
	struct wlr_seat_touch_grab *d = default_of(grab);
	if (d->interface->frame) {
		d->interface->frame(d);
	}
}
static void array_touch_cancel(struct wlr_seat_touch_grab *grab) {
	struct wlr_seat_touch_grab *d = default_of(grab);
	if (d->interface->cancel) {
		d->interface->cancel(d);
	}
}
static void array_touch_wl_cancel(struct wlr_seat_touch_grab *grab, struct wlr_surface *surface) {
	struct wlr_seat_touch_grab *d = default_of(grab);
	if (d->interface->wl_cancel) {
		d->interface->wl_cancel(d, surface);
	}
}
static const struct wlr_touch_grab_interface array_touch_grab = {
	.down = array_touch_down,
	.up = array_touch_up,
	.motion = array_touch_motion,
	.enter = array_touch_enter,
	.frame = array_touch_frame,
	.cancel = array_touch_cancel,
	.wl_cancel = array_touch_wl_cancel,
};

/* wlr_seat_touch_notify_down, under the default grab with the array grab in its place. */
static uint32_t touch_notify_down(struct wlr_seat *seat, struct wlr_surface *surface, uint32_t time_msec,
		int32_t id, double sx, double sy) {
	if (!touch_grab_is_default(seat)) {
		return wlr_seat_touch_notify_down(seat, surface, time_msec, id, sx, sy);
	}
	struct wlr_seat_touch_grab array = { .interface = &array_touch_grab, .seat = seat };
	struct wlr_seat_touch_grab *grab = seat->touch_state.grab;
	seat->touch_state.grab = &array;
	uint32_t serial = wlr_seat_touch_notify_down(seat, surface, time_msec, id, sx, sy);
	if (seat->touch_state.grab == &array) {
		seat->touch_state.grab = grab;
	}
	return serial;
}

/* wlr_seat_touch_notify_up, the same way. */
static void touch_notify_up(struct wlr_seat *seat, uint32_t time_msec, int32_t id) {
	if (!touch_grab_is_default(seat)) {
		wlr_seat_touch_notify_up(seat, time_msec, id);
		return;
	}
	struct wlr_seat_touch_grab array = { .interface = &array_touch_grab, .seat = seat };
	struct wlr_seat_touch_grab *grab = seat->touch_state.grab;
	seat->touch_state.grab = &array;
	wlr_seat_touch_notify_up(seat, time_msec, id);
	if (seat->touch_state.grab == &array) {
		seat->touch_state.grab = grab;
	}
}

/* The router delivered a touch frame: one wl_touch.frame to each client that got touch
 * events (wlroots keeps which), and the emulated pointer's frame. */
/* A touch frame that is logged or also ends the emulated pointer's frame (touch_frame_done's
 * less usual case, apart so that the usual one keeps no registers). */
__attribute__((noinline)) static void touch_frame_done_in_full(struct seatkit_wlr_seat *b) {
	if (b->touch_sent) {
		b->touch_sent = false;
		touch_notify_frame(b->seat);
		report(b, "touch-frame");
	}
	send_pointer_frame(b);
}

static void touch_frame_done(struct seatkit_wlr_seat *b) {
	if (b->log || b->pointer_sent) {
		touch_frame_done_in_full(b);
	} else if (b->touch_sent) {
		/* The touch frame alone (every frame but an emulated pointer's or a logged one): the
		 * walk's call is this one's last, a jump (~10 instructions a frame: no registers
		 * kept here across it). */
		b->touch_sent = false;
		touch_notify_frame(b->seat);
	}
}

/* The router's touch-frame callback (seatkit_router_set_touch_frame_callback): a plain call,
 * where the signal's listener was reached through libseatkit's emit (~20 instructions a
 * frame). */
static void touch_frame_callback(void *data) {
	touch_frame_done(data);
}

/* The touch-frame signal's listener: for a second bridge on one router (the callback is the
 * first's). */
static void handle_touch_frame(struct wl_listener *listener, void *data) {
	(void)data;
	struct seatkit_wlr_seat *b = wl_container_of(listener, b, touch_frame);
	touch_frame_done(b);
}

/* Stops hearing of the router's touch frames. */
static void stop_touch_frames(struct seatkit_wlr_seat *b) {
	if (b->touch_frame_by_callback) {
		seatkit_router_set_touch_frame_callback(b->router, NULL, NULL);
	} else {
		wl_list_remove(&b->touch_frame.link);
	}
}

/* ---- Cursor ---- */

static void forget_client_cursor(struct seatkit_wlr_seat *b) {
	if (b->client_cursor) {
		wl_list_remove(&b->client_cursor_destroy.link);
		b->client_cursor = NULL;
	}
}

static void handle_client_cursor_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct seatkit_wlr_seat *b = wl_container_of(listener, b, client_cursor_destroy);
	forget_client_cursor(b);
}

/* Shows the image the cursor has now (the default, or the focused client's), unless hidden. */
static void apply_cursor_image(struct seatkit_wlr_seat *b) {
	if (!b->cursor || b->cursor_hidden) {
		return;
	}
	if (b->cursor_is_default) {
		wlr_xcursor_manager_set_cursor_image(b->xcursor, b->cursor_shape ? b->cursor_shape : "left_ptr", b->cursor);
	} else {
		/* The client's image (none if it set none, or its surface is gone). */
		wlr_cursor_set_surface(b->cursor, b->client_cursor, b->client_hotspot_x, b->client_hotspot_y);
	}
}

static void handle_layout_add(struct wl_listener *listener, void *data) {
	struct seatkit_wlr_seat *b = wl_container_of(listener, b, layout_add);
	struct wlr_output_layout_output *l_output = data;
	wlr_xcursor_manager_load(b->xcursor, l_output->output->scale);
	apply_cursor_image(b);
}

static void stop_watching_layout(struct seatkit_wlr_seat *b) {
	if (b->layout_add.notify) {
		wl_list_remove(&b->layout_add.link);
		wl_list_remove(&b->layout_destroy.link);
		b->layout_add.notify = NULL;
	}
}

static void handle_layout_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct seatkit_wlr_seat *b = wl_container_of(listener, b, layout_destroy);
	stop_watching_layout(b);
}

static void set_default_cursor(struct seatkit_wlr_seat *b) {
	if (b->cursor && (!b->cursor_is_default || b->cursor_shape)) {
		b->cursor_is_default = true;
		b->cursor_shape = NULL;
		forget_client_cursor(b);
		if (!b->cursor_hidden) {
			wlr_xcursor_manager_set_cursor_image(b->xcursor, "left_ptr", b->cursor);
		}
	}
}

static void move_cursor(struct seatkit_wlr_seat *b) {
	if (b->cursor && b->router) {
		double lx, ly;
		seatkit_router_get_pointer_location(b->router, &lx, &ly);
		wlr_cursor_warp_closest(b->cursor, NULL, lx, ly);
	}
}

static void handle_request_set_cursor(struct wl_listener *listener, void *data) {
	struct seatkit_wlr_seat *b = wl_container_of(listener, b, request_set_cursor);
	struct wlr_seat_pointer_request_set_cursor_event *event = data;
	/* Only the client that has the pointer may set its image. */
	if (b->cursor && event->seat_client == b->seat->pointer_state.focused_client) {
		b->cursor_is_default = false;
		b->cursor_shape = NULL;
		forget_client_cursor(b);
		if (event->surface) {
			b->client_cursor = event->surface;
			b->client_hotspot_x = event->hotspot_x;
			b->client_hotspot_y = event->hotspot_y;
			b->client_cursor_destroy.notify = handle_client_cursor_destroy;
			wl_signal_add(&event->surface->events.destroy, &b->client_cursor_destroy);
		}
		if (!b->cursor_hidden) {
			wlr_cursor_set_surface(b->cursor, event->surface, event->hotspot_x, event->hotspot_y);
		}
	}
}

/* wlroots sent wl_pointer.enter (it emits focus_change right after): its serial is the
 * display's last. */
static void handle_pointer_focus_change(struct wl_listener *listener, void *data) {
	(void)data;
	struct seatkit_wlr_seat *b = wl_container_of(listener, b, pointer_focus_change);
	b->pointer_enter_serial = wl_display_get_serial(b->seat->display);
}

static void handle_request_set_selection(struct wl_listener *listener, void *data) {
	struct seatkit_wlr_seat *b = wl_container_of(listener, b, request_set_selection);
	struct wlr_seat_request_set_selection_event *event = data;
	wlr_seat_set_selection(b->seat, event->source, event->serial);
}

static void handle_request_set_primary_selection(struct wl_listener *listener, void *data) {
	struct seatkit_wlr_seat *b = wl_container_of(listener, b, request_set_primary_selection);
	struct wlr_seat_request_set_primary_selection_event *event = data;
	wlr_seat_set_primary_selection(b->seat, event->source, event->serial);
}

/* ---- The responder: what SeatKit routed to a client surface, to wlr_seat ---- */

/* Whether the surface's client bound wl_touch; if not, touches become its pointer. */
static bool client_has_touch(struct bridged_surface *s) {
	struct wlr_seat_client *client = wlr_seat_client_for_wl_client(s->bridge->seat,
		wl_resource_get_client(s->wlr_surface->resource));
	return client && !wl_list_empty(&client->touches);
}

/* The pointer goes to this surface: entered first if wlroots' focus is elsewhere (an
 * emulated touch took it, or wlroots cleared it). */
static void focus_pointer(struct bridged_surface *s, double sx, double sy) {
	struct seatkit_wlr_seat *b = s->bridge;
	if (b->seat->pointer_state.focused_surface != s->wlr_surface) {
		/* wlroots 0.15 closes enter (and leave) with a frame of its own; what came before
		 * is closed first. */
		send_pointer_frame(b);
		wlr_seat_pointer_notify_enter(b->seat, s->wlr_surface, sx, sy);
		report(b, "pointer enter %.2f %.2f", sx, sy);
	}
}

static void move_pointer(struct seatkit_wlr_seat *b, uint32_t time, double sx, double sy);

/* The emulation's actions: enter and leave are framed by wlroots, the rest by the touch
 * frame. */
static void emulate(void *data, enum seatkit_pointer_emulation_action action, double sx, double sy) {
	struct bridged_surface *s = data;
	struct seatkit_wlr_seat *b = s->bridge;
	if (!s->wlr_surface) {
		return; /* the emulation only ends: nothing to deliver to */
	}
	uint32_t time = b->router ? msec(seatkit_router_get_time(b->router)) : 0;
	switch (action) {
	case SEATKIT_POINTER_EMULATION_ENTER:
		send_pointer_frame(b);
		wlr_seat_pointer_notify_enter(b->seat, s->wlr_surface, sx, sy);
		report(b, "emulated pointer enter %.2f %.2f", sx, sy);
		break;
	case SEATKIT_POINTER_EMULATION_MOTION:
		move_pointer(b, time, sx, sy);
		report(b, "emulated pointer motion %.2f %.2f", sx, sy);
		break;
	case SEATKIT_POINTER_EMULATION_PRESS:
		wlr_seat_pointer_notify_button(b->seat, time, BTN_LEFT, WLR_BUTTON_PRESSED);
		pointer_sent(b);
		report(b, "emulated button down");
		break;
	case SEATKIT_POINTER_EMULATION_RELEASE:
		wlr_seat_pointer_notify_button(b->seat, time, BTN_LEFT, WLR_BUTTON_RELEASED);
		pointer_sent(b);
		report(b, "emulated button up");
		break;
	case SEATKIT_POINTER_EMULATION_LEAVE:
		if (b->seat->pointer_state.focused_surface == s->wlr_surface) {
			send_pointer_frame(b); /* the release, in a frame of its own */
			wlr_seat_pointer_notify_clear_focus(b->seat);
			report(b, "emulated pointer leave");
		}
		break;
	}
}

/* Motion, framed later; wlroots sends none to where the pointer already is. */
static void move_pointer(struct seatkit_wlr_seat *b, uint32_t time, double sx, double sy) {
	if (b->seat->pointer_state.sx != sx || b->seat->pointer_state.sy != sy) {
		wlr_seat_pointer_notify_motion(b->seat, time, sx, sy);
		pointer_sent(b);
	}
}

/* Whether touch `id` drives the emulated pointer, asked of the emulation itself. */
static bool emulation_driven_by(struct seatkit_wlr_seat *b, int32_t id) {
	int32_t primary;
	return seatkit_pointer_emulation_is_active(&b->emulation, &primary) && primary == id;
}

/* The same, answered without a call into libseatkit while no emulation runs: an emulation
 * starts only in touches_began, which records its surface (emulation_surface), and every
 * place it ends clears that, so an emulation runs only while emulation_surface is set. A
 * client with wl_touch (every touch frame of the touchscreen benchmark) never starts one. */
static bool emulating(struct seatkit_wlr_seat *b, int32_t id) {
	return b->emulation_surface && emulation_driven_by(b, id);
}

/* The surface the emulated pointer is on goes away: the emulation ends (a later finger on
 * another client may drive it). */
static void end_emulation_on(struct bridged_surface *s) {
	struct seatkit_wlr_seat *b = s->bridge;
	if (b->emulation_surface == s) {
		seatkit_pointer_emulation_touch_cancel(&b->emulation, emulate, s);
		b->emulation_surface = NULL;
	}
}

static enum seatkit_result touches_began(void *data, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	struct seatkit_wlr_seat *b = s->bridge;
	if (!s->wlr_surface) {
		return SEATKIT_HANDLED;
	}
	bool touch = client_has_touch(s);
	for (size_t i = 0; i < event->touch_count; i++) {
		const struct seatkit_touch_point *t = &event->touches[i];
		if (touch) {
			if (touch_notify_down(b->seat, s->wlr_surface, msec(event->time_usec), t->id, t->sx, t->sy)) {
				b->touch_sent = true;
				report(b, "touch down %d %.2f %.2f", t->id, t->sx, t->sy);
			}
		} else {
			bool here = b->seat->pointer_state.focused_surface == s->wlr_surface;
			seatkit_pointer_emulation_touch_down(&b->emulation, t->id, t->sx, t->sy, here, emulate, s);
			if (emulation_driven_by(b, t->id)) {
				b->emulation_surface = s;
			}
		}
	}
	return SEATKIT_HANDLED;
}

/* One touch's motion to its wlroots touch point (none: the touch is not the client's, or
 * ended in wlroots, as by a cancel), answered as a handler: touches_moved ends with it, for
 * the usual event of one touch, in a jump (~8 instructions a motion: this call keeps only the
 * send's registers across the sends, touches_moved none). */
__attribute__((noinline)) static enum seatkit_result move_touch(struct seatkit_wlr_seat *b,
		const struct seatkit_touch_point *t, int64_t usec) {
	struct wlr_touch_point *point = seat_touch_point(b->seat, t->id);
	if (point) {
		/* Marked and logged first: nothing but the sends is left after them. */
		b->touch_sent = true;
		report(b, "touch motion %d %.2f %.2f", t->id, t->sx, t->sy);
		touch_notify_motion(b, point, usec, msec(usec), t->sx, t->sy);
	}
	return SEATKIT_HANDLED;
}

/* touches_moved's walk of several touches, or of one that may drive the emulated pointer. */
__attribute__((noinline)) static enum seatkit_result move_touches(struct bridged_surface *s,
		const struct seatkit_touch_event *event) {
	struct seatkit_wlr_seat *b = s->bridge;
	for (const struct seatkit_touch_point *t = event->touches, *end = t + event->touch_count; t != end; t++) {
		if (emulating(b, t->id)) {
			seatkit_pointer_emulation_touch_motion(&b->emulation, t->id, t->sx, t->sy, emulate, s);
		} else {
			move_touch(b, t, event->time_usec);
		}
	}
	return SEATKIT_HANDLED;
}

static enum seatkit_result touches_moved(void *data, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	if (!s->wlr_surface) {
		return SEATKIT_HANDLED;
	}
	/* One touch and no emulated pointer (so not driving it: emulating() is false), the
	 * usual motion: straight to move_touch, in a jump. */
	if (event->touch_count == 1 && !s->bridge->emulation_surface) {
		return move_touch(s->bridge, event->touches, event->time_usec);
	}
	return move_touches(s, event);
}

static enum seatkit_result touches_ended(void *data, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	struct seatkit_wlr_seat *b = s->bridge;
	for (size_t i = 0; i < event->touch_count; i++) {
		const struct seatkit_touch_point *t = &event->touches[i];
		if (emulating(b, t->id)) {
			seatkit_pointer_emulation_touch_up(&b->emulation, t->id, emulate, s);
			b->emulation_surface = NULL;
		} else if (s->wlr_surface && seat_touch_point(b->seat, t->id)) {
			touch_notify_up(b->seat, msec(event->time_usec), t->id);
			b->touch_sent = true;
			report(b, "touch up %d", t->id);
		}
	}
	return SEATKIT_HANDLED;
}

/* A grab that drops touch points silently: wlroots 0.15 keeps a client's points after
 * wl_touch.cancel, so they are ended through it, with nothing sent. */
static uint32_t silent_down(struct wlr_seat_touch_grab *grab, uint32_t time, struct wlr_touch_point *point) {
	(void)grab, (void)time, (void)point;
	return 0;
}
static void silent_point(struct wlr_seat_touch_grab *grab, uint32_t time, struct wlr_touch_point *point) {
	(void)grab, (void)time, (void)point;
}
static void silent_grab(struct wlr_seat_touch_grab *grab) {
	(void)grab;
}
static void silent_cancel(struct wlr_seat_touch_grab *grab, struct wlr_surface *surface) {
	(void)grab, (void)surface;
}
static const struct wlr_touch_grab_interface silent_touch_grab = {
	.down = silent_down,
	.up = silent_point,
	.motion = silent_point,
	.enter = silent_point,
	.frame = silent_grab,
	.cancel = silent_grab,
	.wl_cancel = silent_cancel,
};

/* One wl_touch.cancel per client: sent only while the client has touch points, which it
 * then has no more (wl_touch.cancel ends all of them). */
static void cancel_client(struct bridged_surface *s, uint32_t time) {
	struct seatkit_wlr_seat *b = s->bridge;
	struct wlr_seat_client *client = wlr_seat_client_for_wl_client(b->seat,
		wl_resource_get_client(s->wlr_surface->resource));
	bool has_points = false;
	struct wlr_touch_point *point, *tmp;
	wl_list_for_each(point, &b->seat->touch_state.touch_points, link) {
		has_points |= client && point->client == client;
	}
	if (!has_points) {
		return;
	}
	wlr_seat_touch_notify_cancel(b->seat, s->wlr_surface);
	report(b, "touch cancel");
	struct wlr_seat_touch_grab silent = { .interface = &silent_touch_grab, .seat = b->seat };
	struct wlr_seat_touch_grab *grab = b->seat->touch_state.grab;
	b->seat->touch_state.grab = &silent;
	wl_list_for_each_safe(point, tmp, &b->seat->touch_state.touch_points, link) {
		if (point->client == client) {
			wlr_seat_touch_notify_up(b->seat, time, point->touch_id);
		}
	}
	b->seat->touch_state.grab = grab;
}

static void touches_cancelled(void *data, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	struct seatkit_wlr_seat *b = s->bridge;
	for (size_t i = 0; i < event->touch_count; i++) {
		if (emulating(b, event->touches[i].id)) {
			seatkit_pointer_emulation_touch_cancel(&b->emulation, emulate, s);
			b->emulation_surface = NULL;
		}
	}
	if (s->wlr_surface) {
		cancel_client(s, msec(event->time_usec));
	}
}

static void pointer_entered(void *data, const struct seatkit_pointer_crossing_event *event,
		const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	if (s->wlr_surface) {
		focus_pointer(s, event->sx, event->sy);
	}
}

static void pointer_left(void *data, const struct seatkit_pointer_crossing_event *event,
		const struct seatkit_event_context *context) {
	(void)event, (void)context;
	struct bridged_surface *s = data;
	struct seatkit_wlr_seat *b = s->bridge;
	if (s->wlr_surface && b->seat->pointer_state.focused_surface == s->wlr_surface) {
		send_pointer_frame(b);
		wlr_seat_pointer_notify_clear_focus(b->seat);
		report(b, "pointer leave");
	}
	set_default_cursor(b);
}

static enum seatkit_result pointer_moved(void *data, const struct seatkit_pointer_motion_event *event,
		const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	struct seatkit_wlr_seat *b = s->bridge;
	if (s->wlr_surface) {
		pointer_event_begins(b, event->time_usec);
		focus_pointer(s, event->sx, event->sy);
		move_pointer(b, msec(event->time_usec), event->sx, event->sy);
		report(b, "pointer motion %.2f %.2f", event->sx, event->sy);
	}
	/* Motion that did not come from a wlroots device (SeatKit's own libinput, a replay,
	 * an injected click) moves the drawn cursor too. */
	move_cursor(b);
	return SEATKIT_HANDLED;
}

static enum seatkit_result pointer_button(void *data, const struct seatkit_pointer_button_event *event,
		const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	struct seatkit_wlr_seat *b = s->bridge;
	if (s->wlr_surface) {
		bool pressed = event->state == SEATKIT_BUTTON_PRESSED;
		pointer_event_begins(b, event->time_usec);
		focus_pointer(s, event->sx, event->sy);
		wlr_seat_pointer_notify_button(b->seat, msec(event->time_usec), event->button,
			pressed ? WLR_BUTTON_PRESSED : WLR_BUTTON_RELEASED);
		pointer_sent(b);
		report(b, "pointer button 0x%x %s", event->button, pressed ? "pressed" : "released");
	}
	return SEATKIT_HANDLED;
}

static enum seatkit_result pointer_axis(void *data, const struct seatkit_pointer_axis_event *event,
		const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	struct seatkit_wlr_seat *b = s->bridge;
	if (!s->wlr_surface) {
		return SEATKIT_HANDLED;
	}
	static const enum wlr_axis_source sources[] = {
		WLR_AXIS_SOURCE_WHEEL, WLR_AXIS_SOURCE_FINGER, WLR_AXIS_SOURCE_CONTINUOUS, WLR_AXIS_SOURCE_WHEEL_TILT,
	};
	enum wlr_axis_source source = sources[event->axis.source & 3];
	uint32_t time = msec(event->time_usec);
	pointer_event_begins(b, event->time_usec);
	focus_pointer(s, event->sx, event->sy);
	if (event->axis.vertical != 0 || event->axis.vertical_stop) {
		wlr_seat_pointer_notify_axis(b->seat, time, WLR_AXIS_ORIENTATION_VERTICAL, event->axis.vertical,
			(int32_t)(event->axis.vertical_v120 / 120), source);
	}
	if (event->axis.horizontal != 0 || event->axis.horizontal_stop) {
		wlr_seat_pointer_notify_axis(b->seat, time, WLR_AXIS_ORIENTATION_HORIZONTAL, event->axis.horizontal,
			(int32_t)(event->axis.horizontal_v120 / 120), source);
	}
	pointer_sent(b);
	report(b, "pointer axis %.2f %.2f", event->axis.horizontal, event->axis.vertical);
	return SEATKIT_HANDLED;
}

/* The one place the bridge sends wl_keyboard.modifiers: only a change, and the record (which
 * a keyboard enter also sends) is always what clients were told last. */
static void send_modifiers(struct seatkit_wlr_seat *b, uint32_t depressed, uint32_t latched,
		uint32_t locked, uint32_t group) {
	struct wlr_keyboard_modifiers *m = &b->modifiers;
	if (m->depressed == depressed && m->latched == latched && m->locked == locked && m->group == group) {
		return;
	}
	*m = (struct wlr_keyboard_modifiers){ .depressed = depressed, .latched = latched,
		.locked = locked, .group = group };
	wlr_seat_keyboard_notify_modifiers(b->seat, m);
}

void seatkit_wlr_seat_notify_modifiers(struct seatkit_wlr_seat *b, uint32_t depressed, uint32_t latched,
		uint32_t locked, uint32_t group) {
	if (!b) {
		return;
	}
	send_modifiers(b, depressed, latched, locked, group);
	report(b, "modifiers 0x%x 0x%x 0x%x %u", depressed, latched, locked, group);
}

static enum seatkit_result key(struct bridged_surface *s, const struct seatkit_key_event *event) {
	struct seatkit_wlr_seat *b = s->bridge;
	/* Clients repeat on their own; a key whose surface lost the keyboard goes nowhere. */
	if (!s->wlr_surface || event->state == SEATKIT_KEY_REPEATED ||
			b->seat->keyboard_state.focused_surface != s->wlr_surface) {
		return SEATKIT_HANDLED;
	}
	bool pressed = event->state == SEATKIT_KEY_PRESSED;
	wlr_seat_keyboard_notify_key(b->seat, msec(event->time_usec), event->keycode,
		pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED);
	report(b, "key %u %s", event->keycode, pressed ? "pressed" : "released");
	send_modifiers(b, event->mods_depressed, event->mods_latched, event->mods_locked, event->group);
	return SEATKIT_HANDLED;
}

static enum seatkit_result key_down(void *data, const struct seatkit_key_event *event,
		const struct seatkit_event_context *context) {
	(void)context;
	return key(data, event);
}

static enum seatkit_result key_up(void *data, const struct seatkit_key_event *event,
		const struct seatkit_event_context *context) {
	(void)context;
	return key(data, event);
}

static bool can_become_first_responder(void *data) {
	struct bridged_surface *s = data;
	return (s->flags & SEATKIT_WLR_SURFACE_FOCUSABLE) && s->wlr_surface;
}

static void did_become_first_responder(void *data, const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	if (s->wlr_surface) {
		/* No keys: a key held now was pressed for another surface, whose release it gets. */
		wlr_seat_keyboard_notify_enter(s->bridge->seat, s->wlr_surface, NULL, 0, &s->bridge->modifiers);
		report(s->bridge, "keyboard enter");
		/* Pads follow keyboard focus too, as sway's do (quoting the last pen's tablet). */
		if (s->bridge->last_tablet) {
			pads_follow(s->bridge, s->wlr_surface, s->bridge->last_tablet);
		}
	}
}

static void did_resign_first_responder(void *data, const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	if (s->wlr_surface && s->bridge->seat->keyboard_state.focused_surface == s->wlr_surface) {
		wlr_seat_keyboard_notify_clear_focus(s->bridge->seat);
		report(s->bridge, "keyboard leave");
	}
}

/* ---- Pens: tablet-v2 for clients with a tablet seat, the pointer for the others ---- */

static struct bridged_tablet *tablet_for(struct seatkit_wlr_seat *b, uint32_t device) {
	struct bridged_tablet *t;
	wl_list_for_each(t, &b->tablets, link) {
		if (t->device == device) {
			return t;
		}
	}
	if (!b->tablet_manager) {
		return NULL;
	}
	t = calloc(1, sizeof *t);
	struct wlr_input_device *dev = calloc(1, sizeof *dev);
	struct wlr_tablet *tablet = calloc(1, sizeof *tablet);
	if (!t || !dev || !tablet) {
		free(t), free(dev), free(tablet);
		return NULL;
	}
	char name[48];
	snprintf(name, sizeof name, "SeatKit tablet %u", device);
	wlr_tablet_init(tablet, NULL);
	wlr_input_device_init(dev, WLR_INPUT_DEVICE_TABLET_TOOL, NULL, name, 0, 0);
	dev->tablet = tablet;
	t->device = device;
	t->wlr = dev;
	t->v2 = wlr_tablet_create(b->tablet_manager, b->seat, dev);
	if (!t->v2) {
		wlr_input_device_destroy(dev);
		free(t);
		return NULL;
	}
	wl_list_insert(&b->tablets, &t->link);
	report(b, "tablet %u added", device);
	return t;
}

/* The client under the pen set the tool's cursor: the drawn cursor shows it. */
static void handle_tool_set_cursor(struct wl_listener *listener, void *data) {
	struct bridged_tool *tool = wl_container_of(listener, tool, set_cursor);
	struct wlr_tablet_v2_event_cursor *event = data;
	struct seatkit_wlr_seat *b = tool->bridge;
	report(b, "tablet tool cursor %s", event->surface ? "set" : "hidden");
	if (b->cursor && !b->cursor_hidden) {
		wlr_cursor_set_surface(b->cursor, event->surface, event->hotspot_x, event->hotspot_y);
	}
}

static struct bridged_tool *tool_for(struct seatkit_wlr_seat *b, uint32_t device, enum seatkit_pen_tool_type type,
		uint64_t serial, uint32_t capabilities) {
	struct bridged_tool *tool;
	wl_list_for_each(tool, &b->tools, link) {
		if (tool->type == type && tool->serial == serial && (serial != 0 || tool->device == device)) {
			tool->device = device;
			return tool;
		}
	}
	if (!b->tablet_manager || !(tool = calloc(1, sizeof *tool))) {
		return NULL;
	}
	static const enum wlr_tablet_tool_type types[] = {
		WLR_TABLET_TOOL_TYPE_PEN, WLR_TABLET_TOOL_TYPE_ERASER, WLR_TABLET_TOOL_TYPE_BRUSH,
		WLR_TABLET_TOOL_TYPE_PENCIL, WLR_TABLET_TOOL_TYPE_AIRBRUSH, WLR_TABLET_TOOL_TYPE_MOUSE,
		WLR_TABLET_TOOL_TYPE_LENS, WLR_TABLET_TOOL_TYPE_TOTEM,
	};
	tool->bridge = b;
	tool->device = device;
	tool->type = type;
	tool->serial = serial;
	tool->wlr.type = (unsigned)type < sizeof types / sizeof types[0] ? types[type] : WLR_TABLET_TOOL_TYPE_PEN;
	tool->wlr.hardware_serial = serial;
	tool->wlr.pressure = capabilities & SEATKIT_PEN_AXIS_PRESSURE;
	tool->wlr.distance = capabilities & SEATKIT_PEN_AXIS_DISTANCE;
	tool->wlr.tilt = capabilities & SEATKIT_PEN_AXIS_TILT;
	tool->wlr.rotation = capabilities & SEATKIT_PEN_AXIS_ROTATION;
	tool->wlr.slider = capabilities & SEATKIT_PEN_AXIS_SLIDER;
	tool->wlr.wheel = capabilities & SEATKIT_PEN_AXIS_WHEEL;
	wl_signal_init(&tool->wlr.events.destroy);
	tool->v2 = wlr_tablet_tool_create(b->tablet_manager, b->seat, &tool->wlr);
	if (!tool->v2) {
		free(tool);
		return NULL;
	}
	tool->set_cursor.notify = handle_tool_set_cursor;
	wl_signal_add(&tool->v2->events.set_cursor, &tool->set_cursor);
	wl_list_insert(&b->tools, &tool->link);
	return tool;
}

static void tool_free(struct bridged_tool *tool) {
	wl_list_remove(&tool->set_cursor.link);
	wl_list_remove(&tool->link);
	/* wlroots' tablet-v2 tool goes with it (tool removed to clients). */
	wl_signal_emit(&tool->wlr.events.destroy, &tool->wlr);
	free(tool);
}

static void tablet_free(struct bridged_tablet *t, struct seatkit_wlr_seat *b) {
	if (b->last_tablet == t) {
		b->last_tablet = NULL;
	}
	struct bridged_pad *pad;
	wl_list_for_each(pad, &b->pads, link) {
		if (pad->focus_tablet == t) {
			pad->focus_tablet = NULL;
		}
	}
	wl_list_remove(&t->link);
	wlr_input_device_destroy(t->wlr); /* tablet removed to clients, wlroots' tablet freed */
	free(t);
}

/* The tool the event's pen is, when the surface's client takes pens through tablet-v2;
 * NULL: the pen is its pointer. */
static struct bridged_tool *tablet_tool(struct bridged_surface *s, const struct seatkit_pen_event *e,
		struct bridged_tablet **tablet) {
	struct seatkit_wlr_seat *b = s->bridge;
	if (!b->tablet_manager || !s->wlr_surface) {
		return NULL;
	}
	struct bridged_tablet *t = tablet_for(b, e->device);
	struct bridged_tool *tool = t ? tool_for(b, e->device, e->tool_type, e->tool_serial, e->capabilities) : NULL;
	if (!tool || !wlr_surface_accepts_tablet_v2(t->v2, s->wlr_surface)) {
		return NULL;
	}
	if (tablet) {
		*tablet = t;
	}
	return tool;
}

/* The axes (all, or those the event changed), then the motion (GTK reads an event's axes
 * from what came before it in the frame); wlroots closes the frame when the loop is idle. */
static void send_pen_axes(struct bridged_tool *tool, const struct seatkit_pen_event *e, bool all) {
	uint32_t changed = all ? e->capabilities | SEATKIT_PEN_AXIS_POSITION : e->changed;
	uint32_t has = e->capabilities;
	if (changed & has & SEATKIT_PEN_AXIS_PRESSURE) {
		wlr_send_tablet_v2_tablet_tool_pressure(tool->v2, e->pressure);
	}
	if (changed & has & SEATKIT_PEN_AXIS_DISTANCE) {
		wlr_send_tablet_v2_tablet_tool_distance(tool->v2, e->distance);
	}
	if (changed & has & SEATKIT_PEN_AXIS_TILT) {
		wlr_send_tablet_v2_tablet_tool_tilt(tool->v2, e->tilt_x, e->tilt_y);
	}
	if (changed & has & SEATKIT_PEN_AXIS_ROTATION) {
		wlr_send_tablet_v2_tablet_tool_rotation(tool->v2, e->rotation);
	}
	if (changed & has & SEATKIT_PEN_AXIS_SLIDER) {
		wlr_send_tablet_v2_tablet_tool_slider(tool->v2, e->slider);
	}
	if (!all && (changed & has & SEATKIT_PEN_AXIS_WHEEL)) {
		wlr_send_tablet_v2_tablet_tool_wheel(tool->v2, e->wheel, e->wheel_discrete);
	}
	if (changed & SEATKIT_PEN_AXIS_POSITION) {
		wlr_send_tablet_v2_tablet_tool_motion(tool->v2, e->sx, e->sy);
	}
}

/* The drawn cursor follows the pen, as sway's does. */
static void pen_moves_cursor(struct seatkit_wlr_seat *b, const struct seatkit_pen_event *e) {
	if (b->cursor) {
		wlr_cursor_warp_closest(b->cursor, NULL, e->x, e->y);
	}
}

static void pen_entered(void *data, const struct seatkit_pen_event *event, const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	struct seatkit_wlr_seat *b = s->bridge;
	if (!s->wlr_surface) {
		return;
	}
	struct bridged_tablet *t = NULL;
	struct bridged_tool *tool = tablet_tool(s, event, &t);
	if (tool) {
		wlr_send_tablet_v2_tablet_tool_proximity_in(tool->v2, t->v2, s->wlr_surface);
		send_pen_axes(tool, event, true);
		report(b, "tablet proximity in %.2f %.2f", event->sx, event->sy);
		/* The pads follow the pen to its surface (and stay when it leaves). */
		b->last_tablet = t;
		pads_follow(b, s->wlr_surface, t);
	} else {
		/* The pen as the pointer: enter (if the pointer is elsewhere) and motion. */
		b->pen_pointer_surface = s;
		focus_pointer(s, event->sx, event->sy);
		move_pointer(b, msec(event->time_usec), event->sx, event->sy);
		report(b, "pen as pointer enter %.2f %.2f", event->sx, event->sy);
	}
	pen_moves_cursor(b, event);
}

/* ---- Pads: tablet-v2 pads, focused where the pen came in or the keyboard focus is ---- */

static struct bridged_pad *pad_for(struct seatkit_wlr_seat *b, uint32_t device) {
	struct bridged_pad *pad;
	wl_list_for_each(pad, &b->pads, link) {
		if (pad->device == device) {
			return pad;
		}
	}
	return NULL;
}

static void pad_clear_focus(struct bridged_pad *pad) {
	if (pad->focus) {
		wl_list_remove(&pad->focus_destroy.link);
		wl_list_init(&pad->focus_destroy.link);
	}
	pad->focus = NULL;
	pad->focus_tablet = NULL;
	/* wlroots 0.15 keeps sending to the client a pad left: it no longer has the pad. */
	pad->v2->current_client = NULL;
}

static void handle_pad_focus_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct bridged_pad *pad = wl_container_of(listener, pad, focus_destroy);
	pad_clear_focus(pad);
}

/* The pad leaves its surface and enters `surface` (if its client bound a tablet seat),
 * quoting tablet `t`; nothing if it is there already. */
static void pad_focus(struct bridged_pad *pad, struct wlr_surface *surface, struct bridged_tablet *t) {
	struct seatkit_wlr_seat *b = pad->bridge;
	if (pad->focus == surface && pad->focus_tablet == t) {
		return;
	}
	if (pad->focus) {
		wlr_send_tablet_v2_tablet_pad_leave(pad->v2, pad->focus);
		report(b, "pad %u leave", pad->device);
		pad_clear_focus(pad);
	}
	if (!surface || !t || !wlr_surface_accepts_tablet_v2(t->v2, surface)) {
		return;
	}
	uint32_t serial = wlr_send_tablet_v2_tablet_pad_enter(pad->v2, t->v2, surface);
	if (!serial) {
		return; /* the client has the tablet but not (yet) the pad */
	}
	/* wlroots followed the enter with each group's mode_switch, with the enter's serial. */
	for (size_t i = 0; i < pad->group_count; i++) {
		pad->group_serials[i] = serial;
	}
	pad->focus = surface;
	pad->focus_tablet = t;
	pad->focus_destroy.notify = handle_pad_focus_destroy;
	wl_signal_add(&surface->events.destroy, &pad->focus_destroy);
	report(b, "pad %u enter", pad->device);
}

static void pads_follow(struct seatkit_wlr_seat *b, struct wlr_surface *surface, struct bridged_tablet *t) {
	struct bridged_pad *pad;
	wl_list_for_each(pad, &b->pads, link) {
		pad_focus(pad, surface, t);
	}
}

/* A client's set_feedback: kept for the button, ring or strip when its serial is that of
 * the group's last mode_switch. */
static void pad_feedback(struct bridged_pad *pad, const char *what, const struct wlr_tablet_v2_event_feedback *event,
		size_t count, const uint32_t *groups, char **texts) {
	struct seatkit_wlr_seat *b = pad->bridge;
	if (event->index >= count) {
		report(b, "pad %u %s %zu feedback ignored (no such %s)", pad->device, what, event->index, what);
		return;
	}
	uint32_t group = groups[event->index];
	if (group >= pad->group_count || event->serial != pad->group_serials[group]) {
		report(b, "pad %u %s %zu feedback ignored (stale serial %u)", pad->device, what, event->index, event->serial);
		return;
	}
	char *copy = event->description ? strdup(event->description) : NULL;
	if (event->description && !copy) {
		return;
	}
	free(texts[event->index]);
	texts[event->index] = copy;
	report(b, "pad %u %s %zu feedback \"%s\"", pad->device, what, event->index, copy ? copy : "");
}

static void handle_pad_button_feedback(struct wl_listener *listener, void *data) {
	struct bridged_pad *pad = wl_container_of(listener, pad, button_feedback_set);
	pad_feedback(pad, "button", data, pad->button_count, pad->button_groups, pad->button_feedback);
}

static void handle_pad_ring_feedback(struct wl_listener *listener, void *data) {
	struct bridged_pad *pad = wl_container_of(listener, pad, ring_feedback_set);
	pad_feedback(pad, "ring", data, pad->ring_count, pad->ring_groups, pad->ring_feedback);
}

static void handle_pad_strip_feedback(struct wl_listener *listener, void *data) {
	struct bridged_pad *pad = wl_container_of(listener, pad, strip_feedback_set);
	pad_feedback(pad, "strip", data, pad->strip_count, pad->strip_groups, pad->strip_feedback);
}

/* wlroots frees the pad's groups through its impl (wlr_tablet_pad_destroy). */
static void wlr_pad_destroy(struct wlr_tablet_pad *wlr_pad) {
	struct wlr_tablet_pad_group *group, *tmp;
	wl_list_for_each_safe(group, tmp, &wlr_pad->groups, link) {
		wl_list_remove(&group->link);
		free(group->buttons);
		free(group->rings);
		free(group->strips);
		free(group);
	}
	free(wlr_pad);
}

static struct wlr_tablet_pad_impl wlr_pad_impl = { .destroy = wlr_pad_destroy };

static void free_texts(char **texts, size_t count) {
	for (size_t i = 0; texts && i < count; i++) {
		free(texts[i]);
	}
	free(texts);
}

static void pad_free(struct bridged_pad *pad) {
	wl_list_remove(&pad->link);
	if (pad->focus) {
		wl_list_remove(&pad->focus_destroy.link);
	}
	if (pad->v2) {
		/* Before wlroots' tablet-v2 pad goes (with the device), which drops its signals. */
		wl_list_remove(&pad->button_feedback_set.link);
		wl_list_remove(&pad->ring_feedback_set.link);
		wl_list_remove(&pad->strip_feedback_set.link);
	}
	wlr_input_device_destroy(pad->wlr); /* the pad removed to clients, its groups freed */
	free(pad->group_serials);
	free(pad->button_groups);
	free(pad->ring_groups);
	free(pad->strip_groups);
	free_texts(pad->button_feedback, pad->button_count);
	free_texts(pad->ring_feedback, pad->ring_count);
	free_texts(pad->strip_feedback, pad->strip_count);
	free(pad);
}

/* Copies `count` indices as wlroots' unsigned ints; the group of each index below `limit`
 * noted in `groups`. NULL (and *ok false) if memory ran out. */
static unsigned int *copy_indices(const uint32_t *from, size_t count, uint32_t limit, uint32_t *groups, uint32_t group,
		bool *ok) {
	if (count == 0) {
		return NULL;
	}
	unsigned int *to = calloc(count, sizeof *to);
	if (!to) {
		*ok = false;
		return NULL;
	}
	for (size_t i = 0; i < count; i++) {
		to[i] = from ? from[i] : 0;
		if (to[i] < limit) {
			groups[to[i]] = group;
		}
	}
	return to;
}

bool seatkit_wlr_seat_add_pad(struct seatkit_wlr_seat *b, uint32_t device, const struct seatkit_pad_layout *layout) {
	if (!b || !layout) {
		wlr_log(WLR_ERROR, "seatkit_wlr_seat_add_pad: refused a NULL %s", b ? "layout" : "bridge");
		return false;
	}
	if (!b->tablet_manager) {
		return false;
	}
	struct bridged_pad *old = pad_for(b, device);
	if (old) {
		pad_free(old);
	}
	struct bridged_pad *pad = calloc(1, sizeof *pad);
	struct wlr_input_device *dev = calloc(1, sizeof *dev);
	struct wlr_tablet_pad *wlr_pad = calloc(1, sizeof *wlr_pad);
	size_t groups = layout->group_count ? layout->group_count : 1;
	bool ok = pad && dev && wlr_pad;
	if (ok) {
		pad->bridge = b;
		pad->device = device;
		pad->button_count = layout->buttons;
		pad->ring_count = layout->rings;
		pad->strip_count = layout->strips;
		pad->group_count = groups;
		pad->group_serials = calloc(groups, sizeof *pad->group_serials);
		pad->button_groups = calloc(layout->buttons + 1, sizeof *pad->button_groups);
		pad->ring_groups = calloc(layout->rings + 1, sizeof *pad->ring_groups);
		pad->strip_groups = calloc(layout->strips + 1, sizeof *pad->strip_groups);
		pad->button_feedback = calloc(layout->buttons + 1, sizeof *pad->button_feedback);
		pad->ring_feedback = calloc(layout->rings + 1, sizeof *pad->ring_feedback);
		pad->strip_feedback = calloc(layout->strips + 1, sizeof *pad->strip_feedback);
		ok = pad->group_serials && pad->button_groups && pad->ring_groups && pad->strip_groups &&
			pad->button_feedback && pad->ring_feedback && pad->strip_feedback;
	}
	if (ok) {
		wlr_tablet_pad_init(wlr_pad, &wlr_pad_impl);
		wlr_pad->button_count = layout->buttons;
		wlr_pad->ring_count = layout->rings;
		wlr_pad->strip_count = layout->strips;
		for (size_t g = 0; g < groups && ok; g++) {
			struct wlr_tablet_pad_group *group = calloc(1, sizeof *group);
			if (!group) {
				ok = false;
				break;
			}
			wl_list_insert(wlr_pad->groups.prev, &group->link);
			if (layout->group_count == 0) {
				/* No groups announced: one of one mode with everything. */
				group->mode_count = 1;
				group->button_count = layout->buttons;
				group->ring_count = layout->rings;
				group->strip_count = layout->strips;
				if (layout->buttons && (group->buttons = calloc(layout->buttons, sizeof(unsigned int)))) {
					for (uint32_t i = 0; i < layout->buttons; i++) group->buttons[i] = i;
				}
				if (layout->rings && (group->rings = calloc(layout->rings, sizeof(unsigned int)))) {
					for (uint32_t i = 0; i < layout->rings; i++) group->rings[i] = i;
				}
				if (layout->strips && (group->strips = calloc(layout->strips, sizeof(unsigned int)))) {
					for (uint32_t i = 0; i < layout->strips; i++) group->strips[i] = i;
				}
				ok = ok && (!layout->buttons || group->buttons) && (!layout->rings || group->rings) &&
					(!layout->strips || group->strips);
				continue;
			}
			const struct seatkit_pad_group *from = &layout->groups[g];
			group->mode_count = from->modes ? from->modes : 1;
			/* wlroots indexes its ring and strip objects by these: indices past the pad's
			 * counts are dropped. */
			size_t n = 0;
			group->buttons = copy_indices(from->buttons, from->button_count, layout->buttons, pad->button_groups, g, &ok);
			group->button_count = from->button_count;
			group->rings = copy_indices(from->rings, from->ring_count, layout->rings, pad->ring_groups, g, &ok);
			for (size_t i = 0; i < from->ring_count && group->rings; i++) {
				if (group->rings[i] < layout->rings) group->rings[n++] = group->rings[i];
			}
			group->ring_count = n;
			n = 0;
			group->strips = copy_indices(from->strips, from->strip_count, layout->strips, pad->strip_groups, g, &ok);
			for (size_t i = 0; i < from->strip_count && group->strips; i++) {
				if (group->strips[i] < layout->strips) group->strips[n++] = group->strips[i];
			}
			group->strip_count = n;
		}
	}
	if (!ok) {
		if (wlr_pad && wlr_pad->groups.next) {
			wlr_pad_destroy(wlr_pad);
		} else {
			free(wlr_pad);
		}
		if (pad) {
			free(pad->group_serials);
			free(pad->button_groups);
			free(pad->ring_groups);
			free(pad->strip_groups);
			free(pad->button_feedback);
			free(pad->ring_feedback);
			free(pad->strip_feedback);
		}
		free(pad), free(dev);
		wlr_log(WLR_ERROR, "seatkit_wlr_seat_add_pad: out of memory");
		return false;
	}
	char name[48];
	snprintf(name, sizeof name, "SeatKit pad %u", device);
	wlr_input_device_init(dev, WLR_INPUT_DEVICE_TABLET_PAD, NULL, name, 0, 0);
	dev->tablet_pad = wlr_pad;
	pad->wlr = dev;
	wl_list_init(&pad->focus_destroy.link);
	wl_list_insert(&b->pads, &pad->link);
	pad->v2 = wlr_tablet_pad_create(b->tablet_manager, b->seat, dev);
	if (!pad->v2) {
		pad_free(pad);
		return false;
	}
	pad->button_feedback_set.notify = handle_pad_button_feedback;
	wl_signal_add(&pad->v2->events.button_feedback, &pad->button_feedback_set);
	pad->ring_feedback_set.notify = handle_pad_ring_feedback;
	wl_signal_add(&pad->v2->events.ring_feedback, &pad->ring_feedback_set);
	pad->strip_feedback_set.notify = handle_pad_strip_feedback;
	wl_signal_add(&pad->v2->events.strip_feedback, &pad->strip_feedback_set);
	report(b, "pad %u added: %u buttons, %u rings, %u strips, %zu groups", device, layout->buttons, layout->rings,
		layout->strips, groups);
	/* A pen already came in: the pad joins it there. */
	if (b->last_tablet && b->seat->keyboard_state.focused_surface) {
		pad_focus(pad, b->seat->keyboard_state.focused_surface, b->last_tablet);
	}
	return true;
}

void seatkit_wlr_seat_notify_pad(struct seatkit_wlr_seat *b, const struct seatkit_pad_event *event) {
	if (!b || !event) {
		wlr_log(WLR_ERROR, "seatkit_wlr_seat_notify_pad: refused a NULL %s", b ? "event" : "bridge");
		return;
	}
	struct bridged_pad *pad = pad_for(b, event->device);
	if (!pad) {
		return;
	}
	uint32_t time = msec(event->time_usec);
	if (event->kind != SEATKIT_PAD_KEY && event->group < pad->group_count &&
			pad->v2->groups[event->group] != event->mode) {
		/* The mode changed: its mode_switch first (to the focused client), remembered
		 * while no client has the pad (the next enter tells it). */
		uint32_t serial = pad->focus ? wlr_send_tablet_v2_tablet_pad_mode(pad->v2, event->group, event->mode, time) : 0;
		pad->v2->groups[event->group] = event->mode;
		if (serial) {
			pad->group_serials[event->group] = serial;
		}
		report(b, "pad %u group %u mode %u", pad->device, event->group, event->mode);
	}
	switch (event->kind) {
	case SEATKIT_PAD_BUTTON:
		if (event->index >= pad->button_count) {
			return;
		}
		wlr_send_tablet_v2_tablet_pad_button(pad->v2, event->index, time,
			event->value == 1 ? ZWP_TABLET_PAD_V2_BUTTON_STATE_PRESSED : ZWP_TABLET_PAD_V2_BUTTON_STATE_RELEASED);
		report(b, "pad %u button %u %s", pad->device, event->index, event->value == 1 ? "pressed" : "released");
		break;
	case SEATKIT_PAD_RING:
		if (event->index >= pad->ring_count) {
			return;
		}
		wlr_send_tablet_v2_tablet_pad_ring(pad->v2, event->index, event->value, event->from_finger, time);
		report(b, "pad %u ring %u %.2f", pad->device, event->index, event->value);
		break;
	case SEATKIT_PAD_STRIP:
		if (event->index >= pad->strip_count) {
			return;
		}
		wlr_send_tablet_v2_tablet_pad_strip(pad->v2, event->index, event->value, event->from_finger, time);
		report(b, "pad %u strip %u %.2f", pad->device, event->index, event->value);
		break;
	default:
		/* Pad keys have no tablet-v2 event. */
		break;
	}
}

const char *seatkit_wlr_seat_get_pad_feedback(struct seatkit_wlr_seat *b, uint32_t device,
		enum seatkit_pad_event_kind kind, uint32_t index) {
	struct bridged_pad *pad = b ? pad_for(b, device) : NULL;
	if (!pad) {
		return NULL;
	}
	switch (kind) {
	case SEATKIT_PAD_BUTTON: return index < pad->button_count ? pad->button_feedback[index] : NULL;
	case SEATKIT_PAD_RING: return index < pad->ring_count ? pad->ring_feedback[index] : NULL;
	case SEATKIT_PAD_STRIP: return index < pad->strip_count ? pad->strip_feedback[index] : NULL;
	default: return NULL;
	}
}

static void pen_left(void *data, const struct seatkit_pen_event *event, const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	struct seatkit_wlr_seat *b = s->bridge;
	struct bridged_tool *tool = tablet_tool(s, event, NULL);
	if (tool && s->wlr_surface && tool->v2->focused_surface == s->wlr_surface) {
		wlr_send_tablet_v2_tablet_tool_proximity_out(tool->v2);
		report(b, "tablet proximity out");
	} else if (b->pen_pointer_surface == s) {
		b->pen_pointer_surface = NULL;
		if (s->wlr_surface && b->seat->pointer_state.focused_surface == s->wlr_surface) {
			send_pointer_frame(b);
			wlr_seat_pointer_notify_clear_focus(b->seat);
			report(b, "pen as pointer leave");
		}
	}
}

static enum seatkit_result pen_moved(void *data, const struct seatkit_pen_event *event,
		const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	struct seatkit_wlr_seat *b = s->bridge;
	struct bridged_tool *tool = tablet_tool(s, event, NULL);
	if (tool && tool->v2->focused_surface == s->wlr_surface) {
		send_pen_axes(tool, event, false);
		report(b, "tablet motion %.2f %.2f pressure %.2f", event->sx, event->sy, event->pressure);
	} else if (s->wlr_surface && b->pen_pointer_surface == s) {
		focus_pointer(s, event->sx, event->sy);
		move_pointer(b, msec(event->time_usec), event->sx, event->sy);
		report(b, "pen as pointer motion %.2f %.2f", event->sx, event->sy);
	}
	pen_moves_cursor(b, event);
	return SEATKIT_HANDLED;
}

static enum seatkit_result pen_down(void *data, const struct seatkit_pen_event *event,
		const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	struct seatkit_wlr_seat *b = s->bridge;
	struct bridged_tool *tool = tablet_tool(s, event, NULL);
	if (tool && tool->v2->focused_surface == s->wlr_surface) {
		send_pen_axes(tool, event, false);
		wlr_send_tablet_v2_tablet_tool_down(tool->v2);
		report(b, "tablet down %.2f %.2f", event->sx, event->sy);
	} else if (s->wlr_surface) {
		/* The tip is the left button. */
		b->pen_pointer_surface = s;
		focus_pointer(s, event->sx, event->sy);
		move_pointer(b, msec(event->time_usec), event->sx, event->sy);
		wlr_seat_pointer_notify_button(b->seat, msec(event->time_usec), BTN_LEFT, WLR_BUTTON_PRESSED);
		pointer_sent(b);
		report(b, "pen as pointer button down");
	}
	return SEATKIT_HANDLED;
}

static enum seatkit_result pen_up(void *data, const struct seatkit_pen_event *event,
		const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	struct seatkit_wlr_seat *b = s->bridge;
	struct bridged_tool *tool = tablet_tool(s, event, NULL);
	if (tool && tool->v2->focused_surface == s->wlr_surface) {
		wlr_send_tablet_v2_tablet_tool_up(tool->v2);
		report(b, "tablet up");
	} else if (s->wlr_surface && b->pen_pointer_surface == s) {
		wlr_seat_pointer_notify_button(b->seat, msec(event->time_usec), BTN_LEFT, WLR_BUTTON_RELEASED);
		pointer_sent(b);
		report(b, "pen as pointer button up");
	}
	return SEATKIT_HANDLED;
}

static enum seatkit_result pen_button(void *data, const struct seatkit_pen_button_event *event,
		const struct seatkit_event_context *context) {
	(void)context;
	struct bridged_surface *s = data;
	struct seatkit_wlr_seat *b = s->bridge;
	bool pressed = event->state == SEATKIT_BUTTON_PRESSED;
	struct seatkit_pen_event e = { .device = event->device, .tool_type = event->tool_type, .tool_serial = event->tool_serial };
	struct bridged_tool *tool = tablet_tool(s, &e, NULL);
	if (tool && tool->v2->focused_surface == s->wlr_surface) {
		wlr_send_tablet_v2_tablet_tool_button(tool->v2, event->button,
			pressed ? ZWP_TABLET_PAD_V2_BUTTON_STATE_PRESSED : ZWP_TABLET_PAD_V2_BUTTON_STATE_RELEASED);
		report(b, "tablet button 0x%x %s", event->button, pressed ? "pressed" : "released");
	} else if (s->wlr_surface && b->pen_pointer_surface == s) {
		/* BTN_STYLUS as the right button, BTN_STYLUS2 as the middle one, as sway does. */
		uint32_t button = event->button == BTN_STYLUS ? BTN_RIGHT : event->button == BTN_STYLUS2 ? BTN_MIDDLE : event->button;
		wlr_seat_pointer_notify_button(b->seat, msec(event->time_usec), button,
			pressed ? WLR_BUTTON_PRESSED : WLR_BUTTON_RELEASED);
		pointer_sent(b);
		report(b, "pen as pointer button 0x%x %s", button, pressed ? "pressed" : "released");
	}
	return SEATKIT_HANDLED;
}

static void handle_tablet_manager_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct seatkit_wlr_seat *b = wl_container_of(listener, b, tablet_manager_destroy);
	wl_list_remove(&b->tablet_manager_destroy.link);
	b->tablet_manager = NULL;
}

bool seatkit_wlr_seat_enable_tablets(struct seatkit_wlr_seat *b) {
	if (!b) {
		wlr_log(WLR_ERROR, "seatkit_wlr_seat_enable_tablets: refused a NULL bridge");
		return false;
	}
	if (b->tablet_manager) {
		return true;
	}
	b->tablet_manager = wlr_tablet_v2_create(b->seat->display);
	if (!b->tablet_manager) {
		return false;
	}
	b->tablet_manager_destroy.notify = handle_tablet_manager_destroy;
	wl_signal_add(&b->tablet_manager->events.destroy, &b->tablet_manager_destroy);
	return true;
}

bool seatkit_wlr_seat_add_tablet(struct seatkit_wlr_seat *b, uint32_t device) {
	struct bridged_tablet *t = b ? tablet_for(b, device) : NULL;
	if (t && !b->last_tablet) {
		b->last_tablet = t;
	}
	return t != NULL;
}

void seatkit_wlr_seat_remove_tablet(struct seatkit_wlr_seat *b, uint32_t device) {
	if (!b) {
		return;
	}
	struct bridged_tool *tool, *tool_tmp;
	wl_list_for_each_safe(tool, tool_tmp, &b->tools, link) {
		if (tool->device == device) {
			tool_free(tool);
		}
	}
	struct bridged_tablet *t, *t_tmp;
	wl_list_for_each_safe(t, t_tmp, &b->tablets, link) {
		if (t->device == device) {
			tablet_free(t, b);
			report(b, "tablet %u removed", device);
		}
	}
	struct bridged_pad *pad = pad_for(b, device);
	if (pad) {
		pad_free(pad);
		report(b, "pad %u removed", device);
	}
}

static const struct seatkit_responder_interface surface_responder = {
	.struct_size = sizeof(struct seatkit_responder_interface),
	.touches_began = touches_began,
	.touches_moved = touches_moved,
	.touches_ended = touches_ended,
	.touches_cancelled = touches_cancelled,
	.pointer_entered = pointer_entered,
	.pointer_left = pointer_left,
	.pointer_moved = pointer_moved,
	.pointer_button = pointer_button,
	.pointer_axis = pointer_axis,
	.key_down = key_down,
	.key_up = key_up,
	.can_become_first_responder = can_become_first_responder,
	.did_become_first_responder = did_become_first_responder,
	.did_resign_first_responder = did_resign_first_responder,
	.pen_entered = pen_entered,
	.pen_left = pen_left,
	.pen_moved = pen_moved,
	.pen_down = pen_down,
	.pen_up = pen_up,
	.pen_button = pen_button,
};

/* ---- Surfaces ---- */

static void surface_free(struct bridged_surface *s) {
	end_emulation_on(s);
	if (s->bridge->pen_pointer_surface == s) {
		s->bridge->pen_pointer_surface = NULL;
	}
	wl_list_remove(&s->surface_destroy.link);
	if (s->wlr_surface) {
		wl_list_remove(&s->wlr_surface_destroy.link);
	}
	wl_list_remove(&s->link);
	free(s);
}

static void handle_surface_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct bridged_surface *s = wl_container_of(listener, s, surface_destroy);
	surface_free(s);
}

static void handle_wlr_surface_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct bridged_surface *s = wl_container_of(listener, s, wlr_surface_destroy);
	wl_list_remove(&s->wlr_surface_destroy.link);
	s->wlr_surface = NULL;
	end_emulation_on(s);
}

bool seatkit_wlr_seat_attach_surface(struct seatkit_wlr_seat *b, struct seatkit_surface *surface,
		struct wlr_surface *wlr_surface, uint32_t flags) {
	struct wl_signal *destroyed = b && surface && wlr_surface ? seatkit_surface_get_destroy_signal(surface) : NULL;
	if (!destroyed) {
		wlr_log(WLR_ERROR, "seatkit_wlr_seat_attach_surface: refused a NULL or invalid argument");
		return false;
	}
	struct bridged_surface *s = calloc(1, sizeof *s);
	if (!s) {
		return false;
	}
	*s = (struct bridged_surface){ .bridge = b, .surface = surface, .wlr_surface = wlr_surface, .flags = flags };
	s->surface_destroy.notify = handle_surface_destroy;
	wl_signal_add(destroyed, &s->surface_destroy);
	s->wlr_surface_destroy.notify = handle_wlr_surface_destroy;
	wl_signal_add(&wlr_surface->events.destroy, &s->wlr_surface_destroy);
	wl_list_insert(&b->surfaces, &s->link);
	seatkit_surface_set_responder(surface, &surface_responder, s);
	return true;
}

/* ---- Devices: wlroots' events into the router ---- */

static void update_capabilities(struct seatkit_wlr_seat *b) {
	if (b->router) {
		seatkit_wlr_seat_set_capabilities(b, seatkit_router_get_capabilities(b->router));
	}
}

void seatkit_wlr_seat_set_capabilities(struct seatkit_wlr_seat *b, uint32_t capabilities) {
	if (!b) {
		return;
	}
	b->capabilities = capabilities;
	uint32_t wl = 0;
	if (capabilities & SEATKIT_DEVICE_POINTER) wl |= WL_SEAT_CAPABILITY_POINTER;
	if (capabilities & SEATKIT_DEVICE_KEYBOARD) wl |= WL_SEAT_CAPABILITY_KEYBOARD;
	/* Clients bind wl_pointer only if the seat has one: the emulation needs it. */
	if (capabilities & SEATKIT_DEVICE_TOUCH) wl |= WL_SEAT_CAPABILITY_TOUCH | WL_SEAT_CAPABILITY_POINTER;
	/* A pen is the pointer of clients without a tablet seat. */
	if (capabilities & SEATKIT_DEVICE_TABLET_TOOL) wl |= WL_SEAT_CAPABILITY_POINTER;
	if (b->no_pointer) {
		wl &= ~(uint32_t)WL_SEAT_CAPABILITY_POINTER;
	}
	wlr_seat_set_capabilities(b->seat, wl);
}

void seatkit_wlr_seat_set_no_pointer(struct seatkit_wlr_seat *b, bool no_pointer) {
	if (!b) {
		return;
	}
	b->no_pointer = no_pointer;
	seatkit_wlr_seat_set_capabilities(b, b->capabilities);
}

#define DEVICE_EVENT(d, listener, index) struct device *d = wl_container_of(listener, d, event[index]); \
	if (!d->bridge->router) return

static void pointer_motion(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 0);
	struct wlr_event_pointer_motion *e = data;
	d->bridge->in_device_event++;
	seatkit_router_notify_pointer_motion(d->bridge->router, router_time(d->bridge, e->time_msec), d->number,
		e->delta_x, e->delta_y, e->unaccel_dx, e->unaccel_dy);
	d->bridge->in_device_event--;
	move_cursor(d->bridge);
}

/* 0...1 of the device's output, or of the whole layout, as wlr_cursor does (the router's
 * mapping); an axis the device did not report (NaN) stays where SeatKit's pointer is. */
static void pointer_motion_absolute(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 1);
	struct wlr_event_pointer_motion_absolute *e = data;
	struct seatkit_wlr_seat *b = d->bridge;
	double lx, ly, px, py;
	if (!b->layout || wl_list_empty(&b->layout->outputs) ||
			!device_to_layout(b, d, isnan(e->x) ? 0 : e->x, isnan(e->y) ? 0 : e->y, &lx, &ly)) {
		return;
	}
	seatkit_router_get_pointer_location(b->router, &px, &py);
	if (isnan(e->x)) {
		lx = px;
	}
	if (isnan(e->y)) {
		ly = py;
	}
	b->in_device_event++;
	seatkit_router_notify_pointer_motion_absolute(b->router, router_time(b, e->time_msec), d->number, lx, ly);
	b->in_device_event--;
	move_cursor(b);
}

static void pointer_button_event(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 2);
	struct wlr_event_pointer_button *e = data;
	d->bridge->in_device_event++;
	seatkit_router_notify_pointer_button(d->bridge->router, router_time(d->bridge, e->time_msec), d->number, e->button,
		e->state == WLR_BUTTON_PRESSED ? SEATKIT_BUTTON_PRESSED : SEATKIT_BUTTON_RELEASED);
	d->bridge->in_device_event--;
}

static void pointer_axis_event(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 3);
	struct wlr_event_pointer_axis *e = data;
	struct seatkit_axis axis = { .source = (enum seatkit_axis_source)e->source };
	if (e->orientation == WLR_AXIS_ORIENTATION_VERTICAL) {
		axis.vertical = e->delta;
		axis.vertical_v120 = e->delta_discrete * 120.0;
	} else {
		axis.horizontal = e->delta;
		axis.horizontal_v120 = e->delta_discrete * 120.0;
	}
	d->bridge->in_device_event++;
	seatkit_router_notify_pointer_axis(d->bridge->router, router_time(d->bridge, e->time_msec), d->number, &axis);
	d->bridge->in_device_event--;
}

/* The device's frame: what it delivered reaches the client as one frame. */
static void pointer_frame_event(struct wl_listener *listener, void *data) {
	(void)data;
	DEVICE_EVENT(d, listener, 4);
	send_pointer_frame(d->bridge);
}

static void touch_point(struct device *d, uint32_t time_msec, int32_t id, double x, double y, bool down) {
	struct seatkit_wlr_seat *b = d->bridge;
	double lx, ly;
	if (!device_to_layout(b, d, x, y, &lx, &ly)) {
		return;
	}
	d->last_time_usec = router_time(b, time_msec);
	if (down) {
		seatkit_router_notify_touch_down(b->router, d->last_time_usec, d->number, id, lx, ly);
	} else {
		seatkit_router_notify_touch_motion(b->router, d->last_time_usec, d->number, id, lx, ly);
	}
}

static void touch_down(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 0);
	struct wlr_event_touch_down *e = data;
	touch_point(d, e->time_msec, e->touch_id, e->x, e->y, true);
}

static void touch_motion(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 1);
	struct wlr_event_touch_motion *e = data;
	touch_point(d, e->time_msec, e->touch_id, e->x, e->y, false);
}

static void touch_up(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 2);
	struct wlr_event_touch_up *e = data;
	d->last_time_usec = router_time(d->bridge, e->time_msec);
	seatkit_router_notify_touch_up(d->bridge->router, d->last_time_usec, d->number, e->touch_id);
}

static void touch_cancel(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 3);
	struct wlr_event_touch_cancel *e = data;
	d->last_time_usec = router_time(d->bridge, e->time_msec);
	seatkit_router_notify_touch_cancel(d->bridge->router, d->last_time_usec, d->number, e->touch_id);
}

/* Touch events are delivered here, and the router's touch-frame signal closes them. */
static void touch_frame_event(struct wl_listener *listener, void *data) {
	(void)data;
	DEVICE_EVENT(d, listener, 4);
	d->bridge->in_device_event++;
	seatkit_router_notify_touch_frame(d->bridge->router, d->last_time_usec, d->number);
	d->bridge->in_device_event--;
}

/* ---- wlroots' own tablets and pads (its libinput backend without SeatKit's libinput) ---- */

/* The tool of a wlroots tablet event becomes the device's pen: a new tool starts with its
 * axes at 0, where the last tool was. */
static void tablet_use_tool(struct device *d, struct wlr_tablet_tool *tool) {
	enum seatkit_pen_tool_type type = tool->type >= WLR_TABLET_TOOL_TYPE_PEN && tool->type <= WLR_TABLET_TOOL_TYPE_TOTEM ?
		(enum seatkit_pen_tool_type)(tool->type - WLR_TABLET_TOOL_TYPE_PEN) : SEATKIT_PEN_TOOL_PEN;
	if (d->tool == tool && d->pen.tool_type == type && d->pen.tool_serial == tool->hardware_serial) {
		return;
	}
	d->tool = tool;
	d->pen = (struct seatkit_pen_event){ .device = d->number, .tool_type = type, .tool_serial = tool->hardware_serial,
		.x = d->pen.x, .y = d->pen.y };
	d->pen.capabilities = SEATKIT_PEN_AXIS_POSITION | (tool->pressure ? SEATKIT_PEN_AXIS_PRESSURE : 0) |
		(tool->distance ? SEATKIT_PEN_AXIS_DISTANCE : 0) | (tool->tilt ? SEATKIT_PEN_AXIS_TILT : 0) |
		(tool->rotation ? SEATKIT_PEN_AXIS_ROTATION : 0) | (tool->slider ? SEATKIT_PEN_AXIS_SLIDER : 0) |
		(tool->wheel ? SEATKIT_PEN_AXIS_WHEEL : 0);
}

/* The pen at (nx, ny), 0...1 of the tablet: placed through the device's mapping (its
 * output, --map-tablet, a region, a rotation), as a touchscreen's points are. */
static void tablet_place(struct device *d, double nx, double ny) {
	d->pen_nx = nx;
	d->pen_ny = ny;
	double lx, ly;
	if (device_to_layout(d->bridge, d, nx, ny, &lx, &ly)) {
		d->pen.x = lx;
		d->pen.y = ly;
	}
}

static void tablet_send(struct device *d, uint32_t time_msec, enum seatkit_pen_phase phase, uint32_t changed) {
	d->pen.time_usec = router_time(d->bridge, time_msec);
	d->pen.phase = phase;
	d->pen.changed = changed;
	seatkit_router_notify_pen(d->bridge->router, &d->pen);
	d->pen.wheel = 0; /* relative: told once */
}

static void tablet_axis(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 0);
	struct wlr_event_tablet_tool_axis *e = data;
	tablet_use_tool(d, e->tool);
	uint32_t changed = 0;
	if (e->updated_axes & (WLR_TABLET_TOOL_AXIS_X | WLR_TABLET_TOOL_AXIS_Y)) {
		tablet_place(d, e->updated_axes & WLR_TABLET_TOOL_AXIS_X ? e->x : d->pen_nx,
			e->updated_axes & WLR_TABLET_TOOL_AXIS_Y ? e->y : d->pen_ny);
		changed |= SEATKIT_PEN_AXIS_POSITION;
	}
	if (e->updated_axes & WLR_TABLET_TOOL_AXIS_PRESSURE) {
		d->pen.pressure = e->pressure;
		changed |= SEATKIT_PEN_AXIS_PRESSURE;
	}
	if (e->updated_axes & WLR_TABLET_TOOL_AXIS_DISTANCE) {
		d->pen.distance = e->distance;
		changed |= SEATKIT_PEN_AXIS_DISTANCE;
	}
	if (e->updated_axes & WLR_TABLET_TOOL_AXIS_TILT_X) {
		d->pen.tilt_x = e->tilt_x;
		changed |= SEATKIT_PEN_AXIS_TILT;
	}
	if (e->updated_axes & WLR_TABLET_TOOL_AXIS_TILT_Y) {
		d->pen.tilt_y = e->tilt_y;
		changed |= SEATKIT_PEN_AXIS_TILT;
	}
	if (e->updated_axes & WLR_TABLET_TOOL_AXIS_ROTATION) {
		d->pen.rotation = e->rotation;
		changed |= SEATKIT_PEN_AXIS_ROTATION;
	}
	if (e->updated_axes & WLR_TABLET_TOOL_AXIS_SLIDER) {
		d->pen.slider = e->slider;
		changed |= SEATKIT_PEN_AXIS_SLIDER;
	}
	if (e->updated_axes & WLR_TABLET_TOOL_AXIS_WHEEL) {
		/* wlroots 0.15 gives the wheel's degrees, not its detents. */
		d->pen.wheel = e->wheel_delta;
		changed |= SEATKIT_PEN_AXIS_WHEEL;
	}
	tablet_send(d, e->time_msec, SEATKIT_PEN_HOVER, changed);
}

static void tablet_proximity(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 1);
	struct wlr_event_tablet_tool_proximity *e = data;
	tablet_use_tool(d, e->tool);
	tablet_place(d, e->x, e->y);
	bool in = e->state == WLR_TABLET_TOOL_PROXIMITY_IN;
	if (!in) {
		d->pen.pressure = 0;
	}
	tablet_send(d, e->time_msec, in ? SEATKIT_PEN_PROXIMITY_IN : SEATKIT_PEN_PROXIMITY_OUT, SEATKIT_PEN_AXIS_POSITION);
	if (!in) {
		d->tool = NULL; /* the next proximity in starts afresh */
	}
}

static void tablet_tip(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 2);
	struct wlr_event_tablet_tool_tip *e = data;
	tablet_use_tool(d, e->tool);
	tablet_place(d, e->x, e->y);
	bool down = e->state == WLR_TABLET_TOOL_TIP_DOWN;
	if (!down) {
		d->pen.pressure = 0;
	}
	tablet_send(d, e->time_msec, down ? SEATKIT_PEN_DOWN : SEATKIT_PEN_UP, SEATKIT_PEN_AXIS_POSITION);
}

static void tablet_button(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 3);
	struct wlr_event_tablet_tool_button *e = data;
	tablet_use_tool(d, e->tool);
	struct seatkit_pen_button_event button = { .time_usec = router_time(d->bridge, e->time_msec), .device = d->number,
		.tool_type = d->pen.tool_type, .tool_serial = d->pen.tool_serial, .button = e->button,
		.state = e->state == WLR_BUTTON_PRESSED ? SEATKIT_BUTTON_PRESSED : SEATKIT_BUTTON_RELEASED,
		.x = d->pen.x, .y = d->pen.y };
	seatkit_router_notify_pen_button(d->bridge->router, &button);
}

/* The mode group of a pad's ring or strip (wlroots' ring and strip events do not say). */
static uint32_t pad_group_of(struct wlr_tablet_pad *pad, uint32_t index, bool ring) {
	uint32_t g = 0;
	struct wlr_tablet_pad_group *group;
	wl_list_for_each(group, &pad->groups, link) {
		size_t count = ring ? group->ring_count : group->strip_count;
		unsigned int *members = ring ? group->rings : group->strips;
		for (size_t i = 0; i < count; i++) {
			if (members[i] == index) {
				return g;
			}
		}
		g++;
	}
	return 0;
}

static void pad_send(struct device *d, uint32_t time_msec, enum seatkit_pad_event_kind kind, uint32_t index, double value,
		bool from_finger, uint32_t group, uint32_t mode) {
	struct seatkit_pad_event event = { .time_usec = router_time(d->bridge, time_msec), .device = d->number, .kind = kind,
		.index = index, .value = value, .from_finger = from_finger, .group = group, .mode = mode };
	seatkit_router_notify_pad(d->bridge->router, &event);
}

static void pad_button_event(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 0);
	struct wlr_event_tablet_pad_button *e = data;
	pad_send(d, e->time_msec, SEATKIT_PAD_BUTTON, e->button, e->state == WLR_BUTTON_PRESSED ? 1 : 0, false, e->group, e->mode);
}

static void pad_ring_event(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 1);
	struct wlr_event_tablet_pad_ring *e = data;
	pad_send(d, e->time_msec, SEATKIT_PAD_RING, e->ring, e->position, e->source == WLR_TABLET_PAD_RING_SOURCE_FINGER,
		pad_group_of(d->wlr->tablet_pad, e->ring, true), e->mode);
}

static void pad_strip_event(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 2);
	struct wlr_event_tablet_pad_strip *e = data;
	pad_send(d, e->time_msec, SEATKIT_PAD_STRIP, e->strip, e->position, e->source == WLR_TABLET_PAD_STRIP_SOURCE_FINGER,
		pad_group_of(d->wlr->tablet_pad, e->strip, false), e->mode);
}

/* A wlroots pad announced with its layout: its mode groups as wlroots read them. */
static bool announce_pad(struct seatkit_wlr_seat *b, struct device *d) {
	struct wlr_tablet_pad *pad = d->wlr->tablet_pad;
	size_t count = (size_t)wl_list_length(&pad->groups);
	struct seatkit_pad_group *groups = count ? calloc(count, sizeof *groups) : NULL;
	if (count && !groups) {
		return false;
	}
	size_t g = 0;
	struct wlr_tablet_pad_group *group;
	wl_list_for_each(group, &pad->groups, link) {
		/* unsigned int and uint32_t are one type on every platform wlroots runs on. */
		groups[g++] = (struct seatkit_pad_group){ .modes = group->mode_count,
			.button_count = group->button_count, .buttons = (const uint32_t *)group->buttons,
			.ring_count = group->ring_count, .rings = (const uint32_t *)group->rings,
			.strip_count = group->strip_count, .strips = (const uint32_t *)group->strips };
	}
	struct seatkit_pad_layout layout = { .buttons = (uint32_t)pad->button_count, .rings = (uint32_t)pad->ring_count,
		.strips = (uint32_t)pad->strip_count, .group_count = count, .groups = groups };
	struct seatkit_device_info info = { .name = d->wlr->name, .capabilities = SEATKIT_DEVICE_TABLET_PAD,
		.width_mm = d->wlr->width_mm, .height_mm = d->wlr->height_mm, .mapped_output = d->wlr->output_name };
	seatkit_router_notify_pad_added(b->router, seatkit_router_get_time(b->router), d->number, &info, &layout);
	free(groups);
	update_capabilities(b);
	return true;
}

static void keyboards_key(struct wl_listener *listener, void *data) {
	struct seatkit_wlr_seat *b = wl_container_of(listener, b, keyboards_key);
	struct wlr_event_keyboard_key *e = data;
	if (b->router) {
		seatkit_router_notify_key(b->router, router_time(b, e->time_msec), KEYBOARDS_DEVICE, e->keycode,
			e->state == WL_KEYBOARD_KEY_STATE_PRESSED ? SEATKIT_KEY_PRESSED : SEATKIT_KEY_RELEASED);
	}
}

/* A keyboard left the group (unplugged) holding keys no other keyboard holds: released. */
static void keyboards_leave(struct wl_listener *listener, void *data) {
	struct seatkit_wlr_seat *b = wl_container_of(listener, b, keyboards_leave);
	struct wl_array *keys = data;
	uint32_t *keycode;
	if (!b->router) {
		return;
	}
	wl_array_for_each(keycode, keys) {
		seatkit_router_notify_key(b->router, seatkit_router_get_time(b->router), KEYBOARDS_DEVICE, *keycode,
			SEATKIT_KEY_RELEASED);
	}
}

/* A virtual keyboard's keycodes mean what its own keymap says: clients get that keymap for
 * the key, then, once none of its keys is held, the seat's again (a client translating a
 * held key, say for its repeat, under the seat's keymap would type another character). */
static void virtual_key(struct wl_listener *listener, void *data) {
	DEVICE_EVENT(d, listener, 0);
	struct wlr_event_keyboard_key *e = data;
	struct seatkit_wlr_seat *b = d->bridge;
	wlr_seat_set_keyboard(b->seat, d->wlr);
	seatkit_router_notify_key(b->router, router_time(b, e->time_msec), d->number, e->keycode,
		e->state == WL_KEYBOARD_KEY_STATE_PRESSED ? SEATKIT_KEY_PRESSED : SEATKIT_KEY_RELEASED);
	if (b->keyboards && b->keyboards->keyboard.keymap && d->wlr->keyboard->num_keycodes == 0) {
		wlr_seat_set_keyboard(b->seat, b->keyboards->input_device);
	}
}

static void device_free(struct device *d) {
	for (size_t i = 0; i < sizeof d->event / sizeof d->event[0]; i++) {
		if (d->event[i].notify) {
			wl_list_remove(&d->event[i].link);
		}
	}
	wl_list_remove(&d->destroy.link);
	wl_list_remove(&d->link);
	free(d);
}

static void device_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct device *d = wl_container_of(listener, d, destroy);
	struct seatkit_wlr_seat *b = d->bridge;
	/* The group goes from SeatKit with its last keyboard. */
	bool gone = d->kind != DEVICE_KEYBOARD || --b->keyboard_count == 0;
	uint32_t number = d->number;
	device_free(d);
	if (gone && b->router) {
		seatkit_router_notify_device_removed(b->router, seatkit_router_get_time(b->router), number);
		update_capabilities(b);
	}
}

static void listen_to(struct device *d, size_t index, struct wl_signal *signal, wl_notify_func_t notify) {
	d->event[index].notify = notify;
	wl_signal_add(signal, &d->event[index]);
}

static struct device *device_create(struct seatkit_wlr_seat *b, struct wlr_input_device *wlr, enum device_kind kind) {
	struct device *d = calloc(1, sizeof *d);
	if (!d) {
		return NULL;
	}
	*d = (struct device){ .bridge = b, .wlr = wlr, .kind = kind,
		.number = kind == DEVICE_KEYBOARD ? KEYBOARDS_DEVICE : b->next_device++ };
	d->destroy.notify = device_destroy;
	wl_signal_add(&wlr->events.destroy, &d->destroy);
	wl_list_insert(&b->devices, &d->link);
	return d;
}

static void announce(struct seatkit_wlr_seat *b, struct device *d, const char *name, uint32_t capabilities) {
	/* The device's output: udev's WL_OUTPUT (wlroots' libinput backend), or the x11 and
	 * wayland backends' output window. The router maps it (seatkit_router_map_device rules
	 * win over it). */
	struct seatkit_device_info info = { .name = name, .capabilities = capabilities,
		.width_mm = d->wlr->width_mm, .height_mm = d->wlr->height_mm, .mapped_output = d->wlr->output_name };
	seatkit_router_notify_device_added(b->router, seatkit_router_get_time(b->router), d->number, &info);
	update_capabilities(b);
}

bool seatkit_wlr_seat_add_input_device(struct seatkit_wlr_seat *b, struct wlr_input_device *wlr) {
	if (!b || !wlr || !b->router) {
		return false;
	}
	struct device *d;
	switch (wlr->type) {
	case WLR_INPUT_DEVICE_POINTER:
		if (!(d = device_create(b, wlr, DEVICE_POINTER))) return false;
		listen_to(d, 0, &wlr->pointer->events.motion, pointer_motion);
		listen_to(d, 1, &wlr->pointer->events.motion_absolute, pointer_motion_absolute);
		listen_to(d, 2, &wlr->pointer->events.button, pointer_button_event);
		listen_to(d, 3, &wlr->pointer->events.axis, pointer_axis_event);
		listen_to(d, 4, &wlr->pointer->events.frame, pointer_frame_event);
		announce(b, d, wlr->name, SEATKIT_DEVICE_POINTER);
		return true;
	case WLR_INPUT_DEVICE_TOUCH:
		if (!(d = device_create(b, wlr, DEVICE_TOUCH))) return false;
		listen_to(d, 0, &wlr->touch->events.down, touch_down);
		listen_to(d, 1, &wlr->touch->events.motion, touch_motion);
		listen_to(d, 2, &wlr->touch->events.up, touch_up);
		listen_to(d, 3, &wlr->touch->events.cancel, touch_cancel);
		listen_to(d, 4, &wlr->touch->events.frame, touch_frame_event);
		announce(b, d, wlr->name, SEATKIT_DEVICE_TOUCH);
		return true;
	case WLR_INPUT_DEVICE_TABLET_TOOL: {
		if (!(d = device_create(b, wlr, DEVICE_TABLET))) return false;
		listen_to(d, 0, &wlr->tablet->events.axis, tablet_axis);
		listen_to(d, 1, &wlr->tablet->events.proximity, tablet_proximity);
		listen_to(d, 2, &wlr->tablet->events.tip, tablet_tip);
		listen_to(d, 3, &wlr->tablet->events.button, tablet_button);
		announce(b, d, wlr->name, SEATKIT_DEVICE_TABLET_TOOL);
		/* Its tablet for tablet-v2 clients now: a pad can follow keyboard focus quoting it
		 * before any pen came in. */
		seatkit_wlr_seat_add_tablet(b, d->number);
		return true;
	}
	case WLR_INPUT_DEVICE_TABLET_PAD:
		if (!(d = device_create(b, wlr, DEVICE_PAD))) return false;
		listen_to(d, 0, &wlr->tablet_pad->events.button, pad_button_event);
		listen_to(d, 1, &wlr->tablet_pad->events.ring, pad_ring_event);
		listen_to(d, 2, &wlr->tablet_pad->events.strip, pad_strip_event);
		if (!announce_pad(b, d)) {
			device_free(d);
			return false;
		}
		return true;
	case WLR_INPUT_DEVICE_KEYBOARD: {
		struct wlr_keyboard *group = b->keyboards ? &b->keyboards->keyboard : NULL;
		if (!group || !group->keymap) {
			wlr_log(WLR_ERROR, "seatkit_wlr_seat_add_input_device: keyboard %s before seatkit_wlr_seat_set_keymap", wlr->name);
			return false;
		}
		wlr_keyboard_set_keymap(wlr->keyboard, group->keymap);
		wlr_keyboard_set_repeat_info(wlr->keyboard, group->repeat_info.rate, group->repeat_info.delay);
		if (!wlr_keyboard_group_add_keyboard(b->keyboards, wlr->keyboard) || !(d = device_create(b, wlr, DEVICE_KEYBOARD))) {
			return false;
		}
		if (b->keyboard_count++ == 0) {
			announce(b, d, "keyboards", SEATKIT_DEVICE_KEYBOARD); /* the group: one keyboard */
		}
		return true;
	}
	default:
		return false;
	}
}

bool seatkit_wlr_seat_add_virtual_keyboard(struct seatkit_wlr_seat *b, struct wlr_input_device *wlr) {
	struct device *d;
	if (!b || !wlr || !b->router || wlr->type != WLR_INPUT_DEVICE_KEYBOARD ||
			!(d = device_create(b, wlr, DEVICE_VIRTUAL_KEYBOARD))) {
		return false;
	}
	listen_to(d, 0, &wlr->keyboard->events.key, virtual_key);
	announce(b, d, wlr->name, SEATKIT_DEVICE_KEYBOARD);
	return true;
}

/* ---- Keymap ---- */

bool seatkit_wlr_seat_set_keymap(struct seatkit_wlr_seat *b, struct seatkit_keymap *keymap,
		int32_t rate, int32_t delay) {
	/* Once, before the first keyboard joins: changing it later would have to reach every
	 * member, which the group lists only in wlroots' private records. */
	if (!b || !keymap || !b->router || b->keyboards) {
		return false;
	}
	const char *text = seatkit_keymap_get_string(keymap);
	struct xkb_context *context = text ? xkb_context_new(XKB_CONTEXT_NO_FLAGS) : NULL;
	/* The same text SeatKit compiled, so that wlroots' keymap and SeatKit's agree. */
	struct xkb_keymap *xkb = context ? xkb_keymap_new_from_string(context, text,
		XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) : NULL;
	xkb_context_unref(context);
	if (!xkb || !(b->keyboards = wlr_keyboard_group_create())) {
		xkb_keymap_unref(xkb);
		return false;
	}
	seatkit_router_set_keymap(b->router, keymap, rate, delay);
	struct wlr_keyboard *group = &b->keyboards->keyboard;
	wlr_keyboard_set_keymap(group, xkb);
	wlr_keyboard_set_repeat_info(group, rate, delay);
	xkb_keymap_unref(xkb);
	wlr_seat_set_keyboard(b->seat, b->keyboards->input_device);
	b->keyboards_key.notify = keyboards_key;
	wl_signal_add(&group->events.key, &b->keyboards_key);
	b->keyboards_leave.notify = keyboards_leave;
	wl_signal_add(&b->keyboards->events.leave, &b->keyboards_leave);
	return true;
}

struct wlr_keyboard_group *seatkit_wlr_seat_get_keyboard_group(struct seatkit_wlr_seat *b) {
	return b ? b->keyboards : NULL;
}

struct seatkit_router *seatkit_wlr_seat_get_router(struct seatkit_wlr_seat *b) {
	return b ? b->router : NULL;
}

/* ---- The bridge ---- */

static void handle_router_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct seatkit_wlr_seat *b = wl_container_of(listener, b, router_destroy);
	/* Its surfaces went first (their destroy signals): nothing of the router is left. */
	wl_list_remove(&b->router_destroy.link);
	stop_touch_frames(b);
	b->router = NULL;
}

static void handle_seat_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct seatkit_wlr_seat *b = wl_container_of(listener, b, seat_destroy);
	seatkit_wlr_seat_destroy(b);
}

struct seatkit_wlr_seat *seatkit_wlr_seat_create(struct seatkit_router *router, struct wlr_seat *seat,
		struct wlr_output_layout *layout) {
	struct wl_signal *router_destroyed = router && seat ? seatkit_router_get_destroy_signal(router) : NULL;
	if (!router_destroyed) {
		wlr_log(WLR_ERROR, "seatkit_wlr_seat_create: refused a NULL or invalid router or seat");
		return NULL;
	}
	struct seatkit_wlr_seat *b = calloc(1, sizeof *b);
	if (!b) {
		return NULL;
	}
	*b = (struct seatkit_wlr_seat){ .router = router, .seat = seat, .layout = layout,
		.loop = wl_display_get_event_loop(seat->display), .next_device = FIRST_DEVICE };
	seatkit_pointer_emulation_init(&b->emulation);
	wl_list_init(&b->devices);
	wl_list_init(&b->surfaces);
	wl_list_init(&b->tablets);
	wl_list_init(&b->tools);
	wl_list_init(&b->pads);
	b->router_destroy.notify = handle_router_destroy;
	wl_signal_add(router_destroyed, &b->router_destroy);
	/* The signal only for a second bridge on the router: asked for, it is emitted every
	 * frame, listened to or not. */
	b->touch_frame_by_callback = seatkit_router_get_touch_frame_callback(router, NULL) == NULL
		&& seatkit_router_set_touch_frame_callback(router, touch_frame_callback, b);
	if (!b->touch_frame_by_callback) {
		b->touch_frame.notify = handle_touch_frame;
		wl_signal_add(seatkit_router_get_touch_frame_signal(router), &b->touch_frame);
	}
	b->seat_destroy.notify = handle_seat_destroy;
	wl_signal_add(&seat->events.destroy, &b->seat_destroy);
	b->pointer_focus_change.notify = handle_pointer_focus_change;
	wl_signal_add(&seat->pointer_state.events.focus_change, &b->pointer_focus_change);
	b->request_set_cursor.notify = handle_request_set_cursor;
	wl_signal_add(&seat->events.request_set_cursor, &b->request_set_cursor);
	b->request_set_selection.notify = handle_request_set_selection;
	wl_signal_add(&seat->events.request_set_selection, &b->request_set_selection);
	b->request_set_primary_selection.notify = handle_request_set_primary_selection;
	wl_signal_add(&seat->events.request_set_primary_selection, &b->request_set_primary_selection);
	return b;
}

void seatkit_wlr_seat_destroy(struct seatkit_wlr_seat *b) {
	if (!b) {
		return;
	}
	struct bridged_surface *s, *s_tmp;
	wl_list_for_each_safe(s, s_tmp, &b->surfaces, link) {
		if (b->router) {
			seatkit_surface_set_responder(s->surface, NULL, NULL);
		}
		surface_free(s);
	}
	struct device *d, *d_tmp;
	wl_list_for_each_safe(d, d_tmp, &b->devices, link) {
		device_free(d);
	}
	struct bridged_pad *pad, *pad_tmp;
	wl_list_for_each_safe(pad, pad_tmp, &b->pads, link) {
		pad_free(pad);
	}
	struct bridged_tool *tool, *tool_tmp;
	wl_list_for_each_safe(tool, tool_tmp, &b->tools, link) {
		tool_free(tool);
	}
	struct bridged_tablet *t, *t_tmp;
	wl_list_for_each_safe(t, t_tmp, &b->tablets, link) {
		tablet_free(t, b);
	}
	if (b->tablet_manager) {
		wl_list_remove(&b->tablet_manager_destroy.link);
	}
	if (b->router) {
		wl_list_remove(&b->router_destroy.link);
		stop_touch_frames(b);
	}
	wl_list_remove(&b->seat_destroy.link);
	wl_list_remove(&b->request_set_cursor.link);
	wl_list_remove(&b->pointer_focus_change.link);
	wl_list_remove(&b->request_set_selection.link);
	wl_list_remove(&b->request_set_primary_selection.link);
	if (b->pointer_frame_idle) {
		wl_event_source_remove(b->pointer_frame_idle);
	}
	if (b->keyboards) {
		wl_list_remove(&b->keyboards_key.link);
		wl_list_remove(&b->keyboards_leave.link);
		wlr_keyboard_group_destroy(b->keyboards);
	}
	if (b->cursor) {
		stop_watching_layout(b);
		forget_client_cursor(b);
		wlr_xcursor_manager_destroy(b->xcursor);
		wlr_cursor_destroy(b->cursor);
	}
	free(b);
}

struct wlr_cursor *seatkit_wlr_seat_show_cursor(struct seatkit_wlr_seat *b, const char *theme, uint32_t size) {
	if (!b || !b->layout) {
		return NULL;
	}
	if (!b->cursor) {
		b->cursor = wlr_cursor_create();
		wlr_cursor_attach_output_layout(b->cursor, b->layout);
		b->xcursor = wlr_xcursor_manager_create(theme, size);
		wlr_xcursor_manager_load(b->xcursor, 1);
		b->layout_add.notify = handle_layout_add;
		wl_signal_add(&b->layout->events.add, &b->layout_add);
		b->layout_destroy.notify = handle_layout_destroy;
		wl_signal_add(&b->layout->events.destroy, &b->layout_destroy);
		move_cursor(b);
		set_default_cursor(b);
	}
	return b->cursor;
}

void seatkit_wlr_seat_set_cursor_hidden(struct seatkit_wlr_seat *b, bool hidden) {
	if (!b || !b->cursor || b->cursor_hidden == hidden) {
		return;
	}
	b->cursor_hidden = hidden;
	if (hidden) {
		wlr_cursor_set_image(b->cursor, NULL, 0, 0, 0, 0, 0, 0);
	} else {
		apply_cursor_image(b);
	}
}

bool seatkit_wlr_seat_set_cursor_shape(struct seatkit_wlr_seat *b, struct wl_client *client, uint32_t serial,
		const char *name) {
	if (!b || !client || !name) {
		return false;
	}
	struct wlr_seat_client *focused = b->seat->pointer_state.focused_client;
	uint32_t now = wl_display_get_serial(b->seat->display);
	/* Serials wrap: "at or after the enter, and not ahead of the display" in modular terms. */
	if (!focused || focused->client != client || (int32_t)(serial - b->pointer_enter_serial) < 0 ||
			(int32_t)(now - serial) < 0) {
		return false;
	}
	if (!b->cursor) {
		return true; /* honoured; nothing drawn (no cursor shown) */
	}
	bool known = wlr_xcursor_manager_get_xcursor(b->xcursor, name, 1) != NULL;
	b->cursor_is_default = true;
	b->cursor_shape = known ? name : NULL;
	forget_client_cursor(b);
	apply_cursor_image(b);
	return true;
}

bool seatkit_wlr_seat_is_cursor_hidden(struct seatkit_wlr_seat *b) {
	return b && b->cursor_hidden;
}

void seatkit_wlr_seat_set_delivery_log(struct seatkit_wlr_seat *b, void (*log)(void *data, const char *line), void *data) {
	if (b) {
		b->log = log;
		b->log_data = data;
	}
}
