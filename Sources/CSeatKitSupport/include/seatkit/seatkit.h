/*
 * SeatKit's C API: input routing for compositors written in C (wlroots, meson).
 *
 * SeatKit decides who gets every touch, click, scroll, key and gesture of a seat: filters
 * and spies first, then gesture recognizers, then the responder chain of the target surface
 * (surface -> parent -> ... -> root surface -> output -> the router's delegate). Delivery is
 * the compositor's business: a responder is a table of C callbacks plus user data, and
 * typically calls wlr_seat_*_notify_* for the client behind the surface.
 *
 * Conventions, in the wlroots style:
 *  - Functions are named seatkit_<object>_<verb>. Objects are opaque handles made by
 *    *_create and ended by *_destroy; a handle never dereferences freed memory: every call
 *    checks it against a table with generation counters, so a destroyed, NULL or foreign
 *    handle is refused (the call does nothing and returns false/NULL/0) and logged at
 *    SEATKIT_ERROR through the log callback (seatkit_log_init). No argument from C makes
 *    the library trap.
 *  - An object that can go away while a C caller holds it has a destroy signal
 *    (struct wl_signal, data = the handle), emitted before the handle becomes invalid.
 *  - Threads: a router and every object made on it (outputs, surfaces, recognizers,
 *    filters, spies, grabs, policies, libinput contexts, replays) belong to the thread that
 *    created the router, usually the one running its event loop; several routers may live
 *    on several threads at once. A call with an object from another thread is refused (it
 *    does nothing, returns false/NULL/0) and logged, never a crash. Keymaps belong to no
 *    thread: make one anywhere, use it with any router. Callbacks run on the router's
 *    thread and may call back into the library (edit the tree, move focus, inject events).
 *    Call seatkit_log_init before starting routers on other threads (the log callback is
 *    one for the process, and is called from each router's thread).
 *  - Time is in microseconds on CLOCK_MONOTONIC (libinput's unit and clock). On a router
 *    with an event-loop clock, an event time ahead of now, or more than 10 s behind it (wtype
 *    sends 0), is taken as now and logged once per router (timers count from event times). wlroots gives 32-bit milliseconds:
 *    convert them with seatkit_time_from_msec.
 *  - ABI: every interface table (seatkit_*_interface) starts with `size_t struct_size`,
 *    which the caller sets to sizeof the struct it was compiled with; the library copies the
 *    table and reads only the members within that size, so members added at the end by a
 *    later release read as NULL for an older program, and a newer program's extra members
 *    are ignored by an older library. A struct_size below sizeof(size_t) (0: not set) is
 *    refused and logged. Version policy: the library is libseatkit.so.0 (SONAME); within
 *    one SONAME, functions, enum values and interface members are only added (members at
 *    the end), and structs the caller passes in (seatkit_axis, seatkit_device_info,
 *    seatkit_touchpad_gesture, seatkit_rect) and event structs keep their layout; anything
 *    else changes the SONAME's number. This header compiles as C11 and as C++ with
 *    -Wall -Wextra -pedantic.
 *
 * Coordinate spaces (each function's comment names the one it takes):
 *  - layout space: the global plane in which outputs are placed, in logical units;
 *  - output space: one output's logical area, origin at its top-left corner, after its
 *    transform and scale;
 *  - surface space: one surface's own area, origin at its top-left corner. A surface's
 *    frame is given in its parent's surface space (for a child of an output's root surface:
 *    output space).
 *
 * Entry points are one of three doors, as in wlr_seat: seatkit_router_notify_* goes through
 * filters, spies, the active grab, gesture recognizers and the responder chain;
 * seatkit_router_route_* is what a grab forwards through (the default rule alone);
 * seatkit_router_send_* is raw and says so. Everything else (tree edits, focus, actions, queries) goes through no
 * filter, grab or recognizer; edits that end what a responder was owed (removing a surface,
 * cancelling touches) tell it.
 *
 * Grabs (wlr_seat-style pointer, keyboard and touch grabs, and a popup grab) are in the
 * "Grabs" section.
 */
#ifndef SEATKIT_SEATKIT_H
#define SEATKIT_SEATKIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-server-core.h>

