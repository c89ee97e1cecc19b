/*
 * SeatKit for wlroots 0.15 compositors: SeatKit routes, wlr_seat delivers.
 *
 * One bridge per wlr_seat feeds SeatKit's router from wlroots' input devices (any backend:
 * libinput, x11, wayland, headless) and hands what SeatKit routed to each client surface to
 * wlr_seat_*_notify_*, so that wlroots keeps serials, grabs, drag and drop, text input and
 * selections. It does, once:
 *  - times: wlroots' 32-bit millisecond event times become the router's clock (a time ahead
 *    of the clock, or on another clock (the x11 backend's are the X server's), is taken as
 *    now; times never go back);
 *  - coordinates: relative motion as is; absolute motion in 0...1 of the device's output
 *    (or of the whole layout); touch in 0...1 of the device's output, or of the layout's
 *    first, through SeatKit's output of the same name (its transform applied);
 *  - one wl_touch.frame per device frame to each client that got touch events in it (and
 *    after touches a recognizer held are released), one wl_touch.cancel per client;
 *  - wlr_seat.last_event: a touch motion stamps it with its own event time (the router's
 *    clock: CLOCK_MONOTONIC, the event's kernel timestamp for libinput) instead of reading
 *    the clock, never moving it back; other events through wlroots' notify calls, which
 *    stamp it with the clock;
 *  - pointer frames as wlroots sends them: one per device frame that delivered something;
 *  - pointer emulation for clients that bound no wl_touch (foot), from SeatKit's one
 *    implementation (seatkit-delivery.h);
 *  - the keymap: SeatKit's, for the router, every keyboard and the clients, in one call;
 *  - the cursor image (optional): the default or the focused client's.
 *
 * Protocols wlroots 0.15 has no helper for, each one global routed through SeatKit (below):
 * ext-idle-notify-v1 (seatkit_wlr_idle_notifier_create), ext-session-lock-v1
 * (seatkit_wlr_session_lock_create) and cursor-shape-v1
 * (seatkit_wlr_cursor_shape_manager_create).
 *
 * A compositor still does itself: outputs (a SeatKit output per wlr_output, with the same
 * name, mode, transform and scale), the SeatKit surface tree (a surface per mapped toplevel
 * or popup, its frame and input region kept as wlroots has them, and stacking), which
 * surface gets keyboard focus (seatkit_router_set_first_responder), its shell protocols,
 * and its policy (filters, recognizers, grabs).
 *
 *	struct seatkit_wlr_seat *bridge = seatkit_wlr_seat_create(router, wlr_seat, output_layout);
 *	seatkit_wlr_seat_set_keymap(bridge, keymap, 25, 600);       // before wlr_backend_start
 *	seatkit_wlr_seat_add_input_device(bridge, device);          // in backend new_input
 *	seatkit_wlr_seat_attach_surface(bridge, sk_surface, wlr_surface,
 *		SEATKIT_WLR_SURFACE_FOCUSABLE);                         // when a toplevel maps
 *
 * Build with pkg-config's seatkit-wlroots (meson: dependency('seatkit-wlroots')): its
 * flags include -DWLR_USE_UNSTABLE. One thread: the display's.
 */
#ifndef SEATKIT_WLROOTS_H
#define SEATKIT_WLROOTS_H

#include <seatkit/seatkit.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard_group.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_seat.h>

