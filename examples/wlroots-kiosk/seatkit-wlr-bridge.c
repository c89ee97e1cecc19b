#include <linux/input-event-codes.h>
#include <stdio.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_keyboard_group.h>
#include <xkbcommon/xkbcommon.h>
#include "seatkit-wlr-bridge.h"

static uint32_t msec(int64_t usec) {
	return (uint32_t)(usec / 1000);
}

static void report(struct seatkit_wlr_bridge *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(struct seatkit_wlr_bridge *b, const char *fmt, ...) {
	if (!b->seat->delivered) {
		return;
	}
	char line[256];
	va_list args;
	va_start(args, fmt);
	vsnprintf(line, sizeof line, fmt, args);
	va_end(args);
	b->seat->delivered(b->seat->delivered_data, line);
}

/* Whether the surface's client bound wl_touch; if not, touches become a pointer. */
static bool client_has_touch(struct seatkit_wlr_bridge *b) {
	struct wlr_seat_client *client = wlr_seat_client_for_wl_client(b->seat->seat,
		wl_resource_get_client(b->surface->resource));
	return client && !wl_list_empty(&client->touches);
}

static enum seatkit_result touches_began(void *data, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context) {
	struct seatkit_wlr_bridge *b = data;
	if (!b->surface) {
		return SEATKIT_HANDLED;
	}
	struct wlr_seat *seat = b->seat->seat;
	bool touch = client_has_touch(b);
	for (size_t i = 0; i < event->touch_count; i++) {
		const struct seatkit_touch_point *t = &event->touches[i];
		if (touch) {
			wlr_seat_touch_notify_down(seat, b->surface, msec(event->time_usec), t->id, t->sx, t->sy);
			report(b, "touch down %d %.2f %.2f", t->id, t->sx, t->sy);
		} else if (b->seat->emulating_touch < 0) {
			b->seat->emulating_touch = t->id;
			wlr_seat_pointer_notify_enter(seat, b->surface, t->sx, t->sy);
			wlr_seat_pointer_notify_motion(seat, msec(event->time_usec), t->sx, t->sy);
			wlr_seat_pointer_notify_button(seat, msec(event->time_usec), BTN_LEFT, WLR_BUTTON_PRESSED);
			wlr_seat_pointer_notify_frame(seat);
			report(b, "emulated button down %.2f %.2f", t->sx, t->sy);
		}
	}
	if (touch) {
		wlr_seat_touch_notify_frame(seat);
	}
	return SEATKIT_HANDLED;
}

static enum seatkit_result touches_moved(void *data, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context) {
	struct seatkit_wlr_bridge *b = data;
	if (!b->surface) {
		return SEATKIT_HANDLED;
	}
	struct wlr_seat *seat = b->seat->seat;
	bool touch = client_has_touch(b);
	for (size_t i = 0; i < event->touch_count; i++) {
		const struct seatkit_touch_point *t = &event->touches[i];
		if (touch) {
			wlr_seat_touch_notify_motion(seat, msec(event->time_usec), t->id, t->sx, t->sy);
			report(b, "touch motion %d %.2f %.2f", t->id, t->sx, t->sy);
		} else if (b->seat->emulating_touch == t->id) {
			wlr_seat_pointer_notify_motion(seat, msec(event->time_usec), t->sx, t->sy);
			wlr_seat_pointer_notify_frame(seat);
		}
	}
	if (touch) {
		wlr_seat_touch_notify_frame(seat);
	}
	return SEATKIT_HANDLED;
}

static enum seatkit_result touches_ended(void *data, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context) {
	struct seatkit_wlr_bridge *b = data;
	if (!b->surface) {
		return SEATKIT_HANDLED;
	}
	struct wlr_seat *seat = b->seat->seat;
	bool touch = client_has_touch(b);
	for (size_t i = 0; i < event->touch_count; i++) {
		const struct seatkit_touch_point *t = &event->touches[i];
		if (touch) {
			wlr_seat_touch_notify_up(seat, msec(event->time_usec), t->id);
			report(b, "touch up %d", t->id);
		} else if (b->seat->emulating_touch == t->id) {
			b->seat->emulating_touch = -1;
			wlr_seat_pointer_notify_button(seat, msec(event->time_usec), BTN_LEFT, WLR_BUTTON_RELEASED);
			wlr_seat_pointer_notify_frame(seat);
			report(b, "emulated button up");
		}
	}
	if (touch) {
		wlr_seat_touch_notify_frame(seat);
	}
	return SEATKIT_HANDLED;
}

static void touches_cancelled(void *data, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context) {
	struct seatkit_wlr_bridge *b = data;
	if (!b->surface) {
		return;
	}
	if (client_has_touch(b)) {
		wlr_seat_touch_notify_cancel(b->seat->seat, b->surface);
		report(b, "touch cancel");
	} else if (b->seat->emulating_touch >= 0) {
		b->seat->emulating_touch = -1;
		wlr_seat_pointer_notify_button(b->seat->seat, msec(event->time_usec), BTN_LEFT, WLR_BUTTON_RELEASED);
		wlr_seat_pointer_notify_frame(b->seat->seat);
	}
}

static void pointer_entered(void *data, const struct seatkit_pointer_crossing_event *event,
		const struct seatkit_event_context *context) {
	struct seatkit_wlr_bridge *b = data;
	if (b->surface) {
		wlr_seat_pointer_notify_enter(b->seat->seat, b->surface, event->sx, event->sy);
		wlr_seat_pointer_notify_frame(b->seat->seat);
		report(b, "pointer enter %.2f %.2f", event->sx, event->sy);
	}
}

static void pointer_left(void *data, const struct seatkit_pointer_crossing_event *event,
		const struct seatkit_event_context *context) {
	struct seatkit_wlr_bridge *b = data;
	if (b->surface && b->seat->seat->pointer_state.focused_surface == b->surface) {
		wlr_seat_pointer_notify_clear_focus(b->seat->seat);
		wlr_seat_pointer_notify_frame(b->seat->seat);
		report(b, "pointer leave");
	}
}

static enum seatkit_result pointer_moved(void *data, const struct seatkit_pointer_motion_event *event,
		const struct seatkit_event_context *context) {
	struct seatkit_wlr_bridge *b = data;
	if (b->surface) {
		wlr_seat_pointer_notify_motion(b->seat->seat, msec(event->time_usec), event->sx, event->sy);
		wlr_seat_pointer_notify_frame(b->seat->seat);
		report(b, "pointer motion %.2f %.2f", event->sx, event->sy);
	}
	return SEATKIT_HANDLED;
}

static enum seatkit_result pointer_button(void *data, const struct seatkit_pointer_button_event *event,
		const struct seatkit_event_context *context) {
	struct seatkit_wlr_bridge *b = data;
	if (b->surface) {
		wlr_seat_pointer_notify_button(b->seat->seat, msec(event->time_usec), event->button,
			event->state == SEATKIT_BUTTON_PRESSED ? WLR_BUTTON_PRESSED : WLR_BUTTON_RELEASED);
		wlr_seat_pointer_notify_frame(b->seat->seat);
		report(b, "pointer button 0x%x %s", event->button,
			event->state == SEATKIT_BUTTON_PRESSED ? "pressed" : "released");
	}
	return SEATKIT_HANDLED;
}

static enum seatkit_result pointer_axis(void *data, const struct seatkit_pointer_axis_event *event,
		const struct seatkit_event_context *context) {
	struct seatkit_wlr_bridge *b = data;
	if (!b->surface) {
		return SEATKIT_HANDLED;
	}
	static const enum wlr_axis_source sources[] = {
		WLR_AXIS_SOURCE_WHEEL, WLR_AXIS_SOURCE_FINGER, WLR_AXIS_SOURCE_CONTINUOUS, WLR_AXIS_SOURCE_WHEEL_TILT,
	};
	enum wlr_axis_source source = sources[event->axis.source & 3];
	if (event->axis.vertical != 0 || event->axis.vertical_stop) {
		wlr_seat_pointer_notify_axis(b->seat->seat, msec(event->time_usec), WLR_AXIS_ORIENTATION_VERTICAL,
			event->axis.vertical, (int32_t)(event->axis.vertical_v120 / 120), source);
	}
	if (event->axis.horizontal != 0 || event->axis.horizontal_stop) {
		wlr_seat_pointer_notify_axis(b->seat->seat, msec(event->time_usec), WLR_AXIS_ORIENTATION_HORIZONTAL,
			event->axis.horizontal, (int32_t)(event->axis.horizontal_v120 / 120), source);
	}
	wlr_seat_pointer_notify_frame(b->seat->seat);
	report(b, "pointer axis %.2f %.2f", event->axis.horizontal, event->axis.vertical);
	return SEATKIT_HANDLED;
}

static void set_modifiers(struct seatkit_wlr_bridge *b, const struct seatkit_key_event *event) {
	struct wlr_keyboard_modifiers *m = &b->seat->modifiers;
	if (m->depressed != event->mods_depressed || m->latched != event->mods_latched ||
			m->locked != event->mods_locked || m->group != event->group) {
		m->depressed = event->mods_depressed;
		m->latched = event->mods_latched;
		m->locked = event->mods_locked;
		m->group = event->group;
		wlr_seat_keyboard_notify_modifiers(b->seat->seat, m);
	}
}

static enum seatkit_result key(struct seatkit_wlr_bridge *b, const struct seatkit_key_event *event) {
	/* Clients repeat on their own. */
	if (!b->surface || event->state == SEATKIT_KEY_REPEATED) {
		return SEATKIT_HANDLED;
	}
	bool pressed = event->state == SEATKIT_KEY_PRESSED;
	wlr_seat_keyboard_notify_key(b->seat->seat, msec(event->time_usec), event->keycode,
		pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED);
	set_modifiers(b, event);
	report(b, "key %u %s", event->keycode, pressed ? "pressed" : "released");
	return SEATKIT_HANDLED;
}

static enum seatkit_result key_down(void *data, const struct seatkit_key_event *event,
		const struct seatkit_event_context *context) {
	return key(data, event);
}

static enum seatkit_result key_up(void *data, const struct seatkit_key_event *event,
		const struct seatkit_event_context *context) {
	return key(data, event);
}

static bool can_become_first_responder(void *data) {
	struct seatkit_wlr_bridge *b = data;
	return b->focusable && b->surface;
}

static void did_become_first_responder(void *data, const struct seatkit_event_context *context) {
	struct seatkit_wlr_bridge *b = data;
	if (b->surface) {
		wlr_seat_keyboard_notify_enter(b->seat->seat, b->surface, NULL, 0, &b->seat->modifiers);
		report(b, "keyboard enter");
	}
}

static void did_resign_first_responder(void *data, const struct seatkit_event_context *context) {
	struct seatkit_wlr_bridge *b = data;
	if (b->surface && b->seat->seat->keyboard_state.focused_surface == b->surface) {
		wlr_seat_keyboard_notify_clear_focus(b->seat->seat);
		report(b, "keyboard leave");
	}
}

const struct seatkit_responder_interface seatkit_wlr_bridge_impl = {
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
};

void seatkit_wlr_seat_init(struct seatkit_wlr_seat *seat, struct wlr_seat *wlr_seat) {
	*seat = (struct seatkit_wlr_seat){ .seat = wlr_seat, .emulating_touch = -1,
		.keyboards = wlr_keyboard_group_create() };
}

void seatkit_wlr_seat_finish(struct seatkit_wlr_seat *seat) {
	if (seat->keyboards) {
		wlr_keyboard_group_destroy(seat->keyboards);
		seat->keyboards = NULL;
	}
}

bool seatkit_wlr_seat_set_keymap(struct seatkit_wlr_seat *seat, struct seatkit_keymap *keymap,
		int32_t rate, int32_t delay) {
	/* Once, before the first keyboard joins: changing it later would have to reach every
	 * member, which the group lists only in wlroots' private records. */
	if (!seat->keyboards || !keymap || !wl_list_empty(&seat->keyboards->devices)) {
		return false;
	}
	/* The same text SeatKit compiled, so wlroots' keymap and SeatKit's agree key for key. */
	struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	struct xkb_keymap *xkb = context ? xkb_keymap_new_from_string(context, seatkit_keymap_get_string(keymap),
		XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) : NULL;
	if (!xkb) {
		xkb_context_unref(context);
		return false;
	}
	struct wlr_keyboard *group = &seat->keyboards->keyboard;
	wlr_keyboard_set_keymap(group, xkb);
	wlr_keyboard_set_repeat_info(group, rate, delay);
	xkb_keymap_unref(xkb);
	xkb_context_unref(context);
	wlr_seat_set_keyboard(seat->seat, seat->keyboards->input_device);
	return true;
}

bool seatkit_wlr_seat_add_keyboard(struct seatkit_wlr_seat *seat, struct wlr_input_device *device) {
	if (!seat->keyboards || !seat->keyboards->keyboard.keymap || device->type != WLR_INPUT_DEVICE_KEYBOARD) {
		return false;
	}
	struct wlr_keyboard *group = &seat->keyboards->keyboard;
	wlr_keyboard_set_keymap(device->keyboard, group->keymap);
	wlr_keyboard_set_repeat_info(device->keyboard, group->repeat_info.rate, group->repeat_info.delay);
	return wlr_keyboard_group_add_keyboard(seat->keyboards, device->keyboard);
}

static void handle_surface_destroy(struct wl_listener *listener, void *data) {
	struct seatkit_wlr_bridge *b = wl_container_of(listener, b, surface_destroy);
	seatkit_wlr_bridge_finish(b);
}

void seatkit_wlr_bridge_init(struct seatkit_wlr_bridge *bridge, struct seatkit_wlr_seat *seat,
		struct wlr_surface *surface, bool focusable) {
	bridge->seat = seat;
	bridge->surface = surface;
	bridge->focusable = focusable;
	bridge->surface_destroy.notify = handle_surface_destroy;
	wl_signal_add(&surface->events.destroy, &bridge->surface_destroy);
}

void seatkit_wlr_bridge_finish(struct seatkit_wlr_bridge *bridge) {
	if (bridge->surface) {
		wl_list_remove(&bridge->surface_destroy.link);
		bridge->surface = NULL;
	}
}