#ifdef __cplusplus
extern "C" {
#endif

struct seatkit_router;
struct seatkit_output;
struct seatkit_surface;
struct seatkit_keymap;
struct seatkit_recognizer;
struct seatkit_filter;
struct seatkit_spy;
struct seatkit_libinput;
struct seatkit_grab;
struct seatkit_kiosk_policy;

/* ------------------------------------------------------------------------------------ */
/* Logging                                                                               */

/* The same values and meaning as enum wlr_log_importance. */
enum seatkit_log_importance {
	SEATKIT_SILENT = 0,
	SEATKIT_ERROR = 1,
	SEATKIT_INFO = 2,
	SEATKIT_DEBUG = 3,
	SEATKIT_LOG_IMPORTANCE_LAST,
};

/* The same signature as wlr_log_func_t, so a wlroots compositor may pass _wlr_vlog to send
 * SeatKit's messages through wlroots' own log. */
typedef void (*seatkit_log_func_t)(enum seatkit_log_importance importance, const char *fmt,
	va_list args);

/* Sets the most verbose importance that is logged and the callback (NULL: the default, which
 * writes "[seatkit] message" lines to stderr). The default verbosity is SEATKIT_ERROR: every
 * misuse of the API is logged. */
void seatkit_log_init(enum seatkit_log_importance verbosity, seatkit_log_func_t callback);
enum seatkit_log_importance seatkit_log_get_verbosity(void);

/* ------------------------------------------------------------------------------------ */
/* Values shared by events                                                               */

enum seatkit_result {
	/* The router moves the event on to the next responder of the chain. */
	SEATKIT_NOT_HANDLED = 0,
	/* The responder took the event; it goes no further. */
	SEATKIT_HANDLED = 1,
};

enum seatkit_button_state {
	SEATKIT_BUTTON_RELEASED = 0,
	SEATKIT_BUTTON_PRESSED = 1,
};

enum seatkit_key_state {
	SEATKIT_KEY_RELEASED = 0,
	SEATKIT_KEY_PRESSED = 1,
	/* A repeat generated by SeatKit while a key is held (see seatkit_router_set_keymap).
	 * Clients repeat on their own: a bridge to wlr_seat drops these. */
	SEATKIT_KEY_REPEATED = 2,
};

/* Modifier bits of seatkit_key_event.modifiers, independent of the keymap. */
enum seatkit_modifier {
	SEATKIT_MODIFIER_SHIFT = 1 << 0,
	SEATKIT_MODIFIER_CAPS = 1 << 1,
	SEATKIT_MODIFIER_CTRL = 1 << 2,
	SEATKIT_MODIFIER_ALT = 1 << 3,
	SEATKIT_MODIFIER_NUM = 1 << 4,
	SEATKIT_MODIFIER_LOGO = 1 << 6,
	SEATKIT_MODIFIER_ALTGR = 1 << 7,
};

/* Device capabilities (seatkit_device_info.capabilities), a bit set. */
enum seatkit_device_capability {
	SEATKIT_DEVICE_KEYBOARD = 1 << 0,
	SEATKIT_DEVICE_POINTER = 1 << 1,
	SEATKIT_DEVICE_TOUCH = 1 << 2,
	SEATKIT_DEVICE_GESTURE = 1 << 3,
	SEATKIT_DEVICE_TABLET_TOOL = 1 << 4,
	SEATKIT_DEVICE_TABLET_PAD = 1 << 5,
	SEATKIT_DEVICE_SWITCH = 1 << 6,
};

/* wl_output.transform's values. */
enum seatkit_output_transform {
	SEATKIT_OUTPUT_TRANSFORM_NORMAL = 0,
	SEATKIT_OUTPUT_TRANSFORM_90 = 1,
	SEATKIT_OUTPUT_TRANSFORM_180 = 2,
	SEATKIT_OUTPUT_TRANSFORM_270 = 3,
	SEATKIT_OUTPUT_TRANSFORM_FLIPPED = 4,
	SEATKIT_OUTPUT_TRANSFORM_FLIPPED_90 = 5,
	SEATKIT_OUTPUT_TRANSFORM_FLIPPED_180 = 6,
	SEATKIT_OUTPUT_TRANSFORM_FLIPPED_270 = 7,
};

enum seatkit_axis_source {
	SEATKIT_AXIS_SOURCE_WHEEL = 0,
	SEATKIT_AXIS_SOURCE_FINGER = 1,
	SEATKIT_AXIS_SOURCE_CONTINUOUS = 2,
	SEATKIT_AXIS_SOURCE_WHEEL_TILT = 3,
};

/* One scroll step or motion, both axes at once. Distances in logical units (vertical
 * positive down, horizontal positive right); v120: high-resolution wheel steps, 120 a
 * detent (wheel sources only). */
struct seatkit_axis {
	enum seatkit_axis_source source;
	double horizontal, vertical;
	double horizontal_v120, vertical_v120;
	bool horizontal_stop, vertical_stop;
	/* Natural scrolling: content follows the fingers. */
	bool inverted;
};

enum seatkit_touchpad_gesture_kind {
	SEATKIT_TOUCHPAD_SWIPE = 0,
	SEATKIT_TOUCHPAD_PINCH = 1,
	SEATKIT_TOUCHPAD_HOLD = 2,
};

enum seatkit_gesture_phase {
	SEATKIT_GESTURE_BEGIN = 0,
	SEATKIT_GESTURE_UPDATE = 1,
	SEATKIT_GESTURE_END = 2,
	/* An end that the fingers did not finish (libinput's cancelled end). */
	SEATKIT_GESTURE_CANCEL = 3,
};

/* A touchpad swipe, pinch or hold as libinput reports it. dx, dy: motion of the fingers'
 * centre since the last update (logical units); scale: relative to the start (1 at begin);
 * rotation: degrees clockwise since the last update. */
struct seatkit_touchpad_gesture {
	enum seatkit_touchpad_gesture_kind kind;
	enum seatkit_gesture_phase phase;
	uint32_t fingers;
	double dx, dy, dx_unaccel, dy_unaccel;
	double scale, rotation;
};

/* A device as the backend announces it. */
struct seatkit_device_info {
	/* NULL: "". */
	const char *name;
	/* enum seatkit_device_capability bits. */
	uint32_t capabilities;
	/* Physical size in millimetres of an absolute device (touchscreen, touchpad); 0 when
	 * unknown. Gesture recognizers turn their millimetre thresholds into layout units
	 * with it. */
	double width_mm, height_mm;
	/* The output (connector name) an absolute device maps to, or NULL. */
	const char *mapped_output;
};

enum seatkit_switch {
	SEATKIT_SWITCH_LID = 0,
	SEATKIT_SWITCH_TABLET_MODE = 1,
};

/* ------------------------------------------------------------------------------------ */
/* Events at responders                                                                  */
/* Every event gives the location twice: x, y in layout space and sx, sy in the space of  */
/* the target surface (a touch's bound surface, the pointer focus). As an event walks up  */
/* the chain (parent, root, output, delegate), sx, sy stay in the *target's* space: a     */
/* parent that wants its own coordinates converts x, y (seatkit_surface_layout_to_local). */
/* Pointers in events are valid only during the callback.                                */

struct seatkit_touch_point {
	/* libinput's seat slot: unique across the seat while the finger is down. */
	int32_t id;
	uint32_t device;
	/* Layout space. */
	double x, y;
	/* The bound surface's space (may lie outside it: a touch stays with its surface). */
	double sx, sy;
	/* Where and when the finger went down, layout space. */
	double start_x, start_y;
	int64_t start_time_usec;
};

/* The touches of one phase, for one surface, from one device frame. */
struct seatkit_touch_event {
	int64_t time_usec;
	size_t touch_count;
	const struct seatkit_touch_point *touches;
};

struct seatkit_pointer_crossing_event {
	int64_t time_usec;
	double x, y, sx, sy;
};

struct seatkit_pointer_motion_event {
	int64_t time_usec;
	uint32_t device;
	double x, y, sx, sy;
	/* The relative motion that produced it (0 for absolute motion), accelerated and raw. */
	double dx, dy, dx_unaccel, dy_unaccel;
};

struct seatkit_pointer_button_event {
	int64_t time_usec;
	uint32_t device;
	/* evdev code: BTN_LEFT 0x110, BTN_RIGHT 0x111, BTN_MIDDLE 0x112. */
	uint32_t button;
	enum seatkit_button_state state;
	double x, y, sx, sy;
};

struct seatkit_pointer_axis_event {
	int64_t time_usec;
	uint32_t device;
	struct seatkit_axis axis;
	double x, y, sx, sy;
};

struct seatkit_touchpad_gesture_event {
	int64_t time_usec;
	uint32_t device;
	struct seatkit_touchpad_gesture gesture;
	double x, y, sx, sy;
};

/* The kind of tablet tool (libinput's tool types). */
enum seatkit_pen_tool_type {
	SEATKIT_PEN_TOOL_PEN = 0,
	SEATKIT_PEN_TOOL_ERASER = 1,
	SEATKIT_PEN_TOOL_BRUSH = 2,
	SEATKIT_PEN_TOOL_PENCIL = 3,
	SEATKIT_PEN_TOOL_AIRBRUSH = 4,
	SEATKIT_PEN_TOOL_MOUSE = 5,
	SEATKIT_PEN_TOOL_LENS = 6,
	SEATKIT_PEN_TOOL_TOTEM = 7,
};

/* Axes of a pen (bits): what a tool can report (`capabilities`) and what an event changed
 * (`changed`). */
enum seatkit_pen_axis {
	SEATKIT_PEN_AXIS_POSITION = 1 << 0,
	SEATKIT_PEN_AXIS_PRESSURE = 1 << 1,
	SEATKIT_PEN_AXIS_DISTANCE = 1 << 2,
	SEATKIT_PEN_AXIS_TILT = 1 << 3,
	SEATKIT_PEN_AXIS_ROTATION = 1 << 4,
	SEATKIT_PEN_AXIS_SLIDER = 1 << 5,
	SEATKIT_PEN_AXIS_WHEEL = 1 << 6,
};

/* Where a pen is in its life. */
enum seatkit_pen_phase {
	SEATKIT_PEN_PROXIMITY_IN = 0,
	SEATKIT_PEN_HOVER = 1,
	SEATKIT_PEN_DOWN = 2,
	SEATKIT_PEN_MOVED = 3,
	SEATKIT_PEN_UP = 4,
	SEATKIT_PEN_PROXIMITY_OUT = 5,
};

/* A pen (tablet tool) event. x, y: layout space; sx, sy: the target surface's space (the
 * surface hovered, or the one the stroke is bound to, where it may lie outside). Every axis
 * is given with every event; axes the tool lacks are 0. */
struct seatkit_pen_event {
	int64_t time_usec;
	uint32_t device;
	enum seatkit_pen_phase phase;
	enum seatkit_pen_tool_type tool_type;
	uint64_t tool_serial;
	/* enum seatkit_pen_axis bits. */
	uint32_t capabilities;
	uint32_t changed;
	double x, y, sx, sy;
	/* pressure and distance 0...1; tilt_x, tilt_y and rotation in degrees; slider -1...1;
	 * wheel in degrees (relative), wheel_discrete in detents. */
	double pressure, distance, tilt_x, tilt_y, rotation, slider, wheel;
	int32_t wheel_discrete;
	/* An up the router made up (the stroke's surface left the tree, a pen grab began). */
	bool cancelled;
};

/* A pen's button (BTN_STYLUS 0x14b, BTN_STYLUS2 0x14c, ...). Coordinates as above. */
struct seatkit_pen_button_event {
	int64_t time_usec;
	uint32_t device;
	enum seatkit_pen_tool_type tool_type;
	uint64_t tool_serial;
	uint32_t button;
	enum seatkit_button_state state;
	double x, y, sx, sy;
};

/* A tablet pad's layout, as its backend announced it (libinput's mode groups): how many
 * buttons, rings and strips, and per mode group its number of modes and the indices of the
 * buttons, rings and strips in it. Pointers valid only during the callback. */
struct seatkit_pad_group {
	uint32_t modes;
	size_t button_count;
	const uint32_t *buttons;
	size_t ring_count;
	const uint32_t *rings;
	size_t strip_count;
	const uint32_t *strips;
};

struct seatkit_pad_layout {
	uint32_t buttons, rings, strips;
	/* At least one: a pad announced without groups has one group of one mode with
	 * everything in it. */
	size_t group_count;
	const struct seatkit_pad_group *groups;
};

enum seatkit_pad_event_kind {
	SEATKIT_PAD_BUTTON = 0,
	SEATKIT_PAD_RING = 1,
	SEATKIT_PAD_STRIP = 2,
	/* A pad key (libinput's tablet-pad keys): tablet-v2 has no event for it. */
	SEATKIT_PAD_KEY = 3,
};

/* A tablet pad's button, ring, strip or key. Pads have no position and walk no chain. */
struct seatkit_pad_event {
	int64_t time_usec;
	uint32_t device;
	enum seatkit_pad_event_kind kind;
	/* The button's, ring's or strip's index on the pad; a key's evdev code. */
	uint32_t index;
	/* Button, key: 1 pressed, 0 released. Ring: degrees clockwise from the top (0 up to
	 * 360). Strip: 0 (top or left) to 1. Ring or strip -1: the finger left it (stop). */
	double value;
	/* A ring or strip moved by a finger (a stop follows when it lifts). */
	bool from_finger;
	/* The mode group of the button, ring or strip, and the group's mode now (0-based). */
	uint32_t group, mode;
};

/* keysym, base_keysym, text and modifiers come from the router's keymap
 * (seatkit_router_set_keymap); without one they are 0, "" and 0. */
struct seatkit_key_event {
	int64_t time_usec;
	uint32_t device;
	/* evdev code (KEY_A is 30); add 8 for an XKB keycode. */
	uint32_t keycode;
	enum seatkit_key_state state;
	uint32_t keysym;
	/* The keysym in the first layout with no modifiers: for layout-independent commands. */
	uint32_t base_keysym;
	/* UTF-8, NUL-terminated; "" for modifiers, function keys and releases. */
	const char *text;
	/* enum seatkit_modifier bits in effect for this key. */
	uint32_t modifiers;
	/* The serialized modifier state after this key, as wl_keyboard.modifiers carries it. */
	uint32_t mods_depressed, mods_latched, mods_locked, group;
};

/* Who is being asked. Valid only during the callback. */
struct seatkit_event_context {
	struct seatkit_router *router;
	/* The surface whose responder is asked; NULL when it is an output's or the delegate's. */
	struct seatkit_surface *surface;
	/* The output whose responder is asked; NULL otherwise. */
	struct seatkit_output *output;
	/* The surface the event was aimed at (hit-test surface, bound surface, pointer focus or
	 * first responder); NULL when there is none. */
	struct seatkit_surface *target;
};

/*
 * A responder: the handlers of one surface, output or the router's delegate. Every member
 * is optional: a NULL handler answers SEATKIT_NOT_HANDLED (or does nothing), so the router
 * moves the event on to the next responder. A responder that wants an event handled and
 * also seen further up returns SEATKIT_NOT_HANDLED.
 *
 * The library copies the table when it is set (later changes to your struct have no
 * effect; it need not outlive the call), reading only the members within its struct_size.
 * `data` is the user data given with it.
 */
struct seatkit_responder_interface {
	/* sizeof(this struct) as your program was compiled: set it, always (see "ABI"). */
	size_t struct_size;
	/* Touch. A touch goes to the surface it went down on until it ends or is cancelled;
	 * touches_cancelled reaches every responder that saw the touch. */
	enum seatkit_result (*touches_began)(void *data, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context);
	enum seatkit_result (*touches_moved)(void *data, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context);
	enum seatkit_result (*touches_ended)(void *data, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context);
	void (*touches_cancelled)(void *data, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context);

	/* Pointer. Enter and leave go to the focus surface only and always pair up. */
	void (*pointer_entered)(void *data, const struct seatkit_pointer_crossing_event *event,
		const struct seatkit_event_context *context);
	void (*pointer_left)(void *data, const struct seatkit_pointer_crossing_event *event,
		const struct seatkit_event_context *context);
	enum seatkit_result (*pointer_moved)(void *data,
		const struct seatkit_pointer_motion_event *event,
		const struct seatkit_event_context *context);
	enum seatkit_result (*pointer_button)(void *data,
		const struct seatkit_pointer_button_event *event,
		const struct seatkit_event_context *context);
	enum seatkit_result (*pointer_axis)(void *data, const struct seatkit_pointer_axis_event *event,
		const struct seatkit_event_context *context);
	enum seatkit_result (*touchpad_gesture)(void *data,
		const struct seatkit_touchpad_gesture_event *event,
		const struct seatkit_event_context *context);

	/* Keyboard: presses and repeats go to key_down, releases to key_up. */
	enum seatkit_result (*key_down)(void *data, const struct seatkit_key_event *event,
		const struct seatkit_event_context *context);
	enum seatkit_result (*key_up)(void *data, const struct seatkit_key_event *event,
		const struct seatkit_event_context *context);

	/* Focus. NULL can_become_first_responder: no (the surface never takes keyboard focus,
	 * as an on-screen keyboard's must not). NULL can_resign_first_responder: yes. */
	bool (*can_become_first_responder)(void *data);
	bool (*can_resign_first_responder)(void *data);
	void (*did_become_first_responder)(void *data, const struct seatkit_event_context *context);
	void (*did_resign_first_responder)(void *data, const struct seatkit_event_context *context);

	/* Actions (named, as UIKit's selectors). perform is called only after can_perform
	 * said yes. */
	bool (*can_perform)(void *data, const char *action);
	void (*perform)(void *data, const char *action, const struct seatkit_event_context *context);

	/* Narrows hit-testing of the surface: called only for points (surface space) already
	 * inside its bounds and input region; false refuses the point. NULL: accept. */
	bool (*refine_hit_test)(void *data, double sx, double sy);

	/* Pen (tablet tools); added after refine_hit_test: a table whose struct_size ends
	 * before these has them NULL. Hovering, a pen is like the pointer: pen_entered and
	 * pen_left go to the hovered surface only and pair up. The tip's down binds the stroke
	 * to that surface until the up, like a touch; pen_moved (hover or stroke, see `phase`),
	 * pen_down, pen_up and pen_button are asked up the chain (NULL: not handled, the next
	 * responder is asked). Through filters and pen grabs first. */
	void (*pen_entered)(void *data, const struct seatkit_pen_event *event,
		const struct seatkit_event_context *context);
	void (*pen_left)(void *data, const struct seatkit_pen_event *event,
		const struct seatkit_event_context *context);
	enum seatkit_result (*pen_moved)(void *data, const struct seatkit_pen_event *event,
		const struct seatkit_event_context *context);
	enum seatkit_result (*pen_down)(void *data, const struct seatkit_pen_event *event,
		const struct seatkit_event_context *context);
	enum seatkit_result (*pen_up)(void *data, const struct seatkit_pen_event *event,
		const struct seatkit_event_context *context);
	enum seatkit_result (*pen_button)(void *data, const struct seatkit_pen_button_event *event,
		const struct seatkit_event_context *context);
};

/* ------------------------------------------------------------------------------------ */
/* Router                                                                                */

/* A router for one seat on the compositor's event loop: its clock reads CLOCK_MONOTONIC and
 * its timers (long press, key repeat, double-tap windows) are wl_event_loop timers of
 * `loop`. The loop should outlive the router; if it ends first (wl_display_destroy before
 * seatkit_router_destroy, as in tinywl's teardown), the router's timers end with it and a
 * later seatkit_router_destroy is still safe. NULL loop: refused (NULL returned). */
struct seatkit_router *seatkit_router_create(struct wl_event_loop *loop);

/* A router on a virtual clock that starts at `start_usec` and moves only through
 * seatkit_router_advance_clock: for tests and replays, where every run must be the same. */
struct seatkit_router *seatkit_router_create_virtual(int64_t start_usec);

/* Moves a virtual clock to `time_usec`, firing due timers in deadline order. Time never
 * goes back. Refused (logged) on a router with an event-loop clock. */
void seatkit_router_advance_clock(struct seatkit_router *router, int64_t time_usec);

/* The router's clock, in microseconds. */
int64_t seatkit_router_get_time(struct seatkit_router *router);

/* wlroots' event time (time_msec: CLOCK_MONOTONIC in milliseconds, cut to 32 bits, so it
 * wraps every 49.7 days) on the router's clock, in microseconds: the moment within 24.8
 * days of the router's now whose milliseconds end in `msec`, wrap-around included. Use it
 * for every time a wlroots event hands over (0 for an invalid router, logged). */
int64_t seatkit_time_from_msec(struct seatkit_router *router, uint32_t msec);

/* Destroys the router and everything made on it (outputs, surfaces, recognizers, filters,
 * spies), each emitting its destroy signal first, then the router's. Pending timers are
 * removed from the event loop. */
void seatkit_router_destroy(struct seatkit_router *router);

/* Emitted (data: the router) when the router is destroyed. NULL for an invalid handle. */
struct wl_signal *seatkit_router_get_destroy_signal(struct seatkit_router *router);

/* The compositor delegate: the last responder of every chain, and the one who decides
 * what the router cannot decide alone. Every member is optional. */
struct seatkit_delegate_interface {
	/* sizeof(this struct) as your program was compiled: set it, always (see "ABI"). */
	size_t struct_size;
	/* Its own responder handlers, asked after every output's responder. May be NULL. */
	const struct seatkit_responder_interface *responder;
	/* Nobody handled an event; `kind` names the responder method
	 * ("touchesBegan", "keyDown", "action", ...). */
	void (*dropped)(void *data, const char *kind);
	/* The first responder's surface was removed from its tree: return the next first
	 * responder (or NULL for none). Asked first, before focus history. NULL member: the
	 * most recent former first responder that can take focus again, else the nearest
	 * attached ancestor, from `former_parent` up, that can become first responder. */
	struct seatkit_surface *(*first_responder_after_removing)(void *data,
		struct seatkit_surface *removed, struct seatkit_surface *former_parent);
	/* The union of the present devices' capabilities changed. */
	void (*capabilities_changed)(void *data, uint32_t capabilities);
	/* A device was added or removed, or a switch toggled (events that walk no chain). */
	void (*device_added)(void *data, uint32_t device, const struct seatkit_device_info *info);
	void (*device_removed)(void *data, uint32_t device);
	void (*switch_toggled)(void *data, uint32_t device, enum seatkit_switch which, bool on);
	/* Added after switch_toggled (a table whose struct_size ends before them has them NULL).
	 * A tablet pad appeared (told right after its device_added), with its layout. */
	void (*pad_added)(void *data, uint32_t device, const struct seatkit_pad_layout *layout);
	/* A pad's button, ring, strip or key, after the filters (one a filter consumed is not
	 * told; spies hear it as SEATKIT_INPUT_TABLET either way). No responder sees pads:
	 * the delegate gives them to the clients (seatkit_wlr_seat_notify_pad). */
	void (*pad_event)(void *data, const struct seatkit_pad_event *event);
};

/* Sets (or with NULL clears) the delegate. The table is not copied. */
void seatkit_router_set_delegate(struct seatkit_router *router,
	const struct seatkit_delegate_interface *impl, void *data);

/* The union of the present devices' capabilities (enum seatkit_device_capability bits). */
uint32_t seatkit_router_get_capabilities(struct seatkit_router *router);

/* The surface that input at a layout-space point goes to, ignoring grabs, bound touches and
 * recognizers: the topmost, deepest surface of the topmost output there; NULL if none. */
struct seatkit_surface *seatkit_router_surface_at(struct seatkit_router *router,
	double lx, double ly);

/* The pointer's position, layout space. */
void seatkit_router_get_pointer_location(struct seatkit_router *router, double *lx, double *ly);

/* The pointer focus surface, or NULL. */
struct seatkit_surface *seatkit_router_get_pointer_focus(struct seatkit_router *router);

/* Re-hit-tests under the pointer after the tree changed under it and sends leave and enter
 * as needed. Respects the implicit grab (does nothing while a button is held). */
void seatkit_router_refresh_pointer_focus(struct seatkit_router *router);

/* Tells each surface that moved under a touch still down (a window or subsurface moved, an
 * output moved) where the touch now is in its space: a touches_moved with the new
 * surface-local point, in a touch frame of its own. Call it after moving surfaces, as
 * seatkit_router_refresh_pointer_focus; the router also does it at the next touch frame. */
void seatkit_router_refresh_touch_locations(struct seatkit_router *router);

/* The surface a touch is bound to while it is down, or NULL. */
struct seatkit_surface *seatkit_router_get_touch_surface(struct seatkit_router *router,
	int32_t touch_id);

/* Cancels every active touch (bound to any surface): each responder that saw one gets
 * touches_cancelled; later events of those touches are ignored until their up. Goes
 * through no filter. */
void seatkit_router_cancel_touches(struct seatkit_router *router, const char *reason);

/* Cancels the active touches bound to `surface` or its subtree. */
void seatkit_router_cancel_touches_on_surface(struct seatkit_router *router,
	struct seatkit_surface *surface, const char *reason);

/* ------------------------------------------------------------------------------------ */
/* Injection (the compositor's own backend: wlr_backend input events, tests)              */
/* notify: through filters and spies, then the grab, recognizers and the responder chain. */
/* Events must arrive in time order, as the device produced them. `device` is any number  */
/* the compositor chooses per device, announced with notify_device_added.                 */

/* A finger touched down at a layout-space point (place a touchscreen's normalized
 * coordinates with seatkit_router_device_point_from_normalized: its mapping, calibration
 * and output transform). Grabs: a touch grab sees it first. */
void seatkit_router_notify_touch_down(struct seatkit_router *router, int64_t time_usec,
	uint32_t device, int32_t touch_id, double lx, double ly);
/* A finger moved to a layout-space point. */
void seatkit_router_notify_touch_motion(struct seatkit_router *router, int64_t time_usec,
	uint32_t device, int32_t touch_id, double lx, double ly);
void seatkit_router_notify_touch_up(struct seatkit_router *router, int64_t time_usec,
	uint32_t device, int32_t touch_id);
/* The device cancelled the touch (palm, device gone). */
void seatkit_router_notify_touch_cancel(struct seatkit_router *router, int64_t time_usec,
	uint32_t device, int32_t touch_id);
/* The end of a device frame: the changes since the last frame are delivered together. */
void seatkit_router_notify_touch_frame(struct seatkit_router *router, int64_t time_usec,
	uint32_t device);

/* Relative motion in logical units, accelerated and raw. The pointer stays inside the
 * layout. Grabs: the implicit grab (a held button) keeps the focus; a pointer grab sees
 * it first. */
void seatkit_router_notify_pointer_motion(struct seatkit_router *router, int64_t time_usec,
	uint32_t device, double dx, double dy, double dx_unaccel, double dy_unaccel);
/* Absolute motion to a layout-space point. */
void seatkit_router_notify_pointer_motion_absolute(struct seatkit_router *router,
	int64_t time_usec, uint32_t device, double lx, double ly);
/* A button (evdev code) changed state. A state other than 0 or 1 is refused (logged). */
void seatkit_router_notify_pointer_button(struct seatkit_router *router, int64_t time_usec,
	uint32_t device, uint32_t button, enum seatkit_button_state state);
/* Scrolling. NULL axis: refused (logged). */
void seatkit_router_notify_pointer_axis(struct seatkit_router *router, int64_t time_usec,
	uint32_t device, const struct seatkit_axis *axis);
/* A touchpad gesture event, delivered to the pointer focus after the recognizers. */
void seatkit_router_notify_touchpad_gesture(struct seatkit_router *router, int64_t time_usec,
	uint32_t device, const struct seatkit_touchpad_gesture *gesture);
/* A key (evdev code) changed state. The keymap (if any) sees every key, consumed or not,
 * so modifiers never drift; then filters, then the first responder and up its chain (key
 * commands matched on the way). Grabs: a keyboard grab sees it after the filters. */
void seatkit_router_notify_key(struct seatkit_router *router, int64_t time_usec,
	uint32_t device, uint32_t keycode, enum seatkit_key_state state);
/* A lid or tablet-mode switch: filters, spies, then the delegate's switch_toggled. */
void seatkit_router_notify_switch(struct seatkit_router *router, int64_t time_usec,
	uint32_t device, enum seatkit_switch which, bool on);
/* A tablet tool's event (layout space x, y; sx, sy and `cancelled` are ignored), as the
 * event's `phase` says: PROXIMITY_IN, PROXIMITY_OUT, DOWN, UP, or HOVER / MOVED for an
 * axis change (the router knows whether the tip is down). The tool is `tool_type` +
 * `tool_serial` on `device`; `capabilities` says which axes it has. Filters, spies, the pen
 * grab, then the pen routing (hover focus, the stroke bound to its surface) and the chain.
 * NULL event or an out-of-range type or phase: refused (logged). */
void seatkit_router_notify_pen(struct seatkit_router *router, const struct seatkit_pen_event *event);
/* A tablet tool's button (layout space x, y): filters, spies, the pen grab, then the chain
 * of the pen's target. NULL event: refused (logged). */
void seatkit_router_notify_pen_button(struct seatkit_router *router, const struct seatkit_pen_button_event *event);
/* A tablet pad's button, ring, strip or key (a backend that reads pads itself, such as
 * wlroots' own devices): filters, spies, then the delegate's pad_event. Announce the pad
 * with seatkit_router_notify_pad_added (one announced with notify_device_added has no
 * buttons, rings or strips). NULL event, a non-finite value or an out-of-range kind:
 * refused (logged). */
void seatkit_router_notify_pad(struct seatkit_router *router, const struct seatkit_pad_event *event);
/* A tablet pad appeared with its layout (as notify_device_added, with the tablet-pad
 * capability added): the delegate hears device_added, then pad_added. Group indices past
 * the pad's counts are dropped. NULL info or layout: refused (logged). */
void seatkit_router_notify_pad_added(struct seatkit_router *router, int64_t time_usec, uint32_t device,
	const struct seatkit_device_info *info, const struct seatkit_pad_layout *layout);
/* A device appeared, with its physical size. NULL info: refused (logged). */
void seatkit_router_notify_device_added(struct seatkit_router *router, int64_t time_usec,
	uint32_t device, const struct seatkit_device_info *info);
/* A device went away: its touches are cancelled. */
void seatkit_router_notify_device_removed(struct seatkit_router *router, int64_t time_usec,
	uint32_t device);

/* Raw: sends a key event to the first responder and up its chain, matching key commands
 * on the way. Bypasses the keymap, filters, spies and grabs: you probably want
 * seatkit_router_notify_key instead. event->text may be NULL. */
void seatkit_router_send_key(struct seatkit_router *router, const struct seatkit_key_event *event);

/* ------------------------------------------------------------------------------------ */
/* Outputs                                                                               */

/* Creates an output and places it in the router's layout at (lx, ly), layout space.
 * width, height: the mode in pixels, in the panel's native orientation; the logical size
 * is that after the transform, divided by the scale. A scale outside 1/16 ... 16 (<= 0,
 * NaN, infinite, 1e-300, 100) or a negative size is refused (NULL), logged. */
struct seatkit_output *seatkit_output_create(struct seatkit_router *router, const char *name,
	double lx, double ly, int32_t width, int32_t height,
	enum seatkit_output_transform transform, double scale);

/* Removes the output from the layout and destroys the handle: its surfaces stop receiving
 * input as if removed (touches cancelled, focus moved), but stay valid, detached. Its root
 * surface handle is destroyed with it. */
void seatkit_output_destroy(struct seatkit_output *output);
struct wl_signal *seatkit_output_get_destroy_signal(struct seatkit_output *output);

/* The root surface: it always covers the output's logical area; add the compositor's
 * surfaces under it. It cannot be destroyed or made anyone's child. */
struct seatkit_surface *seatkit_output_get_root(struct seatkit_output *output);

/* Layout space. */
void seatkit_output_set_position(struct seatkit_output *output, double lx, double ly);
/* Pixels, native orientation. Negative sizes are refused. */
void seatkit_output_set_mode(struct seatkit_output *output, int32_t width, int32_t height);
/* A value outside 0...7 is refused. */
void seatkit_output_set_transform(struct seatkit_output *output,
	enum seatkit_output_transform transform);
/* A scale outside 1/16 ... 16 (<= 0, NaN, infinite, 1e-300, 100) is refused, logged. */
void seatkit_output_set_scale(struct seatkit_output *output, double scale);
/* The output's area in layout space. */
bool seatkit_output_get_layout_box(struct seatkit_output *output, double *lx, double *ly,
	double *width, double *height);
/* Maps a point given as fractions (0...1) of the panel in its native orientation (what a
 * touchscreen mapped to this output reports) to layout space, applying the transform. */
bool seatkit_output_layout_point_from_normalized(struct seatkit_output *output, double u,
	double v, double *lx, double *ly);
/* The output's responder, between its root surface and the delegate. NULL impl: none. */
void seatkit_output_set_responder(struct seatkit_output *output,
	const struct seatkit_responder_interface *impl, void *data);
/* The output with this connector name, or NULL. */
struct seatkit_output *seatkit_router_get_output(struct seatkit_router *router,
	const char *name);

/* Devices to outputs, in one place: a touchscreen's, tablet's or absolute pointer's points
 * are placed by the router, on the output its mapping names, after its calibration and
 * through that output's transform (read at each point, so a rotated output is followed at
 * once), clamped once inside that output.
 *
 * Maps the devices named `device_name` (as announced with notify_device_added; NULL: every
 * device) to the output named `output_name` (NULL: the device's announced mapped_output,
 * such as udev's WL_OUTPUT) with `calibration`, libinput's 2x3 matrix a b c d e f applied to
 * the normalized point (x' = a x + b y + c, y' = d x + e y + f; NULL: none). A rule naming
 * the device wins over the one for every device; both win over mapped_output. NULL output
 * and NULL calibration remove the rule. Devices present are mapped again at once, devices
 * announced later when they come. A calibration that is not six finite numbers is refused
 * (false, logged). */
bool seatkit_router_map_device(struct seatkit_router *router, const char *device_name,
	const char *output_name, const double calibration[6]);
/* Added with pens (issue 27): seatkit_router_map_device with a region and a rotation. The
 * devices named `device_name` (NULL: every device) cover `region` (layout space: x, y, width,
 * height; NULL: the output as above) instead of an output, their points clamped inside it
 * and hit-tested where they land; `rotation_degrees` (0, 90, 180 or 270, clockwise; a
 * multiple of 360 added is the same) turns the device's area after `calibration` (a tablet
 * used rotated, or left-handed at 180). NULL output, region and calibration with rotation 0
 * remove the rule. Another rotation, a region not four finite numbers or not positive in
 * size, or a calibration not six finite numbers: refused (false, logged). */
bool seatkit_router_map_device_area(struct seatkit_router *router, const char *device_name,
	const char *output_name, const double region[4], int rotation_degrees,
	const double calibration[6]);
/* Places a device's normalized point (0...1 of its area, in the panel's native orientation,
 * as wlroots' and libinput's absolute events report it) in layout space, as above: on its
 * mapped output; unmapped, a touchscreen or tablet (or a device never announced) on the
 * layout's first output, a pointer on the whole layout (as wlr_cursor). No event is
 * routed: pass the point to notify_touch_down, notify_touch_motion or
 * notify_pointer_motion_absolute. Not finite: false, logged. */
bool seatkit_router_device_point_from_normalized(struct seatkit_router *router, uint32_t device,
	double x, double y, double *lx, double *ly);
/* The output a device's points land on (see above), or NULL (an unmapped pointer, no
 * outputs). */
struct seatkit_output *seatkit_router_get_device_output(struct seatkit_router *router,
	uint32_t device);

/* ------------------------------------------------------------------------------------ */
/* Surfaces                                                                              */

struct seatkit_rect {
	double x, y, width, height;
};

/* Creates a detached surface with a frame in its future parent's surface space, and no
 * responder (events walk on to the parent). A non-finite or negative frame is refused. */
struct seatkit_surface *seatkit_surface_create(struct seatkit_router *router, const char *name,
	double x, double y, double width, double height);

/* Removes the surface from its parent (as seatkit_surface_remove_from_parent), detaches its
 * children (their handles stay valid) and recognizers, emits the destroy signal and ends the
 * handle. Safe from inside a callback of this surface's responder. An output's root surface
 * is refused. */
void seatkit_surface_destroy(struct seatkit_surface *surface);
struct wl_signal *seatkit_surface_get_destroy_signal(struct seatkit_surface *surface);

/* Sets the responder: the handlers for this surface's input. NULL impl: none (events walk
 * on to the parent). The table is not copied. */
void seatkit_surface_set_responder(struct seatkit_surface *surface,
	const struct seatkit_responder_interface *impl, void *data);
void *seatkit_surface_get_responder_data(struct seatkit_surface *surface);

/* Adds `child` on top of `parent`'s children, first taking it from any parent. A cycle, an
 * output's root or a surface of another router is refused. */
bool seatkit_surface_add_child(struct seatkit_surface *parent, struct seatkit_surface *child);
/* Inserts at `index` (0: the back; past the end: the top). */
bool seatkit_surface_insert_child(struct seatkit_surface *parent, struct seatkit_surface *child,
	size_t index);
/* Stacking: moves the surface to the top of its siblings. */
void seatkit_surface_raise_to_top(struct seatkit_surface *surface);
/* Removes the surface and its subtree from the tree: touches bound to it are cancelled,
 * pointer focus inside it is cleared, keyboard focus moves by the delegate's rule. Safe
 * from inside a callback. */
void seatkit_surface_remove_from_parent(struct seatkit_surface *surface);
struct seatkit_surface *seatkit_surface_get_parent(struct seatkit_surface *surface);
/* True while the surface is in an output's tree (it receives input only then). */
bool seatkit_surface_is_attached(struct seatkit_surface *surface);
/* A number unique for the life of the process, as traces show it ("#12"). */
uint32_t seatkit_surface_get_id(struct seatkit_surface *surface);

/* Position and size in the parent's surface space (moves and resizes). */
void seatkit_surface_set_frame(struct seatkit_surface *surface, double x, double y,
	double width, double height);
bool seatkit_surface_get_frame(struct seatkit_surface *surface, struct seatkit_rect *frame);
/* Surface-space rectangles that accept input, clipped to the surface's bounds. count 0: no
 * input at all. */
void seatkit_surface_set_input_region(struct seatkit_surface *surface,
	const struct seatkit_rect *rects, size_t count);
/* Input everywhere on the surface (Wayland's infinite input region): the default. */
void seatkit_surface_clear_input_region(struct seatkit_surface *surface);
/* A hidden or input-disabled surface and its whole subtree are skipped by hit-testing. */
void seatkit_surface_set_hidden(struct seatkit_surface *surface, bool hidden);
void seatkit_surface_set_input_disabled(struct seatkit_surface *surface, bool disabled);
/* UIKit's rule: parts of children outside this surface's bounds cannot be hit. Off by
 * default (Wayland subsurfaces may stick out of their parent). */
void seatkit_surface_set_clips_children(struct seatkit_surface *surface, bool clips);
/* Layout space -> this surface's space; false when detached. */
bool seatkit_surface_layout_to_local(struct seatkit_surface *surface, double lx, double ly,
	double *sx, double *sy);

/* Key commands: when a key press walking the chain reaches this surface's responder and
 * matches (keysym, and exactly the Shift/Ctrl/Alt/Logo/AltGr `modifiers`; Latin letters
 * without case), the router performs `action` on it (its perform callback, no can_perform)
 * instead of calling key_down, and swallows the key's release. layout_independent: compare
 * the keysym of the first layout with no modifiers. */
bool seatkit_surface_add_key_command(struct seatkit_surface *surface, uint32_t keysym,
	uint32_t modifiers, const char *action, bool layout_independent);
void seatkit_surface_clear_key_commands(struct seatkit_surface *surface);

/* ------------------------------------------------------------------------------------ */
/* Keyboard focus and actions                                                            */

/* Makes the surface's responder the first responder (keys go to it first). False when the
 * surface is detached, its responder cannot become first responder, or the current one
 * refuses to resign. */
bool seatkit_router_set_first_responder(struct seatkit_router *router,
	struct seatkit_surface *surface);
/* Clears the first responder if it agrees to resign; keys then go to the delegate. */
bool seatkit_router_resign_first_responder(struct seatkit_router *router);
struct seatkit_surface *seatkit_router_get_first_responder(struct seatkit_router *router);

/* Sends a named action. With a target, to that surface's responder; with NULL, up the
 * chain from the first responder to the first responder that can perform it. True when
 * someone performed it. Goes through no filter or grab. */
bool seatkit_router_send_action(struct seatkit_router *router, const char *action,
	struct seatkit_surface *target);

/* ------------------------------------------------------------------------------------ */
/* Keymaps (xkbcommon)                                                                   */

/* A keymap from RMLVO names; NULL members take the defaults (evdev, pc105, us, "", "").
 * NULL on failure, with xkbcommon's reason logged. */
struct seatkit_keymap *seatkit_keymap_create_from_names(const char *rules, const char *model,
	const char *layout, const char *variant, const char *options);
/* A keymap from its text (XKB_KEYMAP_FORMAT_TEXT_V1). NULL on failure, logged. */
struct seatkit_keymap *seatkit_keymap_create_from_string(const char *text);
/* A router using the keymap keeps it alive; the handle ends here. */
void seatkit_keymap_destroy(struct seatkit_keymap *keymap);
/* The keymap's text, for clients (wlr_keyboard_set_keymap takes the same names). Valid
 * while the handle lives. */
const char *seatkit_keymap_get_string(struct seatkit_keymap *keymap);
/* The keysym named `name` ("a", "Return", "XF86AudioMute"), or 0. */
uint32_t seatkit_keysym_from_name(const char *name);

/* Interprets keys with `keymap` (keysyms, text, modifiers, compose off) and generates
 * repeats from the router's clock at `rate` per second after `delay_ms` (rate 0: none).
 * NULL keymap: keys carry keycodes only. */
void seatkit_router_set_keymap(struct seatkit_router *router, struct seatkit_keymap *keymap,
	int32_t repeat_rate, int32_t repeat_delay_ms);
/* The modifiers in effect (enum seatkit_modifier bits); 0 without a keymap. */
uint32_t seatkit_router_get_modifiers(struct seatkit_router *router);

/* ------------------------------------------------------------------------------------ */
/* Filters and spies                                                                     */

enum seatkit_input_event_type {
	SEATKIT_INPUT_TOUCH_DOWN = 0,
	SEATKIT_INPUT_TOUCH_MOTION = 1,
	SEATKIT_INPUT_TOUCH_UP = 2,
	SEATKIT_INPUT_TOUCH_CANCEL = 3,
	SEATKIT_INPUT_TOUCH_FRAME = 4,
	SEATKIT_INPUT_POINTER_MOTION = 5,
	SEATKIT_INPUT_POINTER_MOTION_ABSOLUTE = 6,
	SEATKIT_INPUT_POINTER_BUTTON = 7,
	SEATKIT_INPUT_POINTER_AXIS = 8,
	SEATKIT_INPUT_TOUCHPAD_GESTURE = 9,
	SEATKIT_INPUT_KEY = 10,
	SEATKIT_INPUT_SWITCH = 11,
	SEATKIT_INPUT_TABLET = 12,
	SEATKIT_INPUT_DEVICE_ADDED = 13,
	SEATKIT_INPUT_DEVICE_REMOVED = 14,
	/* An event of a kind this version does not know; `code` is libinput's event type. */
	SEATKIT_INPUT_UNKNOWN = 15,
};

/* An event as it enters the router. Members that the type does not use are 0. */
struct seatkit_input_event {
	enum seatkit_input_event_type type;
	int64_t time_usec;
	uint32_t device;
	/* Touch events. */
	int32_t touch_id;
	/* Touch down and motion, absolute pointer motion: layout space. */
	double x, y;
	/* Relative pointer motion. */
	double dx, dy, dx_unaccel, dy_unaccel;
	/* Button, keycode (evdev) or switch. */
	uint32_t code;
	/* Button or key state, switch on (1) or off (0). */
	uint32_t state;
	/* Set for SEATKIT_INPUT_POINTER_AXIS, SEATKIT_INPUT_TOUCHPAD_GESTURE and
	 * SEATKIT_INPUT_DEVICE_ADDED. */
	const struct seatkit_axis *axis;
	const struct seatkit_touchpad_gesture *gesture;
	const struct seatkit_device_info *device_info;
};

enum seatkit_filter_decision {
	/* Let the event go on to the next filter and then to routing. */
	SEATKIT_FILTER_PASS = 0,
	/* Take it: no later filter, recognizer or responder sees it. Taking a key press takes
	 * its repeats and release; taking a touch down takes the whole touch. */
	SEATKIT_FILTER_CONSUME = 1,
};

/* Compositor-wide policy before routing: a lock screen, a global shortcut, the touch that
 * wakes the screen. Both members optional. */
struct seatkit_filter_interface {
	/* sizeof(this struct) as your program was compiled: set it, always (see "ABI"). */
	size_t struct_size;
	/* Events as they enter the router (keys before the keymap): touch down, motion, up and
	 * cancel, pointer, axis, touchpad gesture, key, switch and tablet events. Not asked:
	 * touch frames, device added or removed, malformed events (a non-finite point, a touch
	 * ID already down), the releases of keys and buttons whose presses were taken, key
	 * repeats sent through seatkit_router_send_key, and what a grab forwards. */
	enum seatkit_filter_decision (*filter)(void *data, const struct seatkit_input_event *event);
	/* Key presses and repeats after the keymap filled in keysym, text and modifiers: where
	 * global shortcuts belong. */
	enum seatkit_filter_decision (*filter_key)(void *data, const struct seatkit_key_event *event);
};

/* Adds a filter after the existing ones; the first to consume wins. */
struct seatkit_filter *seatkit_router_add_filter(struct seatkit_router *router,
	const struct seatkit_filter_interface *impl, void *data);
/* Removes the filter from its router and ends the handle. */
void seatkit_filter_destroy(struct seatkit_filter *filter);

/* Sees the events filters see, consumed by a filter or not, plus touch frames, device
 * announcements and malformed events; not key repeats sent through
 * seatkit_router_send_key, nor what a grab forwards. Cannot change their routing (idle
 * tracking, on-screen display of keys). */
typedef void (*seatkit_spy_func_t)(void *data, const struct seatkit_input_event *event,
	bool consumed);
struct seatkit_spy *seatkit_router_add_spy(struct seatkit_router *router,
	seatkit_spy_func_t observe, void *data);
/* The bit of one seatkit_input_event_type in a spy's kinds, e.g.
 * SEATKIT_INPUT_KIND(SEATKIT_INPUT_TOUCH_DOWN) | SEATKIT_INPUT_KIND(SEATKIT_INPUT_KEY). */
#define SEATKIT_INPUT_KIND(type) (UINT32_C(1) << (type))
/* Every type, those a later version adds included: what seatkit_router_add_spy observes. */
#define SEATKIT_INPUT_KINDS_ALL UINT32_MAX
/* seatkit_router_add_spy, told only the events whose type's bit (SEATKIT_INPUT_KIND) is in
 * `kinds`, read now (add another spy to change them). An event no spy wants costs the router
 * one test; a spy of all kinds keeps every touch motion on the router's longer path, so an
 * idle or cursor spy should ask only for what it acts on. Bits of types this library does
 * not know are ignored (it makes no such events); 0 observes nothing; SEATKIT_INPUT_KINDS_ALL
 * is seatkit_router_add_spy. Added after seatkit_router_add_spy (a program that calls it
 * needs a library that has it: libseatkit.so.0 of this header or later). */
struct seatkit_spy *seatkit_router_add_spy_for_kinds(struct seatkit_router *router,
	uint32_t kinds, seatkit_spy_func_t observe, void *data);
void seatkit_spy_destroy(struct seatkit_spy *spy);
/* The kinds an idle spy observes to see all of someone's activity, for
 * seatkit_router_add_spy_for_kinds. Every touch down, motion and up ends in a
 * SEATKIT_INPUT_TOUCH_FRAME, which SeatKit tells spies whatever a filter did with the touch
 * (libinput's frame, wlr_touch's `frame` through the bridge, a replay's frames): the frame
 * stands for the motions and ups of its device frame, so a finger held and moving counts as
 * activity as before, and the down is observed for itself (a touch a wake filter swallows).
 * Pointer motion, buttons and scrolling, touchpad gestures, keys, switches, tablet tools and
 * pads (SEATKIT_INPUT_TABLET) and events of no known type have no frame and are observed
 * each. Not observed: touch motion, up and cancel (their frame is; a cancel is nobody's
 * doing), device added and removed (a device plugged in or out is not someone using it). A
 * spy of every kind would put each touch motion on the router's longer path, its event made
 * for the spy alone; one of these kinds leaves motions to the record-only path. The
 * ext-idle-notify-v1 bridge (seatkit-wlroots.h) observes these. */
#define SEATKIT_INPUT_KINDS_ACTIVITY \
	(SEATKIT_INPUT_KIND(SEATKIT_INPUT_TOUCH_DOWN) | SEATKIT_INPUT_KIND(SEATKIT_INPUT_TOUCH_FRAME) \
	| SEATKIT_INPUT_KIND(SEATKIT_INPUT_POINTER_MOTION) | SEATKIT_INPUT_KIND(SEATKIT_INPUT_POINTER_MOTION_ABSOLUTE) \
	| SEATKIT_INPUT_KIND(SEATKIT_INPUT_POINTER_BUTTON) | SEATKIT_INPUT_KIND(SEATKIT_INPUT_POINTER_AXIS) \
	| SEATKIT_INPUT_KIND(SEATKIT_INPUT_TOUCHPAD_GESTURE) | SEATKIT_INPUT_KIND(SEATKIT_INPUT_KEY) \
	| SEATKIT_INPUT_KIND(SEATKIT_INPUT_SWITCH) | SEATKIT_INPUT_KIND(SEATKIT_INPUT_TABLET) \
	| SEATKIT_INPUT_KIND(SEATKIT_INPUT_UNKNOWN))

/* ------------------------------------------------------------------------------------ */
/* Grabs (as wlr_seat's): who gets a device class's input instead of the default rule     */
/*                                                                                       */
/*   notify_* -> filters, spies -> the grab of the event's class, if one is active        */
/*                                  | a NULL handler forwards through:                   */
/*                                  +-> route_*: recognizers, hit-test or focus, chain     */
/*   send_*   -> raw: one surface's chain; no filter, grab or recognizer                   */
/*                                                                                       */
/* A grab sees events after the filters. Starting a grab ends what the old target had:    */
/* a pointer grab gives the focus surface a cancelled release of each held button and     */
/* pointer_left (focus is then the grab's to set with seatkit_router_set_pointer_focus);  */
/* a touch grab cancels every touch routed so far; a keyboard grab gives the first        */
/* responder a cancelled release of each held key. Ending one (or starting another of the */
/* same class) calls its cancel handler; ending a touch grab cancels the touches routed   */
/* while it was active. Removing a surface ends no grab of yours (a grab that cares       */
/* watches the surface's destroy signal); destroying a popup grab's popup dismisses it.   */

struct seatkit_grab;

/* Every member optional: NULL forwards the event through the route door below (the
 * router's default rule), so a grab implements only what it takes. Events and their
 * pointers are valid only during the call. Pointer events: x, y layout space, sx, sy in
 * the current pointer focus's space (0 without one). A handler that does not forward a
 * press should also swallow its release. */
struct seatkit_grab_interface {
	/* sizeof(this struct) as your program was compiled: set it, always (see "ABI"). */
	size_t struct_size;
	void (*pointer_motion)(void *data, struct seatkit_grab *grab,
		const struct seatkit_pointer_motion_event *event);
	void (*pointer_button)(void *data, struct seatkit_grab *grab,
		const struct seatkit_pointer_button_event *event);
	void (*pointer_axis)(void *data, struct seatkit_grab *grab,
		const struct seatkit_pointer_axis_event *event);
	void (*touchpad_gesture)(void *data, struct seatkit_grab *grab,
		const struct seatkit_touchpad_gesture_event *event);
	/* Touch: each event of the device as notify_touch_* gave it (layout space). A touch
	 * down not forwarded belongs to the grab: no responder sees any of it. A grab that
	 * forwards touches must forward frames too. */
	void (*touch_down)(void *data, struct seatkit_grab *grab,
		const struct seatkit_input_event *event);
	void (*touch_motion)(void *data, struct seatkit_grab *grab,
		const struct seatkit_input_event *event);
	void (*touch_up)(void *data, struct seatkit_grab *grab,
		const struct seatkit_input_event *event);
	void (*touch_cancel)(void *data, struct seatkit_grab *grab,
		const struct seatkit_input_event *event);
	void (*touch_frame)(void *data, struct seatkit_grab *grab,
		const struct seatkit_input_event *event);
	/* Keys after the filters and the keymap (keysym, text, modifiers filled in). NULL:
	 * seatkit_router_send_key's delivery (first responder, key commands). */
	void (*key)(void *data, struct seatkit_grab *grab, const struct seatkit_key_event *event);
	/* The grab ended (end_*_grab, end_grab, another grab of the same class started, the
	 * grab destroyed): once per start, after the router stopped sending it events. */
	void (*cancel)(void *data, struct seatkit_grab *grab);
};

/* A grab made of C handlers; it acts once started. The table is not copied. NULL impl:
 * refused. The router's destroy destroys its grabs. */
struct seatkit_grab *seatkit_grab_create(struct seatkit_router *router,
	const struct seatkit_grab_interface *impl, void *data);
/* Ends whatever the grab holds (its cancel runs first), emits the destroy signal, ends the
 * handle. */
void seatkit_grab_destroy(struct seatkit_grab *grab);
struct wl_signal *seatkit_grab_get_destroy_signal(struct seatkit_grab *grab);

/* Start a grab for one device class; a grab active for it is ended first. One grab may
 * hold several classes (a lock screen: all three). False for an invalid handle, a grab of
 * another router, or a popup grab given to the keyboard. */
bool seatkit_router_start_pointer_grab(struct seatkit_router *router, struct seatkit_grab *grab);
bool seatkit_router_start_touch_grab(struct seatkit_router *router, struct seatkit_grab *grab);
bool seatkit_router_start_keyboard_grab(struct seatkit_router *router, struct seatkit_grab *grab);
/* What a keyboard grab does to the first responder when it starts (Smithay's Focus::Keep
 * and Focus::Clear). KEEP (what start_keyboard_grab does): the first responder stays, and
 * hears a cancelled release (key_up) of each held key it saw pressed, which a client must be
 * sent as a release. CLEAR: it hears those releases, then resigns (a client is sent leave,
 * which ends its keys) whether or not it agrees, and gets focus back when the grab ends
 * unless one was set meanwhile. Either way no responder hears the release of a key whose
 * press it did not see, however the grab ends. */
enum seatkit_keyboard_grab_focus {
	SEATKIT_KEYBOARD_GRAB_KEEP_FOCUS = 0,
	SEATKIT_KEYBOARD_GRAB_CLEAR_FOCUS = 1,
};
/* start_keyboard_grab with a focus mode; an out-of-range mode: refused (false, logged). */
bool seatkit_router_start_keyboard_grab_with_focus(struct seatkit_router *router,
	struct seatkit_grab *grab, enum seatkit_keyboard_grab_focus focus);
/* End the class's grab, if any. The pointer focus follows the default rule again (at the
 * last release if a button is held). */
void seatkit_router_end_pointer_grab(struct seatkit_router *router);
void seatkit_router_end_touch_grab(struct seatkit_router *router);
void seatkit_router_end_keyboard_grab(struct seatkit_router *router);
/* Ends every class `grab` holds. */
void seatkit_router_end_grab(struct seatkit_router *router, struct seatkit_grab *grab);
/* The active grab of a class if it is one made here, else NULL. */
struct seatkit_grab *seatkit_router_get_pointer_grab(struct seatkit_router *router);
struct seatkit_grab *seatkit_router_get_touch_grab(struct seatkit_router *router);
struct seatkit_grab *seatkit_router_get_keyboard_grab(struct seatkit_router *router);

/* A popup's grab (xdg_popup.grab), started for pointer and touch at once: input reaches
 * `popup` and its descendants only; a button press or a touch down anywhere else dismisses
 * it and is not delivered (nor its release, nor the rest of that touch). Keys go on to the
 * first responder. `dismiss` runs once, when a press lands outside or the grab is ended,
 * replaced or destroyed or the popup surface (or an ancestor) is destroyed, and should
 * close the popup; the grab handle is destroyed right after it returns. NULL dismiss: allowed. Returns the grab (for end_grab), or NULL. */
struct seatkit_grab *seatkit_router_start_popup_grab(struct seatkit_router *router,
	struct seatkit_surface *popup, void (*dismiss)(void *data, struct seatkit_grab *grab),
	void *data);
/* A popup grab nested in `parent` (a popup grab of this router): if `parent` is the
 * innermost popup grab active, the new one stacks on it as xdg_popup grabs do (the parent is
 * not dismissed; input reaches either popup; a press outside every popup of the chain
 * dismisses the chain, innermost first; ending a grab dismisses those nested in it first,
 * and its parent takes the pointer and touch back). Otherwise as start_popup_grab. A popup
 * grab also ends when its popup leaves the layout. NULL parent: start_popup_grab. */
struct seatkit_grab *seatkit_router_start_nested_popup_grab(struct seatkit_router *router,
	struct seatkit_surface *popup, struct seatkit_grab *parent,
	void (*dismiss)(void *data, struct seatkit_grab *grab), void *data);
/* A popup shown on several outputs (an app spanning them has a surface on each output's
 * tree, all delivering to one client surface; so has its popup): one grab over `popup` and
 * its `count` parts, the popup's surfaces on the other outputs. Input on any of them or
 * their descendants reaches it; a press or touch down outside all of them dismisses it, as
 * on one output. Only `popup` leaving the layout dismisses it (a part removed just stops
 * taking input). `parent`: as start_nested_popup_grab (NULL: none). A part that is not a
 * surface of this router, or is an output's root: refused (NULL, logged). */
struct seatkit_grab *seatkit_router_start_popup_grab_with_parts(struct seatkit_router *router,
	struct seatkit_surface *popup, struct seatkit_surface *const *parts, size_t count,
	struct seatkit_grab *parent, void (*dismiss)(void *data, struct seatkit_grab *grab), void *data);

/* The route door: what a grab calls to forward an event it was given, unchanged or
 * edited. The router's default rule alone (no filter, no grab): recognizers, hit-testing
 * (pointer focus, touch binding) and the responder chain. x, y: layout space; sx, sy are
 * ignored (recomputed). An out-of-range state or a non-finite value: dropped (logged). */
void seatkit_router_route_pointer_motion(struct seatkit_router *router,
	const struct seatkit_pointer_motion_event *event);
void seatkit_router_route_pointer_button(struct seatkit_router *router,
	const struct seatkit_pointer_button_event *event);
void seatkit_router_route_pointer_axis(struct seatkit_router *router,
	const struct seatkit_pointer_axis_event *event);
void seatkit_router_route_touchpad_gesture(struct seatkit_router *router,
	const struct seatkit_touchpad_gesture_event *event);
/* A touch event as a grab's touch handler got it (SEATKIT_INPUT_TOUCH_*); other types are
 * refused. A motion, up or cancel is ignored unless the router routed that touch's down. */
void seatkit_router_route_touch(struct seatkit_router *router,
	const struct seatkit_input_event *event);
/* (Keys: seatkit_router_send_key is the keyboard's route door.) */

/* The raw door: sends a pointer event up `surface`'s chain (the delegate's alone when
 * NULL), sx, sy recomputed for it. No filter, grab, recognizer or focus change: you
 * probably want seatkit_router_notify_* instead. Returns whether a responder handled it. */
bool seatkit_router_send_pointer_motion(struct seatkit_router *router,
	const struct seatkit_pointer_motion_event *event, struct seatkit_surface *surface);
bool seatkit_router_send_pointer_button(struct seatkit_router *router,
	const struct seatkit_pointer_button_event *event, struct seatkit_surface *surface);
bool seatkit_router_send_pointer_axis(struct seatkit_router *router,
	const struct seatkit_pointer_axis_event *event, struct seatkit_surface *surface);

/* Moves the pointer focus to `surface` (NULL: none), sending left and entered: what a
 * pointer grab does. Goes through no filter or grab; without a grab the next motion
 * re-hit-tests. */
bool seatkit_router_set_pointer_focus(struct seatkit_router *router,
	struct seatkit_surface *surface, int64_t time_usec);

/* ------------------------------------------------------------------------------------ */
/* Kiosk policies: behaviours that are input routing, built in (the same components the   */
/* Swift kiosk uses: WakeTouchFilter, CursorVisibility, LongPressAsSecondaryClick).        */

struct seatkit_kiosk_policy;

/* A filter (added after the existing ones: add it first) that swallows the input that
 * wakes a blanked screen: the whole waking touch (every finger down before the last lifts),
 * or the pointer motion, button or key that woke it. Nothing of it reaches grabs,
 * recognizers or responders. Call seatkit_kiosk_policy_blank when the screen blanks;
 * `on_wake` (may be NULL) runs once per wake, before the waking event is swallowed. */
struct seatkit_kiosk_policy *seatkit_router_add_wake_filter(struct seatkit_router *router,
	void (*on_wake)(void *data), void *data);
/* The screen went blank: the next input wakes it. False for another kind of policy. */
bool seatkit_kiosk_policy_blank(struct seatkit_kiosk_policy *policy);
bool seatkit_kiosk_policy_is_blanked(struct seatkit_kiosk_policy *policy);

/* A spy: `changed(data, false)` when a finger touches down, `changed(data, true)` when a
 * real pointer moves, clicks or scrolls again (not the long-press click below). Starts
 * visible. NULL changed: refused. */
struct seatkit_kiosk_policy *seatkit_router_add_cursor_visibility(struct seatkit_router *router,
	void (*changed)(void *data, bool visible), void *data);
bool seatkit_kiosk_policy_cursor_is_visible(struct seatkit_kiosk_policy *policy);

/* A long press anywhere on `output` (one finger held `min_duration_usec`, moving less than
 * `allowable_movement_mm` millimetres) becomes a secondary click: the app's touch is
 * cancelled, then the pointer moves to the finger and BTN_RIGHT is pressed and released
 * there, injected through notify's door from a synthetic device (0x5EA7C11C), so the app
 * gets pointer enter, motion and the click. `clicked` (may be NULL): after each click, with
 * its layout-space point. Duration <= 0 or a negative or non-finite movement: refused. */
struct seatkit_kiosk_policy *seatkit_output_add_long_press_secondary_click(
	struct seatkit_output *output, int64_t min_duration_usec, double allowable_movement_mm,
	void (*clicked)(void *data, double lx, double ly), void *data);

/* Removes the policy from its router and ends the handle. The router's destroy destroys
 * its policies. */
void seatkit_kiosk_policy_destroy(struct seatkit_kiosk_policy *policy);

/* ------------------------------------------------------------------------------------ */
/* Gesture recognizers                                                                   */
/* Recognizers attached to a surface see the touches of its subtree (touchpad gestures    */
/* while the pointer focus is in it) before its responders; an output's see every touch  */
/* on it. Distances are in millimetres of the touch device (its physical size from        */
/* notify_device_added; 96 dpi when unknown); locations in layout space.                  */

enum seatkit_recognizer_state {
	SEATKIT_RECOGNIZER_POSSIBLE = 0,
	SEATKIT_RECOGNIZER_BEGAN = 1,
	SEATKIT_RECOGNIZER_CHANGED = 2,
	SEATKIT_RECOGNIZER_ENDED = 3,
	SEATKIT_RECOGNIZER_CANCELLED = 4,
	SEATKIT_RECOGNIZER_FAILED = 5,
	/* A discrete gesture (tap, swipe) happened. */
	SEATKIT_RECOGNIZER_RECOGNIZED = 6,
};

enum seatkit_swipe_direction {
	SEATKIT_SWIPE_RIGHT = 1 << 0,
	SEATKIT_SWIPE_LEFT = 1 << 1,
	SEATKIT_SWIPE_UP = 1 << 2,
	SEATKIT_SWIPE_DOWN = 1 << 3,
};

enum seatkit_edge {
	SEATKIT_EDGE_LEFT = 1 << 0,
	SEATKIT_EDGE_RIGHT = 1 << 1,
	SEATKIT_EDGE_TOP = 1 << 2,
	SEATKIT_EDGE_BOTTOM = 1 << 3,
};

/* The built-in recognizers, detached. A count of 0 (or above 64) is refused (NULL), except
 * the pan's maximum_touches, where 0 means no maximum. */
struct seatkit_recognizer *seatkit_recognizer_create_tap(struct seatkit_router *router,
	const char *name, uint32_t taps, uint32_t touches);
struct seatkit_recognizer *seatkit_recognizer_create_long_press(struct seatkit_router *router,
	const char *name, int64_t minimum_duration_usec, uint32_t touches);
struct seatkit_recognizer *seatkit_recognizer_create_pan(struct seatkit_router *router,
	const char *name, uint32_t minimum_touches, uint32_t maximum_touches);
struct seatkit_recognizer *seatkit_recognizer_create_swipe(struct seatkit_router *router,
	const char *name, uint32_t directions, uint32_t touches);
struct seatkit_recognizer *seatkit_recognizer_create_pinch(struct seatkit_router *router,
	const char *name);
struct seatkit_recognizer *seatkit_recognizer_create_rotation(struct seatkit_router *router,
	const char *name);
struct seatkit_recognizer *seatkit_recognizer_create_screen_edge_pan(
	struct seatkit_router *router, const char *name, uint32_t edges);
struct seatkit_recognizer *seatkit_recognizer_create_touchpad_swipe(
	struct seatkit_router *router, const char *name, uint32_t fingers);
struct seatkit_recognizer *seatkit_recognizer_create_touchpad_pinch(
	struct seatkit_router *router, const char *name, uint32_t minimum_fingers);
struct seatkit_recognizer *seatkit_recognizer_create_touchpad_hold(
	struct seatkit_router *router, const char *name, uint32_t fingers,
	int64_t minimum_duration_usec);

/* Detaches the recognizer (one in progress is cancelled), emits the destroy signal and ends
 * the handle. Safe from inside its own callback. */
void seatkit_recognizer_destroy(struct seatkit_recognizer *recognizer);
struct wl_signal *seatkit_recognizer_get_destroy_signal(struct seatkit_recognizer *recognizer);

/* Attaches to a surface or, as a global recognizer, to an output; first detaching it. */
bool seatkit_surface_add_recognizer(struct seatkit_surface *surface,
	struct seatkit_recognizer *recognizer);
bool seatkit_output_add_recognizer(struct seatkit_output *output,
	struct seatkit_recognizer *recognizer);
void seatkit_recognizer_detach(struct seatkit_recognizer *recognizer);

/* Called after every state change (the router's resets to possible excepted). */
typedef void (*seatkit_recognizer_func_t)(void *data, struct seatkit_recognizer *recognizer,
	enum seatkit_recognizer_state state);
void seatkit_recognizer_set_callback(struct seatkit_recognizer *recognizer,
	seatkit_recognizer_func_t callback, void *data);

/* Coordination. require_to_fail: `recognizer` is recognized only once `other` failed, and
 * fails if `other` is recognized; a requirement that would close a cycle (a recognizer
 * waiting for itself, directly or through others) is refused: false and a log line.
 * simultaneous: the two may both be recognized over the
 * same touches (by default the first to begin makes the other fail). */
bool seatkit_recognizer_require_to_fail(struct seatkit_recognizer *recognizer,
	struct seatkit_recognizer *other);
bool seatkit_recognizer_set_simultaneous(struct seatkit_recognizer *recognizer,
	struct seatkit_recognizer *other, bool simultaneous);
/* Mutter's relationships (see the gestures guide). can_not_cancel: `recognizer` beginning
 * or being recognized no longer fails `other` over shared input, and `other` may begin while
 * `recognizer` is in progress (one way; call it both ways for a pair that may both be
 * recognized). recognize_independently_from: the two neither stop nor wait for each other
 * (a require_to_fail or an inhibition between them, or a high-priority one above, no longer
 * holds them); symmetric. inhibit_until_cancelled: `other`'s recognition waits while
 * `recognizer` may still begin or is in progress, goes ahead once `recognizer` fails or is
 * CANCELLED, and fails if it ENDS or is RECOGNIZED (require_to_fail fails `other` at
 * `recognizer`'s begin instead); one that would close a cycle of waits is refused: false and
 * a log line. remove_relationships undoes the three between the pair, both ways. All hold
 * the other weakly (destroying either ends the relationship). False: a dead handle. */
bool seatkit_recognizer_can_not_cancel(struct seatkit_recognizer *recognizer,
	struct seatkit_recognizer *other);
bool seatkit_recognizer_recognize_independently_from(struct seatkit_recognizer *recognizer,
	struct seatkit_recognizer *other);
bool seatkit_recognizer_inhibit_until_cancelled(struct seatkit_recognizer *recognizer,
	struct seatkit_recognizer *other);
bool seatkit_recognizer_remove_relationships(struct seatkit_recognizer *recognizer,
	struct seatkit_recognizer *other);

/* Flutter's gesture-arena rules, on top of the default eager win (the first to begin or be
 * recognized wins and fails the others). LAST_REMAINING_WINS: once every other member of an
 * arena (a touch's, the pen stroke's, the pointer press's, the touchpad gesture's) has
 * failed with no winner, the one left wins at once. SWEEP_AT_END: when that input ends (a
 * finger lifts, the tip or last button is released, the touchpad gesture ends) with no
 * winner, the first member still possible (deepest surface first) wins and the others still
 * possible fail. A winner hears arena_won (custom recognizers); a recognition it had waiting
 * for the losers goes ahead. Default 0. */
enum seatkit_gesture_arena_rule {
	SEATKIT_GESTURE_ARENA_LAST_REMAINING_WINS = 1 << 0,
	SEATKIT_GESTURE_ARENA_SWEEP_AT_END = 1 << 1,
};
void seatkit_router_set_gesture_arena_rules(struct seatkit_router *router, uint32_t rules);
uint32_t seatkit_router_get_gesture_arena_rules(struct seatkit_router *router);

/* Asked when the recognizer is about to begin or be recognized; false makes it fail. */
typedef bool (*seatkit_recognizer_should_begin_func_t)(void *data,
	struct seatkit_recognizer *recognizer);
void seatkit_recognizer_set_should_begin(struct seatkit_recognizer *recognizer,
	seatkit_recognizer_should_begin_func_t should_begin, void *data);

/* Sent when the gesture is recognized or ends: to the attached surface's responder if it
 * can perform it, else up the chain from the first responder. NULL: none. */
void seatkit_recognizer_set_action(struct seatkit_recognizer *recognizer, const char *action);
void seatkit_recognizer_set_enabled(struct seatkit_recognizer *recognizer, bool enabled);
/* On recognition, withdraw its touches from the responders (touches_cancelled). Default on. */
void seatkit_recognizer_set_cancels_touches(struct seatkit_recognizer *recognizer, bool on);
/* Hold touches back from the responders while the recognizer is possible. Defaults: began
 * off, ended on. */
void seatkit_recognizer_set_delays_touches_began(struct seatkit_recognizer *recognizer, bool on);
void seatkit_recognizer_set_delays_touches_ended(struct seatkit_recognizer *recognizer, bool on);

/* Pan, swipe and screen-edge pan: how far (millimetres of the touch device) the touches
 * travel before the gesture begins. Other kinds, a negative or non-finite value: refused. */
bool seatkit_recognizer_set_minimum_distance(struct seatkit_recognizer *recognizer, double mm);
/* Tap and long press: how far (millimetres) a touch may move and still count. Other kinds,
 * a negative or non-finite value: refused. */
bool seatkit_recognizer_set_allowable_movement(struct seatkit_recognizer *recognizer, double mm);
/* Swipe of several fingers: its gathering limits, both off by default (it then waits for
 * its fingers for as long as fewer are down, and sees every motion of a one-finger drag
 * until the finger lifts). While fewer than the swipe's touches are down, a finger that
 * travels farther than `mm` millimetres of the touch device from where it went down
 * (measured in layout space with the device's units per millimetre, as the minimum
 * distance is) fails the swipe at that motion; a finger landing more than `delay_usec`
 * microseconds after the first fails it at that down, and so does a motion later than that
 * while fewer are down (event times only: no timer, so resting fingers fail it at their
 * next motion or down, or when one lifts). Once all the fingers are down neither applies.
 * A failed swipe is shown no more of those touches: the router skips its pass for them.
 * 0 or a negative value turns a limit off; a non-finite `mm` is refused. Other kinds
 * (composed recognizers too): refused, false and a log line, nothing changed. Set them
 * while the recognizer is idle. The Swift kiosk's three-finger switch uses 10 mm and
 * 250 ms (250000). */
bool seatkit_recognizer_set_maximum_travel_until_all_touches(struct seatkit_recognizer *recognizer,
	double mm);
bool seatkit_recognizer_set_maximum_delay_until_all_touches(struct seatkit_recognizer *recognizer,
	int64_t delay_usec);

enum seatkit_recognizer_state seatkit_recognizer_get_state(struct seatkit_recognizer *recognizer);
/* The centroid of its touches, layout space. */
bool seatkit_recognizer_get_location(struct seatkit_recognizer *recognizer, double *lx,
	double *ly);
/* Pan, screen-edge pan and touchpad swipe: translation since the start, layout units. */
bool seatkit_recognizer_get_translation(struct seatkit_recognizer *recognizer, double *dx,
	double *dy);
/* Pinch and touchpad pinch: scale since the start; other kinds: 1. */
double seatkit_recognizer_get_scale(struct seatkit_recognizer *recognizer);
/* Rotation and touchpad pinch: radians (rotation) or degrees (touchpad); others: 0. */
double seatkit_recognizer_get_rotation(struct seatkit_recognizer *recognizer);
/* Swipe: the direction recognized (enum seatkit_swipe_direction bits). */
uint32_t seatkit_recognizer_get_swipe_direction(struct seatkit_recognizer *recognizer);
/* Tap: the number of taps so far. */
uint32_t seatkit_recognizer_get_tap_count(struct seatkit_recognizer *recognizer);

/* Velocity at the newest sample (at the end: the velocity the fingers lifted with, for a
 * fling; zero if they rested over 40 ms first), from a least-squares fit over the last
 * 100 ms (Flutter's VelocityTracker: at least 3 samples, a pause over 40 ms starts afresh).
 * Pan, swipe, screen-edge pan, touchpad swipe: layout units per second (vx, vy). Pinch,
 * touchpad pinch: scale per second in vx (vy: the pinch's span in layout units per second;
 * the touchpad pinch's rotation in degrees per second). Rotation: radians per second in vx.
 * confidence: 0...1, how well the fit matches (1 when there was nothing to fit). Any
 * pointer may be NULL. Other kinds: false, nothing written. */
bool seatkit_recognizer_get_velocity(struct seatkit_recognizer *recognizer, double *vx,
	double *vy, double *confidence);
/* The same velocity in millimetres per second: of the touch device for pan, swipe and
 * screen-edge pan; on the touchpad (libinput's unaccelerated deltas) for touchpad swipe;
 * the span's for pinch (vx). Other kinds: false. */
bool seatkit_recognizer_get_velocity_mm(struct seatkit_recognizer *recognizer, double *vx,
	double *vy);

/* Compositor gestures (KWin's global gestures): a commit threshold makes the recognizer
 * report progress 0...1 toward it while the fingers move (read it in the callback at
 * BEGAN and CHANGED); at the end it is ENDED (commit) when the progress reached 1 and
 * CANCELLED (undo what was shown) when it did not. Swipe: travel in millimetres (the swipe
 * becomes continuous: began once the stroke has a direction, then changed); screen-edge
 * pan: inward travel in millimetres; pinch and touchpad pinch: change of scale away from 1;
 * touchpad swipe: travel in layout units. Other kinds, a negative or non-finite value:
 * refused. Set it while the recognizer is idle. */
bool seatkit_recognizer_set_commit_threshold(struct seatkit_recognizer *recognizer,
	double threshold);
/* 0...1 toward the commit threshold; 0 without one. */
double seatkit_recognizer_get_progress(struct seatkit_recognizer *recognizer);

/* ------------------------------------------------------------------------------------ */
/* Recognizers written in C                                                              */
/* A custom recognizer is a table of handlers, called exactly where the built-ins' methods */
/* are: it sees the touches of its arenas (and touchpad gestures) before any responder,  */
/* decides with seatkit_recognizer_set_state, and takes part in everything the built-ins */
/* do: require-to-fail, simultaneous recognition, should_begin, cancelling and delaying   */
/* touches, actions, the state callback. Handlers run on the router's thread and may call */
/* back into the library.                                                                */

struct seatkit_recognizer_interface {
	/* sizeof(this struct) as your program was compiled: set it, always (see "ABI"). */
	size_t struct_size;
	/* Touches of one phase of one frame (layout space; sx, sy in each touch's bound
	 * surface's space). At began they are already in seatkit_recognizer_get_touches; at
	 * ended and cancelled they leave it after the call. A recognizer with no touch handler
	 * takes no part in touches. */
	void (*touches_began)(void *data, struct seatkit_recognizer *recognizer,
		const struct seatkit_touch_event *event);
	void (*touches_moved)(void *data, struct seatkit_recognizer *recognizer,
		const struct seatkit_touch_event *event);
	void (*touches_ended)(void *data, struct seatkit_recognizer *recognizer,
		const struct seatkit_touch_event *event);
	/* NULL: a gesture in progress is cancelled, a possible one fails. If the handler leaves
	 * it in progress or possible with no touches left, the router does the same. */
	void (*touches_cancelled)(void *data, struct seatkit_recognizer *recognizer,
		const struct seatkit_touch_event *event);
	/* Touchpad gestures aimed at the pointer focus of its subtree (libinput begin, update,
	 * end). Non-NULL makes it take part in them. */
	void (*touchpad_gesture)(void *data, struct seatkit_recognizer *recognizer,
		const struct seatkit_touchpad_gesture_event *event);
	/* A deadline of seatkit_recognizer_schedule passed (once per deadline, never early). */
	void (*deadline_reached)(void *data, struct seatkit_recognizer *recognizer);
	/* The router moved the recognizer back to POSSIBLE (its gesture is over and its
	 * touches are gone) and cancelled its deadlines: clear per-gesture state here. */
	void (*reset)(void *data, struct seatkit_recognizer *recognizer);
	/* Added with the arena rules (a table whose struct_size ends before it has none): the
	 * router's gesture-arena rules gave it the win (seatkit_router_set_gesture_arena_rules),
	 * the other members still possible have failed. It may begin or be recognized here. */
	void (*arena_won)(void *data, struct seatkit_recognizer *recognizer);
};

/* A custom recognizer, detached, with its handlers (the table is copied; `data` is passed
 * to each). NULL router or table, or an unusable struct_size: refused (NULL). Attach,
 * coordinate and destroy it as a built-in. */
struct seatkit_recognizer *seatkit_recognizer_create_custom(struct seatkit_router *router,
	const char *name, const struct seatkit_recognizer_interface *impl, void *data);

/* A custom recognizer's move (from its handlers or a deadline): POSSIBLE -> BEGAN,
 * RECOGNIZED or FAILED; BEGAN or CHANGED -> CHANGED, ENDED or CANCELLED. As for the
 * built-ins, the router may then defer a recognition (require_to_fail: the state stays
 * POSSIBLE until the other fails) or turn it into FAILED (should_begin said no, a
 * conflicting recognizer is in progress): read seatkit_recognizer_get_state after. An
 * illegal move, POSSIBLE, or a built-in recognizer: refused (false, logged), no change. */
bool seatkit_recognizer_set_state(struct seatkit_recognizer *recognizer,
	enum seatkit_recognizer_state state);
/* A POSSIBLE custom recognizer fails; in any other state nothing happens. */
void seatkit_recognizer_fail(struct seatkit_recognizer *recognizer);
/* Calls deadline_reached at `deadline_usec` on the router's clock, unless the recognizer
 * resets first. Refused (false) for a detached or built-in recognizer. Allocates nothing
 * once warm. */
bool seatkit_recognizer_schedule(struct seatkit_recognizer *recognizer, int64_t deadline_usec);
/* Forgets every deadline not yet reached. */
void seatkit_recognizer_cancel_deadlines(struct seatkit_recognizer *recognizer);
/* Copies up to `capacity` of the touches it follows (layout space, as they were at the
 * last event) into `touches` (may be NULL with capacity 0); returns how many it follows. */
size_t seatkit_recognizer_get_touches(struct seatkit_recognizer *recognizer,
	struct seatkit_touch_point *touches, size_t capacity);
/* Layout units per millimetre of the device of the current gesture's first touch (what
 * the built-ins multiply their millimetre thresholds by). */
double seatkit_recognizer_get_units_per_mm(struct seatkit_recognizer *recognizer);
/* A custom recognizer's progress toward its own commit threshold (clamped to 0...1), for
 * whoever reads seatkit_recognizer_get_progress. Refused for built-ins. */
bool seatkit_recognizer_set_progress(struct seatkit_recognizer *recognizer, double progress);

/* ------------------------------------------------------------------------------------ */
/* Input kinds, composition, priority                                                    */
/* One engine for every device: a recognizer follows the kinds of input it supports and  */
/* is allowed. A pen stroke (tip down to tip up) and a left-button drag reach a touch     */
/* recognizer as one touch (pan, long press, tap, and custom recognizers with touch       */
/* handlers); a pinch may follow libinput's touchpad pinch. A recognizer that takes the   */
/* stroke withdraws it from the responders (a cancelled pen up if they saw the down).     */

enum seatkit_input_kind {
	SEATKIT_INPUT_TOUCH = 1 << 0,
	SEATKIT_INPUT_TOUCHPAD = 1 << 1,
	SEATKIT_INPUT_POINTER = 1 << 2,
	SEATKIT_INPUT_PEN = 1 << 3,
};

/* The kinds it is allowed to follow (enum seatkit_input_kind bits), of those it supports.
 * Defaults: touch for touch recognizers, touchpad for the touchpad ones; pan, long press
 * and tap also pen. Unknown bits: refused (false). Takes effect at the next gesture. */
bool seatkit_recognizer_set_input_kinds(struct seatkit_recognizer *recognizer, uint32_t kinds);
/* What it follows: supported and allowed. */
uint32_t seatkit_recognizer_get_input_kinds(struct seatkit_recognizer *recognizer);
/* What it can follow: pan, long press, tap: touch, pen, pointer; pinch: touch, touchpad;
 * custom: touch, pen, pointer with touch handlers, touchpad with touchpad_gesture. */
uint32_t seatkit_recognizer_get_supported_input_kinds(struct seatkit_recognizer *recognizer);
/* The kind of the input it follows now (or last): one SEATKIT_INPUT_* bit. */
uint32_t seatkit_recognizer_get_current_input_kind(struct seatkit_recognizer *recognizer);

/* Composed recognizers (SwiftUI's gestures). The two parts are detached and become the
 * composite's: they see its input, their callbacks still run at each of their changes,
 * their should_begin is not asked (the composite's is). Attach, coordinate and destroy the
 * composite as any recognizer; destroying a part's handle stops its callbacks only.
 * Refused (NULL, logged): parts of another router, the same part twice, a part already in
 * a composite.
 * sequence: `second` sees input only once `first` began or was recognized (from the touches
 * down then); the composite BEGAN then, CHANGED with `second`, ENDED when it ends, FAILED if
 * `first` fails, CANCELLED if `second` fails.
 * exclusive: both see input; `first` wins at once, `second` only once `first` failed; the
 * composite follows the winner (FAILED if both fail).
 * simultaneous: both run; BEGAN at either's begin or recognition, ENDED once both settled
 * if either succeeded. */
struct seatkit_recognizer *seatkit_recognizer_create_sequence(struct seatkit_router *router,
	const char *name, struct seatkit_recognizer *first, struct seatkit_recognizer *second);
struct seatkit_recognizer *seatkit_recognizer_create_exclusive(struct seatkit_router *router,
	const char *name, struct seatkit_recognizer *first, struct seatkit_recognizer *second);
struct seatkit_recognizer *seatkit_recognizer_create_simultaneous(struct seatkit_router *router,
	const char *name, struct seatkit_recognizer *first, struct seatkit_recognizer *second);
/* Exclusive: the part that won (NULL until one has). Sequence: the part seeing input now.
 * Others: NULL. */
struct seatkit_recognizer *seatkit_recognizer_get_winner(struct seatkit_recognizer *recognizer);

/* High priority (SwiftUI's highPriorityGesture): the recognition of the recognizers of the
 * surfaces below its surface (every surface, for an output's) waits until it fails, and
 * fails if it begins or is recognized. */
void seatkit_recognizer_set_high_priority(struct seatkit_recognizer *recognizer, bool on);

enum seatkit_gesture_mask {
	SEATKIT_MASK_NONE = 0,
	/* The recognizer itself runs. */
	SEATKIT_MASK_GESTURE = 1 << 0,
	/* The recognizers of the surfaces below its surface run. */
	SEATKIT_MASK_SUBVIEWS = 1 << 1,
	SEATKIT_MASK_ALL = (1 << 0) | (1 << 1),
};
/* Which recognizers run where it is attached (default SEATKIT_MASK_ALL), for input that
 * starts after the call. Unknown bits: refused (false). */
bool seatkit_recognizer_set_mask(struct seatkit_recognizer *recognizer, uint32_t mask);

/* ------------------------------------------------------------------------------------ */
/* libinput handed over: SeatKit reads the devices                                       */
/* Instead of injecting events itself, a compositor may let SeatKit own libinput: its     */
/* events go through the notify door (filters, recognizers, the chain). Absolute devices   */
/* map to the first output (layout space, with the output's transform).                   */

/* Opens and closes device nodes for libinput (logind's TakeDevice, libseat_open_device).
 * open returns a file descriptor or a negative errno. NULL table or members: open(2) and
 * close(2) directly. */
struct seatkit_device_opener_interface {
	/* sizeof(this struct) as your program was compiled: set it, always (see "ABI"). */
	size_t struct_size;
	int (*open)(void *data, const char *path, int flags);
	void (*close)(void *data, int fd);
};

/* A libinput context over udev for the devices of `seat` (NULL: "seat0"). NULL on failure,
 * with libinput's reason logged. */
struct seatkit_libinput *seatkit_libinput_create_udev(struct seatkit_router *router,
	const char *seat, const struct seatkit_device_opener_interface *opener, void *data);
/* A libinput context over the device nodes at `paths` (count may be 0; add more later). */
struct seatkit_libinput *seatkit_libinput_create_path(struct seatkit_router *router,
	const char *const *paths, size_t count, const struct seatkit_device_opener_interface *opener,
	void *data);
/* Adds a device node to a path context. */
bool seatkit_libinput_add_device(struct seatkit_libinput *libinput, const char *path);
/* The fd to watch for reading; -1 for an invalid handle. */
int seatkit_libinput_get_fd(struct seatkit_libinput *libinput);
/* Reads what libinput has and routes it through the router (notify door). */
void seatkit_libinput_dispatch(struct seatkit_libinput *libinput);
/* Watches the fd on `loop` and dispatches when it is readable, until destroyed (or until the
 * loop ends, if it goes first). False if it is already on a loop. */
bool seatkit_libinput_add_to_event_loop(struct seatkit_libinput *libinput,
	struct wl_event_loop *loop);
/* Releases all devices (VT switch away); resume takes them back. */
void seatkit_libinput_suspend(struct seatkit_libinput *libinput);
bool seatkit_libinput_resume(struct seatkit_libinput *libinput);
/* Removes the fd from the event loop and closes the context. Destroyed with its router too. */
void seatkit_libinput_destroy(struct seatkit_libinput *libinput);

/* ------------------------------------------------------------------------------------ */
/* Replayed recordings: not in this library. Test programs use libseatkit-replay           */
/* (<seatkit/seatkit-replay.h>, pkg-config seatkit-replay), which links umockdev and glib. */

/* ------------------------------------------------------------------------------------ */
/* Trace                                                                                 */

/* Records every routing decision from now on (who saw each event, who took it, why);
 * disabled costs nothing. Disabling clears what was recorded. */
void seatkit_router_set_trace_enabled(struct seatkit_router *router, bool enabled);
/* The records so far as text, one line each. Free the result with free(). NULL for an
 * invalid router. */
char *seatkit_router_get_trace_text(struct seatkit_router *router);
/* The records so far as JSON: an array of one object per input event,
 * {"time_us", "device", "kind", "event", "routing": [decisions...]}, the shape
 * `seatkit replay --format json` prints. Free with free(). */
char *seatkit_router_get_trace_json(struct seatkit_router *router);
void seatkit_router_clear_trace(struct seatkit_router *router);

/* ------------------------------------------------------------------------------------ */
/* Accessibility filters                                                                 */

/* Keyboard and touch accessibility as filters (the core's StickyKeys, SlowKeys, BounceKeys,
 * TouchAccommodations). Each is made on its first call for a router and added after the
 * filters it has then (so call these before adding other filters to have them asked
 * first); later calls turn it on or off and retune it. Timed on the router's clock. Turning
 * one off releases what it holds: sticky keys unlatch and unlock (modifiers_changed is
 * called), slow keys drop the presses still waiting, touch accommodations cancel the touches
 * of their own that are down. Turning one on while a key or finger is down leaves it alone.
 * Delays in microseconds, at most an hour; false for an invalid router or delay. */

/* Sticky keys: a modifier tapped alone latches (for the next key that is not a modifier),
 * tapped twice locks, a third time unlocks. Needs the router's keymap
 * (seatkit_router_set_keymap): latched and locked modifiers become the keyboard state's,
 * so keysyms and the modifier masks of delivered keys include them. modifiers_changed
 * (may be NULL) gets the serialized masks (depressed, latched, locked, group) when they
 * change outside a key, as on turning it off: send them to the focused client
 * (wlr_seat_keyboard_notify_modifiers). */
bool seatkit_router_set_sticky_keys(struct seatkit_router *router, bool enabled,
                                    void (*modifiers_changed)(void *data, uint32_t depressed,
                                                              uint32_t latched, uint32_t locked,
                                                              uint32_t group),
                                    void *data);
/* The modifiers sticky keys latched and locked now, as SEATKIT_MODIFIER_* bits (0 when
 * sticky keys were never set). Either pointer may be NULL. */
bool seatkit_router_get_sticky_modifiers(struct seatkit_router *router, uint32_t *latched,
                                         uint32_t *locked);
/* Slow keys: a key counts only once held for delay_us (GNOME: 300000). */
bool seatkit_router_set_slow_keys(struct seatkit_router *router, bool enabled, int64_t delay_us);
/* Bounce keys: a press of the key just released, within delay_us of its release, is
 * ignored with its release (GNOME: 300000). */
bool seatkit_router_set_bounce_keys(struct seatkit_router *router, bool enabled, int64_t delay_us);
/* Touch accommodations: a touch reaches clients only once held for hold_us (0: at once),
 * as a touch of its own that begins then; touches beginning within ignore_repeat_us after
 * a counted one are ignored (0: none are). */
bool seatkit_router_set_touch_accommodations(struct seatkit_router *router, bool enabled,
                                             int64_t hold_us, int64_t ignore_repeat_us);
/* Simulated secondary click: holding the primary button for delay_us without moving more
 * than movement_threshold layout units releases it and clicks the secondary button there
 * (GNOME: 1200000, 10); the real release is then taken. */
bool seatkit_router_set_simulated_secondary_click(struct seatkit_router *router, bool enabled,
                                                  int64_t delay_us, double movement_threshold);
/* Dwell click: when the pointer rests delay_us within movement_threshold layout units, the
 * primary button is clicked there (GNOME: 1200000, 10). */
bool seatkit_router_set_dwell_click(struct seatkit_router *router, bool enabled, int64_t delay_us,
                                    double movement_threshold);
/* How far the dwell under way is at time_us (the router's clock), 0 to 1, for a visual cue;
 * -1 when none is. */
double seatkit_router_get_dwell_progress(struct seatkit_router *router, int64_t time_us);
/* Mouse keys: with Num Lock off, keypad 1-4, 6-9 move the pointer (one unit, then after
 * initial_delay_us every 20 ms, speeding up over acceleration_us to max_speed layout units a
 * second; GNOME: 160000, 750, 1200000); 5 clicks, + double-clicks, 0 holds the button, .
 * releases it, / * - choose the primary, middle, secondary button. Its keys are taken. */
bool seatkit_router_set_mouse_keys(struct seatkit_router *router, bool enabled,
                                   int64_t initial_delay_us, double max_speed,
                                   int64_t acceleration_us);
/* Locate pointer: tapping Ctrl alone calls located (may be NULL) with the pointer's
 * layout-space position. */
bool seatkit_router_set_locate_pointer(struct seatkit_router *router, bool enabled,
                                       void (*located)(void *data, double x, double y),
                                       void *data);

/* ------------------------------------------------------------------------------------ */
/* Interception (Android's requestDisallowInterceptTouchEvent)                           */

/* An ancestor takes a descendant's touches mid-way with a recognizer attached to it (a
 * built-in pan, or one written in C) that cancels touches in view: when it begins, every
 * responder that saw the touches gets touches_cancelled once (a client gets wl_touch.cancel).
 * This asks that the recognizers attached to the surface's ancestors take none of the
 * touches bound to the surface or its subtree until every touch on the router has ended.
 * Ancestor recognizers still possible are told the touches were cancelled (they fail by
 * default) and follow them no more; one already begun or recognized goes on (too late).
 * The surface's own recognizers and the output's are not affected. Safe from inside a
 * callback. False (nothing changed) when the surface is not in its router's layout. */
bool seatkit_surface_request_disallow_interception(struct seatkit_surface *surface);
/* True while the surface's request lasts. */
bool seatkit_surface_is_interception_disallowed(struct seatkit_surface *surface);

#ifdef __cplusplus
}
#endif

#endif