#ifdef __cplusplus
extern "C" {
#endif

struct seatkit_wlr_seat;

/* A bridge between `router` and `seat`. `layout`: where absolute devices and touchscreens
 * find their outputs (may be NULL: then only devices of an output that SeatKit knows by
 * name map). The bridge is destroyed with the wlr_seat (wl_display_destroy), or before by
 * seatkit_wlr_seat_destroy; it stops feeding the router when the router is destroyed.
 * NULL (logged) if an argument is NULL. */
struct seatkit_wlr_seat *seatkit_wlr_seat_create(struct seatkit_router *router,
	struct wlr_seat *seat, struct wlr_output_layout *layout);
void seatkit_wlr_seat_destroy(struct seatkit_wlr_seat *bridge);

/* SeatKit's keymap (and repeat info) for everything at once: the router
 * (seatkit_router_set_keymap), the seat's keyboard group (every keyboard added with
 * seatkit_wlr_seat_add_input_device joins it, and SeatKit sees it as one keyboard) and so
 * the clients (wl_keyboard.keymap). Before wlr_backend_start (backends announce their
 * keyboards as they start): false if a keyboard was already added or the keymap does not
 * compile. */
bool seatkit_wlr_seat_set_keymap(struct seatkit_wlr_seat *bridge, struct seatkit_keymap *keymap,
	int32_t repeat_rate, int32_t repeat_delay_ms);

/* Feeds a device of any backend to the router, until wlroots destroys it: a keyboard joins
 * the seat's group (after seatkit_wlr_seat_set_keymap: false before), a pointer, a touch
 * device, a tablet and a tablet pad report to SeatKit under numbers of the bridge's own
 * (from 0x10000 up). A tablet's tools are SeatKit pens (seatkit_router_notify_pen, every
 * axis with every event, the position placed on the tablet's output as a touchscreen's
 * points are); a pad is announced with its mode groups (seatkit_router_notify_pad_added)
 * and its buttons, rings and strips go to seatkit_router_notify_pad. With
 * seatkit_wlr_seat_enable_tablets first, a tablet's zwp_tablet_v2 is offered at once, so
 * that pads can follow keyboard focus before a pen came in. The seat's capabilities
 * follow. False (nothing done) for other device types. */
bool seatkit_wlr_seat_add_input_device(struct seatkit_wlr_seat *bridge,
	struct wlr_input_device *device);

/* A keyboard with a keymap of its own (virtual-keyboard-v1: wtype, an on-screen keyboard):
 * routed by SeatKit like any key; clients get its keymap while one of its keys is held, then
 * the seat's again. */
bool seatkit_wlr_seat_add_virtual_keyboard(struct seatkit_wlr_seat *bridge,
	struct wlr_input_device *keyboard);

/* The seat's keyboard group (SeatKit's keymap), or NULL before seatkit_wlr_seat_set_keymap. */
struct wlr_keyboard_group *seatkit_wlr_seat_get_keyboard_group(struct seatkit_wlr_seat *bridge);

/* The router the bridge feeds, or NULL once it is destroyed. */
struct seatkit_router *seatkit_wlr_seat_get_router(struct seatkit_wlr_seat *bridge);

/* Sets the wlr_seat's capabilities from SeatKit's (enum seatkit_device_capability bits, as
 * a delegate's capabilities_changed gets them): a touchscreen also gives a pointer, for the
 * emulation. The bridge calls it when its own devices come and go; a compositor that feeds
 * SeatKit other devices too (a replay) calls it from its delegate. */
void seatkit_wlr_seat_set_capabilities(struct seatkit_wlr_seat *bridge, uint32_t capabilities);
/* A seat without the pointer capability, whatever devices SeatKit has (a touch-only kiosk):
 * clients bind no wl_pointer, so they get no pointer events, emulated ones included (an app
 * without wl_touch gets no input from a touchscreen). SeatKit still routes pointer devices'
 * input (filters and spies see it); it reaches no client. Applied at once and to later
 * capability changes. */
void seatkit_wlr_seat_set_no_pointer(struct seatkit_wlr_seat *bridge, bool no_pointer);
/* Tells the focused client modifiers that changed outside a key: what sticky keys' callback
 * (seatkit_router_set_sticky_keys) gets, when it is turned off or a key another filter took
 * ends a latch. Call this rather than wlr_seat_keyboard_notify_modifiers: the bridge sends
 * each key's modifiers only when they differ from the last it sent, and the next keyboard
 * enter carries them, so it must know of every change. Nothing is sent when nothing changed. */
void seatkit_wlr_seat_notify_modifiers(struct seatkit_wlr_seat *bridge, uint32_t depressed,
	uint32_t latched, uint32_t locked, uint32_t group);

enum seatkit_wlr_surface_flags {
	/* The surface may take keyboard focus (an on-screen keyboard's, a popup's must not). */
	SEATKIT_WLR_SURFACE_FOCUSABLE = 1 << 0,
};

/* Makes the bridge `surface`'s responder, delivering to `wlr_surface` (whose surface-local
 * space must be the SeatKit surface's: place the SeatKit surface where the wl_surface is
 * drawn). Lives as long as the SeatKit surface; if wlroots destroys the wl_surface first,
 * input routed to the SeatKit surface is swallowed until the compositor removes it. False
 * (logged) for a NULL argument. */
bool seatkit_wlr_seat_attach_surface(struct seatkit_wlr_seat *bridge,
	struct seatkit_surface *surface, struct wlr_surface *wlr_surface, uint32_t flags);

/* Draws a cursor (wlr_cursor on the layout, xcursor `theme` at `size`; NULL theme: the
 * default) at SeatKit's pointer: the theme's left_ptr where no client has the pointer, the
 * focused client's own image otherwise (wl_pointer.set_cursor). The cursor, or NULL without
 * a layout. */
struct wlr_cursor *seatkit_wlr_seat_show_cursor(struct seatkit_wlr_seat *bridge,
	const char *theme, uint32_t size);

/* A named image from the cursor theme for the client that has the pointer
 * (cursor-shape-v1's wp_cursor_shape_device_v1.set_shape, whose CSS names cursor themes use:
 * "text", "ew-resize", "pointer"), drawn by the cursor of seatkit_wlr_seat_show_cursor until
 * the pointer focus moves or the client sets an image (wl_pointer.set_cursor) or another
 * shape; left_ptr if the theme lacks the name. Honoured only for `client` while it has the
 * pointer focus (SeatKit's, delivered through the bridge) and for a `serial` at or after
 * its wl_pointer.enter (a stale one: false, nothing changed). `name` must outlive the bridge
 * (a static string). True if honoured (also without a cursor shown). */
bool seatkit_wlr_seat_set_cursor_shape(struct seatkit_wlr_seat *bridge, struct wl_client *client,
	uint32_t serial, const char *name);

/* Hides the cursor drawn by seatkit_wlr_seat_show_cursor (a touch kiosk: on touch, after a
 * while without pointer motion), or shows it again with the image it would have now: the
 * default, or the image the focused client set while it was hidden. Input is unaffected:
 * the pointer keeps moving and clients keep their focus. Nothing without a cursor. */
void seatkit_wlr_seat_set_cursor_hidden(struct seatkit_wlr_seat *bridge, bool hidden);
bool seatkit_wlr_seat_is_cursor_hidden(struct seatkit_wlr_seat *bridge);

/* Pens (SeatKit's pen handlers on the bridged surfaces): offers zwp_tablet_manager_v2
 * (wlroots' tablet-v2, made on the seat's display and gone with it). A pen reaches a client
 * that bound a tablet seat as its tablet tool (proximity, down, motion, pressure, distance,
 * tilt, rotation, slider, wheel, buttons; a tablet per SeatKit device, a tool per pen), and
 * every other client as its pointer (tip: BTN_LEFT, BTN_STYLUS: BTN_RIGHT, BTN_STYLUS2:
 * BTN_MIDDLE), as sway does. The drawn cursor (seatkit_wlr_seat_show_cursor) follows the
 * pen and shows the cursor a tablet client sets for the tool. Without this call pens reach
 * every client as its pointer. False (logged) for a NULL bridge or if wlroots could not. */
bool seatkit_wlr_seat_enable_tablets(struct seatkit_wlr_seat *bridge);
/* The SeatKit device `device` is a tablet (call it from the delegate's device_added for a
 * device with SEATKIT_DEVICE_TABLET_TOOL): its zwp_tablet_v2 is offered to clients now,
 * not only once a pen of it comes over a surface, so that pads can follow keyboard focus
 * (their enter quotes a tablet) before any pen came in; the first tablet is the one they
 * quote until a pen comes in. False if tablets are not enabled. */
bool seatkit_wlr_seat_add_tablet(struct seatkit_wlr_seat *bridge, uint32_t device);
/* The SeatKit device `device` (a tablet) went away: its tablet and the pens last seen on it
 * are removed for clients (zwp_tablet_v2.removed, zwp_tablet_tool_v2.removed). Call it from
 * the delegate's device_removed; nothing for a device that is no tablet. */
void seatkit_wlr_seat_remove_tablet(struct seatkit_wlr_seat *bridge, uint32_t device);

/* Tablet pads (with seatkit_wlr_seat_enable_tablets; call from the delegate's pad_added): the
 * pad `device` with its buttons, rings, strips and mode groups is offered to every client
 * with a tablet seat (zwp_tablet_pad_v2, wlroots' tablet-v2), replacing one of that device.
 * Its focus follows the pens: a pen coming in over a tablet-v2 client's surface takes every
 * pad there (zwp_tablet_pad_v2.enter quoting the pen's tablet, then each group's
 * mode_switch), and the pads stay when it leaves; keyboard focus moving to a tablet-v2
 * client takes them too, as sway's do (once a pen has come in: an enter quotes a tablet).
 * seatkit_wlr_seat_remove_tablet removes the pad of its device. False if tablets are not
 * enabled, for a NULL argument (logged) or if memory ran out. */
bool seatkit_wlr_seat_add_pad(struct seatkit_wlr_seat *bridge, uint32_t device,
	const struct seatkit_pad_layout *layout);
/* A pad event (call from the delegate's pad_event): a button, ring or strip goes to the
 * client the pad is on (a ring's or strip's frame closing it); a mode the event reports
 * changed is told first with its group's mode_switch (or with the next enter, while the
 * pad is on no surface). Pad keys have no tablet-v2 event and are not delivered. Nothing for
 * a device that is no pad added here, or an index past the pad's counts. */
void seatkit_wlr_seat_notify_pad(struct seatkit_wlr_seat *bridge, const struct seatkit_pad_event *event);
/* What the client the pad is on asked the compositor to show for a pad button, ring or
 * strip (zwp_tablet_pad_v2.set_feedback and the ring's and strip's): the last description
 * set with the serial of its group's latest mode_switch (stale ones are ignored, as
 * tablet-v2 says), or NULL (none, an unknown pad or index, or SEATKIT_PAD_KEY). Valid until
 * the next feedback for it or the pad's removal; the delivery log also reports each
 * ("pad 5 button 2 feedback \"Undo\""). */
const char *seatkit_wlr_seat_get_pad_feedback(struct seatkit_wlr_seat *bridge, uint32_t device,
	enum seatkit_pad_event_kind kind, uint32_t index);

/* Called with a line for every event the bridge hands to wlroots ("touch down 0 12.00 3.50",
 * "touch-frame", "pointer enter ...", "key 30 pressed", ...): for logs and tests. NULL: none. */
void seatkit_wlr_seat_set_delivery_log(struct seatkit_wlr_seat *bridge,
	void (*log)(void *data, const char *line), void *data);

/* ---- Protocols wlroots 0.15 lacks, routed through SeatKit ----
 *
 * Each makes one global on the display and is destroyed with it (wl_display_destroy), or
 * before by its _destroy (resources clients still hold become inert). Their `_set_log`
 * calls `log` with a line for each thing they do ("session locked", "cursor shape text"):
 * for logs and tests; NULL: none. */

/* ext-idle-notify-v1 (swayidle): activity is SeatKit's. A spy on `router` (there while some
 * client holds a notification: with none, events cost nothing here) sees every event as it
 * enters the router, before filters and grabs (a touch a wake filter swallows, keys a
 * session lock takes, virtual pointers and keyboards; not a device added or removed), and
 * each one restarts every notification's timeout; a notification that said `idled` says
 * `resumed` at the first one. Times are the display's event loop timers (milliseconds). The
 * compositor keeps its own idle policy: which inhibitors count (idle-inhibit-v1 on a visible
 * surface, wlroots' wlr_idle_inhibit_v1) is its to decide, and it tells the notifier with
 * seatkit_wlr_idle_notifier_set_inhibited; its own screen blanking or dimming it times
 * itself (a spy of its own). NULL (logged) for a NULL argument. */
struct seatkit_wlr_idle_notifier;
struct seatkit_wlr_idle_notifier *seatkit_wlr_idle_notifier_create(struct wl_display *display,
	struct seatkit_router *router);
/* While inhibited, no notification goes idle (one due looks again a whole timeout later);
 * when inhibition ends, every notification not idle starts its timeout again from the whole
 * of it. Call it whenever the compositor's count of inhibitors that count changes. */
void seatkit_wlr_idle_notifier_set_inhibited(struct seatkit_wlr_idle_notifier *notifier, bool inhibited);
/* Lines: "idle notification after MS ms" (made), "...: idled", "...: resumed". */
void seatkit_wlr_idle_notifier_set_log(struct seatkit_wlr_idle_notifier *notifier,
	void (*log)(void *data, const char *line), void *data);
void seatkit_wlr_idle_notifier_destroy(struct seatkit_wlr_idle_notifier *notifier);

/* ext-session-lock-v1 (swaylock): the session lock as one SeatKit grab. From a lock screen's
 * `lock` to its unlock_and_destroy, a grab holds the router's pointer, touch and keyboard
 * (the keyboard's with SEATKIT_KEYBOARD_GRAB_CLEAR_FOCUS: the focused app is sent leave). It
 * runs after the router's filters (a wake filter, accessibility) and before any recognizer or
 * responder, so nothing of the session sees input: pointer input goes only to the lock
 * surface under the pointer (pointer focus moves there), a touch only if it lands on one,
 * keys only to a lock surface (made first responder: the key output's, or any shown);
 * touchpad gestures to no one. Virtual devices are routed by SeatKit like any, so they too
 * reach the lock screen only. The bridge checks the protocol (ack before commit, a buffer of
 * the configured size: the output's effective resolution, one surface per output) and its
 * rules: a second lock while one is active is sent `finished`; a lock screen that dies
 * without unlocking leaves the session locked (another lock may take over). `locked` is sent
 * as soon as the lock is made: the compositor's `lock` callback must hide everything at once.
 *
 * The compositor supplies, called on the display's thread (set struct_size to sizeof the
 * struct, and use designated initializers: members added later, beyond an older
 * struct_size, are taken as NULL): */
struct seatkit_wlr_session_lock_interface {
	size_t struct_size;
	/* The session is locked: hide every output's content now (a black curtain over the
	 * scene), refuse keyboard focus to apps, turn off gestures that would show them. May be
	 * NULL. Called before the grab starts. */
	void (*lock)(void *data);
	/* Unlocked: show the session again and give keyboard focus back (the grab has ended, the
	 * lock surfaces are hidden). May be NULL. */
	void (*unlock)(void *data);
	/* Draw the lock surface `surface` (committed at the configured size) on `output`, above
	 * the curtain, at the output's origin; set *routed_on to the SeatKit output of `output`
	 * (the bridge puts the lock's SeatKit surface under its root at 0,0 and attaches it to
	 * the wl_surface), or leave it NULL to show it without input. Return a handle of yours
	 * (non-NULL: a scene node) given back to hide_surface, or NULL if the output is not
	 * shown (the surface is then not shown; a later commit asks again). Required. */
	void *(*show_surface)(void *data, struct wlr_surface *surface, struct wlr_output *output,
		struct seatkit_output **routed_on);
	/* Stop drawing a shown lock surface (its surface, output or lock went, or unlock). The
	 * bridge has already destroyed its SeatKit surface. May be NULL. */
	void (*hide_surface)(void *data, void *shown);
};
struct seatkit_wlr_session_lock;
/* A session lock routed through `bridge`'s router. `impl` is not copied. NULL (logged) for a
 * NULL argument, a struct_size too small for show_surface, a NULL show_surface or a bridge
 * whose router is gone. */
struct seatkit_wlr_session_lock *seatkit_wlr_session_lock_create(struct wl_display *display,
	struct seatkit_wlr_seat *bridge, const struct seatkit_wlr_session_lock_interface *impl, void *data);
/* Whether the session is locked (also while abandoned by its lock screen). */
bool seatkit_wlr_session_lock_is_locked(struct seatkit_wlr_session_lock *lock);
/* Raises the lock surfaces above everything SeatKit hit-tests (call after raising other
 * SeatKit surfaces while locked; the grab does it too before each hit test). The scene is the
 * compositor's to raise. */
void seatkit_wlr_session_lock_raise(struct seatkit_wlr_session_lock *lock);
/* The output whose lock surface gets the keys (the compositor's main screen); NULL: the
 * first shown. */
void seatkit_wlr_session_lock_set_key_output(struct seatkit_wlr_session_lock *lock,
	struct wlr_output *output);
/* Lines: "session locked", "lock surface shown on NAME", "session unlocked", "session lock
 * abandoned: still locked", "session lock refused: already locked". */
void seatkit_wlr_session_lock_set_log(struct seatkit_wlr_session_lock *lock,
	void (*log)(void *data, const char *line), void *data);
/* Ends the grab if locked (without calling unlock); call it after the clients are destroyed
 * (wl_display_destroy_clients) and before the router. */
void seatkit_wlr_session_lock_destroy(struct seatkit_wlr_session_lock *lock);

/* cursor-shape-v1 version 1 (shapes 1 to 34, by their CSS names): each
 * wp_cursor_shape_device_v1.set_shape goes to seatkit_wlr_seat_set_cursor_shape, which
 * honours it only for the client that has SeatKit's pointer focus and a serial at or after
 * its wl_pointer.enter, and draws it with the cursor of seatkit_wlr_seat_show_cursor (the
 * compositor shows that cursor; without it a shape is honoured and not drawn). A tablet
 * tool's device is inert. An invalid shape is a protocol error. */
struct seatkit_wlr_cursor_shape_manager;
struct seatkit_wlr_cursor_shape_manager *seatkit_wlr_cursor_shape_manager_create(
	struct wl_display *display, struct seatkit_wlr_seat *bridge);
/* Lines: "cursor shape NAME" for each honoured request. */
void seatkit_wlr_cursor_shape_manager_set_log(struct seatkit_wlr_cursor_shape_manager *manager,
	void (*log)(void *data, const char *line), void *data);
void seatkit_wlr_cursor_shape_manager_destroy(struct seatkit_wlr_cursor_shape_manager *manager);

#ifdef __cplusplus
}
#endif

#endif
