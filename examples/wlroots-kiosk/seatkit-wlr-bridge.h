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
 * Keyboards, from any backend: SeatKit's keymap once, before wlr_backend_start, then one
 * call per keyboard; feed the group's keys (seat.keyboards->keyboard.events.key) to
 * seatkit_router_notify_key.
 *
 *	seatkit_wlr_seat_set_keymap(&seat, keymap, 25, 600); // the router's keymap too
 *	seatkit_wlr_seat_add_keyboard(&seat, wlr_input_device);  // in new_input
 *
 * Clients that bound no wl_touch (foot does not) get touches as a left-button pointer.
 */
#ifndef SEATKIT_WLR_BRIDGE_H
#define SEATKIT_WLR_BRIDGE_H

#include <seatkit/seatkit.h>
#include <wlr/types/wlr_keyboard_group.h>
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
	/* The seat's keyboard: every keyboard added with seatkit_wlr_seat_add_keyboard, with
	 * SeatKit's keymap, sharing one state (a key held on two keyboards is pressed once and
	 * released when the last lets go). Its keyboard's `key` signal is what to feed to
	 * seatkit_router_notify_key; its `leave` signal lists the keys a keyboard that went
	 * away still held (their releases are owed). Created by seatkit_wlr_seat_init. */
	struct wlr_keyboard_group *keyboards;
};

struct seatkit_wlr_bridge {
	struct seatkit_wlr_seat *seat;
	struct wlr_surface *surface;
	bool focusable;
	struct wl_listener surface_destroy;
};

void seatkit_wlr_seat_init(struct seatkit_wlr_seat *seat, struct wlr_seat *wlr_seat);
/* After wl_display_destroy (which destroys the wlr_seat and the backends' keyboards). */
void seatkit_wlr_seat_finish(struct seatkit_wlr_seat *seat);

/* Gives the seat SeatKit's keymap (the one given to seatkit_router_set_keymap) and repeat
 * info: its keyboard group gets them and becomes the wlr_seat's keyboard, so that wlroots
 * sends clients that keymap (wl_keyboard.keymap) whatever backend the keyboards come from.
 * Once, before the first seatkit_wlr_seat_add_keyboard (before wlr_backend_start: backends
 * announce their keyboards as they start). False if the keymap does not compile or a
 * keyboard was already added. */
bool seatkit_wlr_seat_set_keymap(struct seatkit_wlr_seat *seat, struct seatkit_keymap *keymap,
	int32_t rate, int32_t delay);

/* The one call for a keyboard from any backend (x11, wayland, libinput, headless): it gets
 * the seat's keymap and repeat info and joins the seat's keyboard group. False (and
 * nothing changed) if the seat has no keymap yet or the device is not a keyboard. A
 * keyboard with a keymap of its own (virtual-keyboard-v1) is not for this. The group
 * forgets a keyboard when wlroots destroys it. */
bool seatkit_wlr_seat_add_keyboard(struct seatkit_wlr_seat *seat, struct wlr_input_device *keyboard);

/* `focusable`: whether the surface may take keyboard focus (an on-screen keyboard's must
 * not). The bridge forgets the surface when wlroots destroys it. */
void seatkit_wlr_bridge_init(struct seatkit_wlr_bridge *bridge, struct seatkit_wlr_seat *seat,
	struct wlr_surface *surface, bool focusable);
void seatkit_wlr_bridge_finish(struct seatkit_wlr_bridge *bridge);

/* The responder table; its data is a struct seatkit_wlr_bridge. */
extern const struct seatkit_responder_interface seatkit_wlr_bridge_impl;

#endif
