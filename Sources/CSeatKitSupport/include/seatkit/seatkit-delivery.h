/*
 * SeatKit's C API for front ends that deliver routed input to clients themselves (the
 * wlroots bridge, seatkit-wlroots.h; a compositor's own wl_seat): when a device frame's touch
 * events are all delivered, and pointer emulation from touch for clients that bound no
 * wl_touch. Part of libseatkit; include after (or instead of) seatkit.h.
 */
#ifndef SEATKIT_DELIVERY_H
#define SEATKIT_DELIVERY_H

#include <seatkit/seatkit.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Emitted (data: the router) when the router has delivered the touch events of one device
 * frame (seatkit_router_notify_touch_frame), and when touches that recognizers held back are
 * released outside a frame (a recognizer failed on a timer, a cancel). A Wayland seat sends
 * wl_touch.frame here, once, to each client that got touch events since the last time.
 * Emitted for every frame, delivered or not. NULL for an invalid handle. The signal lives as
 * long as the router: remove listeners on the router's destroy signal at the latest. */
struct wl_signal *seatkit_router_get_touch_frame_signal(struct seatkit_router *router);

/* The same moments as a plain call, for a front end with one thing to do there (the wlroots
 * bridge sends its wl_touch.frames): `callback(data)` at each touch frame's end, with no
 * wl_signal in between. Told in the order set among the signal's (whichever was asked for
 * first goes first). One callback a router: setting another while one is set is refused
 * (false, logged); NULL clears it (true; it may clear or set itself while it runs, taking
 * effect from the next frame). False (logged) for an invalid handle. Clear it on the
 * router's destroy signal at the latest. */
typedef void (*seatkit_touch_frame_func_t)(void *data);
bool seatkit_router_set_touch_frame_callback(struct seatkit_router *router,
	seatkit_touch_frame_func_t callback, void *data);
/* The callback set (and its data in *data, when data is not NULL), or NULL: none, or an
 * invalid handle (logged). */
seatkit_touch_frame_func_t seatkit_router_get_touch_frame_callback(struct seatkit_router *router, void **data);

/*
 * Pointer emulation from touch: for a client that bound no wl_touch (foot does not), the
 * first finger on its surface becomes its pointer: enter (when the pointer was elsewhere)
 * and motion to the finger, BTN_LEFT pressed; motion while it moves; released (and leave,
 * if the emulation entered) when it lifts or is cancelled. Other fingers are ignored while
 * it is down. The library's one implementation (SeatKitWayland's seat uses the same): the
 * caller maps each action to its own pointer. Locations are the touched surface's space,
 * as responders get them (sx, sy). No allocation: the state is the caller's struct.
 */
enum seatkit_pointer_emulation_action {
	/* The pointer enters the surface at sx, sy. */
	SEATKIT_POINTER_EMULATION_ENTER = 0,
	/* The pointer moves to sx, sy. */
	SEATKIT_POINTER_EMULATION_MOTION = 1,
	/* BTN_LEFT pressed, or released (sx, sy: 0). */
	SEATKIT_POINTER_EMULATION_PRESS = 2,
	SEATKIT_POINTER_EMULATION_RELEASE = 3,
	/* The pointer leaves the surface (sx, sy: 0). */
	SEATKIT_POINTER_EMULATION_LEAVE = 4,
};

typedef void (*seatkit_pointer_emulation_func_t)(void *data,
	enum seatkit_pointer_emulation_action action, double sx, double sy);

/* The state: set up with seatkit_pointer_emulation_init, then private to these calls. */
struct seatkit_pointer_emulation {
	int32_t touch_id;
	uint8_t active;
	uint8_t entered;
	uint8_t reserved[2];
};

void seatkit_pointer_emulation_init(struct seatkit_pointer_emulation *emulation);
/* True while a finger drives the pointer; its id in *touch_id (may be NULL). */
bool seatkit_pointer_emulation_is_active(const struct seatkit_pointer_emulation *emulation,
	int32_t *touch_id);
/* A finger went down at sx, sy. pointer_is_here: the real pointer already has the surface
 * (no enter is sent, and no leave at the end). */
void seatkit_pointer_emulation_touch_down(struct seatkit_pointer_emulation *emulation,
	int32_t touch_id, double sx, double sy, bool pointer_is_here,
	seatkit_pointer_emulation_func_t perform, void *data);
void seatkit_pointer_emulation_touch_motion(struct seatkit_pointer_emulation *emulation,
	int32_t touch_id, double sx, double sy, seatkit_pointer_emulation_func_t perform, void *data);
void seatkit_pointer_emulation_touch_up(struct seatkit_pointer_emulation *emulation,
	int32_t touch_id, seatkit_pointer_emulation_func_t perform, void *data);
/* The finger driving the pointer was cancelled: the button is released all the same. */
void seatkit_pointer_emulation_touch_cancel(struct seatkit_pointer_emulation *emulation,
	seatkit_pointer_emulation_func_t perform, void *data);

#ifdef __cplusplus
}
#endif

#endif
