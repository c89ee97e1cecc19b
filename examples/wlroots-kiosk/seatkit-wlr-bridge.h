/*
 * A bridge from SeatKit to wlr_seat: a SeatKit responder that delivers what SeatKit routed
 * to one client surface through wlr_seat_*_notify_*, so wlroots keeps serials, popup grabs,
 * drag and drop and text-input. Any wlroots compositor can use it in a few lines:
 *
 *	struct seatkit_wlr_seat seat;                       // one per wlr_seat
 *	seatkit_wlr_seat_init(&seat, wlr_seat);
 *	struct seatkit_wlr_bridge *bridge = &view->bridge;  // one per client surface
 *	seatkit_wlr_bridge_init(bridge, &seat, wlr_surface, true);
 *	seatkit_surface_set_responder(sk_surface, &seatkit_wlr_bridge_impl, bridge);
 *
 * Clients that bound no wl_touch (foot does not) get touches as a left-button pointer.
 */
#ifndef SEATKIT_WLR_BRIDGE_H
#define SEATKIT_WLR_BRIDGE_H

#include <seatkit/seatkit.h>
#include <wlr/types/wlr_seat.h>

struct seatkit_wlr_seat {
	struct wlr_seat *seat;
	/* The modifiers of the last key SeatKit delivered (SeatKit's keymap is the truth). */
	struct wlr_keyboard_modifiers modifiers;
	/* The touch emulating the pointer, or -1. */
	int32_t emulating_touch;
	/* Called after every delivery with a line describing it, or NULL. */
	void (*delivered)(void *data, const char *line);
	void *delivered_data;
};

struct seatkit_wlr_bridge {
	struct seatkit_wlr_seat *seat;
	struct wlr_surface *surface;
	bool focusable;
	struct wl_listener surface_destroy;
};

void seatkit_wlr_seat_init(struct seatkit_wlr_seat *seat, struct wlr_seat *wlr_seat);

/* `focusable`: whether the surface may take keyboard focus (an on-screen keyboard's must
 * not). The bridge forgets the surface when wlroots destroys it. */
void seatkit_wlr_bridge_init(struct seatkit_wlr_bridge *bridge, struct seatkit_wlr_seat *seat,
	struct wlr_surface *surface, bool focusable);
void seatkit_wlr_bridge_finish(struct seatkit_wlr_bridge *bridge);

/* The responder table; its data is a struct seatkit_wlr_bridge. */
extern const struct seatkit_responder_interface seatkit_wlr_bridge_impl;

#endif
