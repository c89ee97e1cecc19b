/*
 * A cage-like kiosk on wlroots 0.15 in which SeatKit decides who gets every input and
 * wlroots delivers it. Read it top to bottom:
 *
 *   input ──► SeatKit router ──► responder of the app's SeatKit surface
 *   (a replayed `libinput record`       (seatkit-wlroots bridge: wlr_seat_*_notify_*)
 *    file, or wlroots' own input
 *    devices)
 *
 *   wlroots-kiosk [options] [-- APP [ARGS...]]        (--help lists the options)
 *
 * As cage: with APP, the kiosk starts it with WAYLAND_DISPLAY set and exits with its status
 * when it exits (128 + N if signal N ended it); SIGTERM and SIGINT end the kiosk cleanly
 * (and the app with it); a bad option or value is refused with one line on stderr.
 *
 * Each app is fullscreen on the screen, one at a time (the newest); wlroots renders it (the
 * headless backend with the pixman renderer in tests: WLR_BACKENDS=headless
 * WLR_RENDERER=pixman; x11 in Xvfb and nested wayland in tests too; DRM and libinput on a
 * real panel) and the kiosk asks for server-side decorations. The screen is the last
 * output connected (cage's -m last), with its --transform and --scale; apps are configured
 * in its logical units and centred if they keep a smaller size; when it goes, the output
 * left takes over. With --outputs extend (cage's -m extend), apps span every output. An app's SeatKit surface is its window (an app that keeps a smaller size
 * gets no input outside it). Every keyboard, from any backend, gets SeatKit's keymap
 * through the bridge and joins one keyboard group, which SeatKit sees as one keyboard;
 * absolute pointer motion (x11, wayland, VM tablets) is mapped through the output layout.
 *
 * --libinput hands libinput to SeatKit (its devices on a udev seat, read on the display's
 * event loop); without it, wlroots' own input devices are fed in through notify.
 *
 * Kiosk behaviour, all of it SeatKit's (the library's kiosk policies and recognizers, the
 * same components the Swift kiosk can use):
 *  - a long press becomes a secondary (right) click at the finger, and never a click first:
 *    the app sees no touch until the press is known not to be long (--long-press app: an
 *    app that handles touch itself keeps its own long press instead);
 *  - a three-finger swipe left or right switches apps, and the app's touches are cancelled
 *    (only while two apps or more are mapped: with one, the swipe is the app's);
 *  - with --blank-after MS (idle) or --start-blanked, the touch that wakes the blanked
 *    screen is swallowed, not delivered; an app's idle-inhibit keeps the screen on;
 *  - the cursor (the xcursor theme's, or the app's own) hides on touch and comes back on
 *    mouse motion (--cursor auto|never|always, --cursor-timeout MS);
 *  - accessibility, SeatKit's filters through the C API, each by its option (the Swift
 *    kiosk's names): --sticky-keys, --slow-keys MS, --bounce-keys MS, --touch-hold MS,
 *    --touch-ignore-repeat MS, --secondary-click MS, --dwell-click MS, --mouse-keys,
 *    --locate-pointer.
 * Popups (menus, dropdowns) are SeatKit surfaces with SeatKit's popup grab (popups.c); an
 * on-screen keyboard's layer-shell panel is a SeatKit surface that never takes keyboard
 * focus, and input-method-v2 is relayed to the focused app's text-input-v3 (osk.c).
 * Remote support: wlr-screencopy (grim), --touch-spots (a disc under each touch, spots.c),
 * virtual pointers (routed by SeatKit), data-control.
 *
 * It prints "listening on WAYLAND_DISPLAY", "screen NAME WxH", "replay finished", and a
 * line per kiosk behaviour ("secondary click at X,Y", "switched to APP", "screen blanked",
 * "screen woke", "cursor hidden", "cursor shown", "accessibility: NAME (VALUE)" per filter
 * on, "pointer at X,Y" for locate pointer), and for popups and keyboards ("popup
 * mapped at X,Y WxH [with a grab]" in its parent's space, "popup dismissed", "panel mapped
 * NAMESPACE at X,Y WxH on OUTPUT", "apps at X,Y WxH" when panels' exclusive zones change
 * where apps go, "touch spot at X,Y", "text input enabled", "input method text TEXT"); with --verbose,
 * also one "deliver ..." line per event the bridge hands to wlroots, and SeatKit's info lines
 * (libinput's own with --libinput) on stderr.
 */
#define _GNU_SOURCE /* pipe2, strsignal */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <linux/input.h>
#include <unistd.h>
#include <getopt.h>
#include <math.h>
#include <pixman.h>
#include <stdint.h>
#include <stdarg.h>
#include <seatkit/seatkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-server-core.h>
#include <wlr/backend.h>
#include <wlr/backend/headless.h>
#include <wlr/backend/multi.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_primary_selection_v1.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_server_decoration.h>
#include <wlr/types/wlr_touch.h>
#include <wlr/types/wlr_data_control_v1.h>
#include <wlr/types/wlr_idle_inhibit_v1.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/types/wlr_virtual_pointer_v1.h>
#include <wlr/types/wlr_xdg_activation_v1.h>
#include <wlr/types/wlr_xdg_output_v1.h>
#include <wlr/types/wlr_xdg_decoration_v1.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>
#include "kiosk.h"

/* The device the long press's secondary click comes from: SeatKit's long-press click
 * device, which the cursor visibility policy does not count as a real pointer. */
#define LONG_PRESS_DEVICE 0x5EA7C11Cu

void say(const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	putchar('\n');
	fflush(stdout);
}

/* SeatKit's log, libinput's own lines in it ("libinput: ..."): errors through wlroots' log,
 * always; with --verbose the info lines too (libinput telling which devices it added,
 * skipped or could not open, and why), as "[seatkit] ..." on stderr, wlroots' own log staying
 * at errors. */
static void seatkit_log(enum seatkit_log_importance importance, const char *fmt, va_list args) {
	if (importance <= SEATKIT_ERROR) {
		_wlr_vlog(WLR_ERROR, fmt, args);
		return;
	}
	fputs("[seatkit] ", stderr);
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
}

static void delivered(void *data, const char *line) {
	say("deliver %s", line);
}

/* ---- The seat's capabilities follow SeatKit's devices ---- */

static void capabilities_changed(void *data, uint32_t caps) {
	struct kiosk *k = data;
	say("capabilities 0x%x", caps);
	/* Replayed devices too, not only those the bridge feeds (a touchscreen also gives a
	 * pointer, for the emulation). */
	seatkit_wlr_seat_set_capabilities(k->seat, caps);
}

/* A tablet (a pen's device) appeared: offered to apps, and --map-tablet, --tablet-region
 * and --tablet-rotate apply to it, by its name (touchscreens keep their own mapping). */
static void device_added(void *data, uint32_t device, const struct seatkit_device_info *info) {
	struct kiosk *k = data;
	/* Apps get the tablet at once: a pad follows the keyboard focus before any pen came. */
	if (info->capabilities & SEATKIT_DEVICE_TABLET_TOOL) {
		seatkit_wlr_seat_add_tablet(k->seat, device);
	}
	if (!k->tablet.set || !(info->capabilities & SEATKIT_DEVICE_TABLET_TOOL) || !info->name || !info->name[0]) {
		return;
	}
	if (seatkit_router_map_device_area(k->router, info->name, k->tablet.output[0] ? k->tablet.output : NULL,
			k->tablet.has_region ? k->tablet.region : NULL, k->tablet.rotation, NULL)) {
		say("tablet %s mapped", info->name);
	}
}

/* A tablet went away: apps are told its tablet, pens and pad are gone. */
static void device_removed(void *data, uint32_t device) {
	struct kiosk *k = data;
	seatkit_wlr_seat_remove_tablet(k->seat, device);
}

/* A tablet's pad: apps with a tablet seat get it (its focus follows the pen), and its
 * buttons, rings and strips (no kiosk behaviour takes them). */
static void pad_added(void *data, uint32_t device, const struct seatkit_pad_layout *layout) {
	struct kiosk *k = data;
	if (seatkit_wlr_seat_add_pad(k->seat, device, layout)) {
		say("pad %u added", device);
	}
}

static void pad_event(void *data, const struct seatkit_pad_event *event) {
	struct kiosk *k = data;
	seatkit_wlr_seat_notify_pad(k->seat, event);
}

static const struct seatkit_delegate_interface delegate_impl = {
	.struct_size = sizeof(struct seatkit_delegate_interface),
	.capabilities_changed = capabilities_changed,
	.device_added = device_added,
	.device_removed = device_removed,
	.pad_added = pad_added,
	.pad_event = pad_event,
};

/* ---- Kiosk behaviour: SeatKit's kiosk policies ---- */

static void focus_view(struct view *view);

static void extend_power(struct kiosk *k, bool on);

/* The kiosk's screen, if it still has one (the output may have gone away); with
 * --outputs extend, every output. */
static void screen_power(struct kiosk *k, bool on) {
	if (k->extend) {
		extend_power(k, on);
	} else if (k->wlr_output) {
		wlr_output_enable(k->wlr_output, on);
		wlr_output_commit(k->wlr_output);
	}
}

static void screen_woke(void *data) {
	struct kiosk *k = data;
	say("screen woke");
	screen_power(k, true);
}

static int blank_screen(void *data) {
	struct kiosk *k = data;
	if (idle_inhibited(k)) {
		/* A video player keeps the screen on (idle-inhibit on a visible surface, idle.c):
		 * look again later. */
		if (k->idle) {
			wl_event_source_timer_update(k->idle, k->blank_after_ms);
		}
		return 0;
	}
	if (!seatkit_kiosk_policy_is_blanked(k->wake)) {
		seatkit_kiosk_policy_blank(k->wake);
		idle_screen_blanked(k);
		say("screen blanked");
		screen_power(k, false);
	}
	return 0;
}

/* Activity, swallowed or not, restarts the idle timer (while there is a screen) and the dim
 * step's (idle.c): one spy for both, of SEATKIT_INPUT_KINDS_ACTIVITY (seatkit.h says why they are all
 * of it). */
static void input_seen(void *data, const struct seatkit_input_event *event, bool consumed) {
	struct kiosk *k = data;
	if (k->idle && k->wlr_output) {
		wl_event_source_timer_update(k->idle, k->blank_after_ms);
	}
	idle_activity(k);
}

/* The cursor (xcursor theme $XCURSOR_THEME at $XCURSOR_SIZE, the focused client's image
 * where it set one), with --cursor auto (the default): hidden on touch and back on real
 * pointer motion (SeatKit's cursor visibility policy), and with --cursor-timeout MS hidden
 * after that long without pointer input. --cursor always: always drawn; never: none. */
static void update_cursor(struct kiosk *k) {
	bool hidden = k->cursor_mode == CURSOR_AUTO && (k->cursor_touch_hidden || k->cursor_idle_hidden);
	seatkit_wlr_seat_set_cursor_hidden(k->seat, hidden);
}

static void cursor_changed(void *data, bool visible) {
	struct kiosk *k = data;
	say(visible ? "cursor shown" : "cursor hidden");
	k->cursor_touch_hidden = !visible;
	update_cursor(k);
}

static int cursor_idle(void *data) {
	struct kiosk *k = data;
	if (!k->cursor_idle_hidden) {
		k->cursor_idle_hidden = true;
		say("cursor hidden after %d ms", k->cursor_timeout_ms);
		update_cursor(k);
	}
	return 0;
}

/* Pointer input from a real device (not the long press's click): the cursor comes back and
 * the timeout starts again. */
static void pointer_seen(void *data, const struct seatkit_input_event *event, bool consumed) {
	struct kiosk *k = data;
	if (event->type < SEATKIT_INPUT_POINTER_MOTION || event->type > SEATKIT_INPUT_POINTER_AXIS
		|| event->device == LONG_PRESS_DEVICE) {
		return;
	}
	wl_event_source_timer_update(k->cursor_timer, k->cursor_timeout_ms);
	if (k->cursor_idle_hidden) {
		k->cursor_idle_hidden = false;
		update_cursor(k);
	}
}

static void setup_cursor(struct kiosk *k) {
	if (k->cursor_mode == CURSOR_NEVER) {
		return;
	}
	const char *size = getenv("XCURSOR_SIZE");
	long pixels = size ? strtol(size, NULL, 10) : 0;
	seatkit_wlr_seat_show_cursor(k->seat, getenv("XCURSOR_THEME"), pixels > 0 && pixels <= 256 ? (uint32_t)pixels : 24);
	if (k->cursor_mode == CURSOR_AUTO && k->cursor_timeout_ms > 0) {
		k->cursor_timer = wl_event_loop_add_timer(wl_display_get_event_loop(k->display), cursor_idle, k);
		wl_event_source_timer_update(k->cursor_timer, k->cursor_timeout_ms);
		/* Pointer input alone: touch, keys and the rest never reach it. */
		seatkit_router_add_spy_for_kinds(k->router, SEATKIT_INPUT_KIND(SEATKIT_INPUT_POINTER_MOTION)
			| SEATKIT_INPUT_KIND(SEATKIT_INPUT_POINTER_MOTION_ABSOLUTE) | SEATKIT_INPUT_KIND(SEATKIT_INPUT_POINTER_BUTTON)
			| SEATKIT_INPUT_KIND(SEATKIT_INPUT_POINTER_AXIS), pointer_seen, k);
	}
	update_cursor(k);
}

/* A three-finger swipe shows the next app (the recognizer cancels the touches the app had). */
static void swipe_changed(void *data, struct seatkit_recognizer *recognizer, enum seatkit_recognizer_state state) {
	struct kiosk *k = data;
	if (state != SEATKIT_RECOGNIZER_RECOGNIZED || !k->current) {
		return;
	}
	struct wl_list *next = k->current->link.next;
	for (int i = 0; i < 2 * wl_list_length(&k->views); i++, next = next->next) {
		if (next == &k->views) {
			continue;
		}
		struct view *view = wl_container_of(next, view, link);
		if (view != k->current && view->surface) {
			focus_view(view);
			say("switched to %s", view->xdg_surface->toplevel->app_id ? view->xdg_surface->toplevel->app_id : "(no app id)");
			return;
		}
	}
}

/* The idle timer: only while the kiosk has a screen (it is disarmed when the output goes,
 * and this guards a timer already due). --start-blanked blanks before any output. */
static int idle_expired(void *data) {
	struct kiosk *k = data;
	return k->wlr_output ? blank_screen(k) : 0;
}

/* ---- Accessibility: SeatKit's filters, each turned on by its option ---- */

/* Sticky keys changed the modifiers outside a key (keys carry their own): the focused
 * client is told through the bridge, which keeps the record of what clients were told (a
 * later key's modifiers are sent only when they differ from it). */
static void sticky_modifiers_changed(void *data, uint32_t depressed, uint32_t latched,
		uint32_t locked, uint32_t group) {
	struct kiosk *k = data;
	seatkit_wlr_seat_notify_modifiers(k->seat, depressed, latched, locked, group);
	say("sticky modifiers latched 0x%x locked 0x%x", latched, locked);
}

static void pointer_located(void *data, double x, double y) {
	(void)data;
	say("pointer at %d,%d", (int)x, (int)y);
}

/* Each filter asked for, in the Swift kiosk's order, after the wake filter (nothing acts on
 * the waking input) and before everything else: touches held or ignored first, then
 * bounces dropped, then slow keys wait, then sticky keys latch what is left; then the
 * pointer's. A line each says it is on (and what it was given). */
static void setup_accessibility(struct kiosk *k) {
	struct seatkit_router *r = k->router;
	const int64_t ms = 1000;
	if (k->a11y.touch_hold_ms || k->a11y.touch_ignore_repeat_ms) {
		if (seatkit_router_set_touch_accommodations(r, true, k->a11y.touch_hold_ms * ms,
				k->a11y.touch_ignore_repeat_ms * ms)) {
			say("accessibility: touch accommodations (hold %d ms, ignore repeat %d ms)",
				k->a11y.touch_hold_ms, k->a11y.touch_ignore_repeat_ms);
		}
	}
	if (k->a11y.bounce_keys_ms && seatkit_router_set_bounce_keys(r, true, k->a11y.bounce_keys_ms * ms)) {
		say("accessibility: bounce keys (%d ms)", k->a11y.bounce_keys_ms);
	}
	if (k->a11y.slow_keys_ms && seatkit_router_set_slow_keys(r, true, k->a11y.slow_keys_ms * ms)) {
		say("accessibility: slow keys (%d ms)", k->a11y.slow_keys_ms);
	}
	if (k->a11y.sticky_keys && seatkit_router_set_sticky_keys(r, true, sticky_modifiers_changed, k)) {
		say("accessibility: sticky keys");
	}
	/* GNOME's movement threshold: 10 (layout units here). */
	if (k->a11y.secondary_click_ms &&
			seatkit_router_set_simulated_secondary_click(r, true, k->a11y.secondary_click_ms * ms, 10)) {
		say("accessibility: simulated secondary click (%d ms)", k->a11y.secondary_click_ms);
	}
	if (k->a11y.dwell_click_ms && seatkit_router_set_dwell_click(r, true, k->a11y.dwell_click_ms * ms, 10)) {
		say("accessibility: dwell click (%d ms)", k->a11y.dwell_click_ms);
	}
	/* GNOME's mouse keys: 160 ms before repeating, 750 units a second after 1.2 s. */
	if (k->a11y.mouse_keys && seatkit_router_set_mouse_keys(r, true, 160000, 750, 1200000)) {
		say("accessibility: mouse keys");
	}
	if (k->a11y.locate_pointer && seatkit_router_set_locate_pointer(r, true, pointer_located, k)) {
		say("accessibility: locate pointer");
	}
}

static void setup_kiosk_behaviour(struct kiosk *k) {
	/* First filter: nothing else acts on the waking input. */
	k->wake = seatkit_router_add_wake_filter(k->router, screen_woke, k);
	setup_accessibility(k);
	k->cursor = seatkit_router_add_cursor_visibility(k->router, cursor_changed, k);
	if (k->blank_after_ms > 0) {
		k->idle = wl_event_loop_add_timer(wl_display_get_event_loop(k->display), idle_expired, k);
		wl_event_source_timer_update(k->idle, k->blank_after_ms);
	}
	/* Only --blank-after and --dim-after watch input: without them, no spy costs an event. */
	if (k->blank_after_ms > 0 || k->dim_after_ms > 0) {
		seatkit_router_add_spy_for_kinds(k->router, SEATKIT_INPUT_KINDS_ACTIVITY, input_seen, k);
	}
	if (k->start_blanked) {
		blank_screen(k);
	}
}

/* On the screen: app switching. The swipe fails as soon as the fingers cannot be three (a
 * finger travelling over 10 mm before the third lands, or a third landing more than 250 ms
 * after the first; real three-finger swipes land within about 100-150 ms), as the Swift
 * kiosk's switch does: a one-finger drag on the app stops being shown to it after 10 mm. */
static void setup_output_gestures(struct kiosk *k) {
	k->switcher = seatkit_recognizer_create_swipe(k->router, "switch-app", SEATKIT_SWIPE_LEFT | SEATKIT_SWIPE_RIGHT, 3);
	seatkit_recognizer_set_maximum_travel_until_all_touches(k->switcher, 10);
	seatkit_recognizer_set_maximum_delay_until_all_touches(k->switcher, 250000);
	seatkit_recognizer_set_callback(k->switcher, swipe_changed, k);
	seatkit_output_add_recognizer(k->output, k->switcher);
	kiosk_update_switcher(k);
}

/* ---- A long press is a secondary click, and never a click first ---- */

#define LONG_PRESS_USEC 600000
#define BTN_RIGHT_CODE 0x111

/* The app's long-press recognizer began (one finger held 600 ms within 10 mm): the app saw
 * nothing of the touch (the recognizer held it back), and gets a pointer at the finger and
 * a secondary click there, through the router like any pointer input. */
static void long_press_changed(void *data, struct seatkit_recognizer *recognizer,
		enum seatkit_recognizer_state state) {
	struct view *view = data;
	struct kiosk *k = view->kiosk;
	double lx, ly;
	if (state != SEATKIT_RECOGNIZER_BEGAN || !seatkit_recognizer_get_location(recognizer, &lx, &ly)) {
		return;
	}
	int64_t now = seatkit_router_get_time(k->router);
	seatkit_router_notify_pointer_motion_absolute(k->router, now, LONG_PRESS_DEVICE, lx, ly);
	seatkit_router_notify_pointer_button(k->router, now, LONG_PRESS_DEVICE, BTN_RIGHT_CODE, SEATKIT_BUTTON_PRESSED);
	seatkit_router_notify_pointer_button(k->router, now, LONG_PRESS_DEVICE, BTN_RIGHT_CODE, SEATKIT_BUTTON_RELEASED);
	say("secondary click at %.0f,%.0f", lx, ly);
}

/* Whether the kiosk's long press applies to the app: always, except with --long-press app
 * for an app that handles touch itself (it bound wl_touch, so its toolkit has its own long
 * press: GTK's 500 ms one). Never both: where the kiosk's applies, the app sees no touch
 * until the press is known not to be long. */
static void view_update_long_press(struct view *view) {
	struct kiosk *k = view->kiosk;
	bool enabled = true;
	if (k->app_long_press) {
		struct wl_client *client = wl_resource_get_client(view->xdg_surface->surface->resource);
		struct wlr_seat_client *seat_client = wlr_seat_client_for_wl_client(k->wlr_seat, client);
		enabled = !seat_client || wl_list_empty(&seat_client->touches);
	}
	if (enabled != view->long_press_enabled) {
		view->long_press_enabled = enabled;
		seatkit_recognizer_set_enabled(view->long_press, enabled);
		for (int i = 0; i < view->slice_count; i++) {
			seatkit_recognizer_set_enabled(view->slices[i].long_press, enabled);
		}
	}
}

/* The app's long press: on its SeatKit surface, so it sees the touches on the app and its
 * popups (not an on-screen keyboard's panel, whose keys must not wait). It delays touches
 * began: a touch reaches the app only once it cannot be a long press (lifted sooner,
 * moved more than 10 mm, a second finger), so neither a client without wl_touch (whose
 * touch is an emulated left button) nor a toolkit's own long press acts on it first. */
static struct seatkit_recognizer *make_long_press(struct view *view, struct seatkit_surface *surface) {
	struct seatkit_recognizer *recognizer =
		seatkit_recognizer_create_long_press(view->kiosk->router, "secondary-click", LONG_PRESS_USEC, 1);
	seatkit_recognizer_set_allowable_movement(recognizer, 10);
	seatkit_recognizer_set_delays_touches_began(recognizer, true);
	seatkit_recognizer_set_callback(recognizer, long_press_changed, view);
	seatkit_recognizer_set_enabled(recognizer, view->long_press_enabled);
	seatkit_surface_add_recognizer(surface, recognizer);
	return recognizer;
}

static void view_add_long_press(struct view *view) {
	view->long_press_enabled = true;
	view->long_press = make_long_press(view, view->surface);
	view_update_long_press(view);
}

/* ---- Outputs ---- */

/* The kiosk's screen is the last output connected (cage's -m last): the apps are
 * fullscreen on it, in logical units (its mode after its transform, divided by its scale),
 * and it is the only output in the layout, at 0,0, so that layout and screen coordinates
 * are the same. Other outputs stay on and black. When the screen goes, the most recent
 * output left becomes the screen and the apps move to it: their SeatKit surfaces move to
 * its SeatKit output (touches on the old one are cancelled) and they are configured to its
 * logical size. */
struct output {
	struct wl_list link; /* kiosk.outputs, oldest first */
	struct kiosk *kiosk;
	struct wlr_output *wlr_output;
	struct seatkit_output *sk; /* --outputs extend: its SeatKit output */
	struct wl_listener frame, destroy;
};

static void output_frame(struct wl_listener *listener, void *data) {
	struct output *output = wl_container_of(listener, output, frame);
	struct wlr_scene_output *scene_output =
		wlr_scene_get_scene_output(output->kiosk->scene, output->wlr_output);
	if (!scene_output) {
		return;
	}
	wlr_scene_output_commit(scene_output);
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	wlr_scene_output_send_frame_done(scene_output, &now);
}

static void view_configure(struct view *view);
static void extend_output_added(struct kiosk *k, struct output *output);

/* Where apps go, in layout space: the screen (at 0,0), or with --outputs extend the box
 * around every output; less, at each edge of it, the exclusive zones of the panels (not
 * keyboards) on the outputs along that edge (osk.c), so no app is under a bar on any of
 * them. An app spans the box, so a zone at the bottom of one of two outputs side by side
 * shortens it on both. */
static void compute_app_box(struct kiosk *k) {
	if (!k->wlr_output) {
		return;
	}
	int insets[4];
	if (!k->extend) {
		osk_exclusive_insets(k, k->wlr_output, insets);
		k->app_x = insets[3];
		k->app_y = insets[0];
		k->app_width = k->width - insets[1] - insets[3];
		k->app_height = k->height - insets[0] - insets[2];
	} else {
		struct wlr_box *layout_box = wlr_output_layout_get_box(k->output_layout, NULL);
		if (!layout_box) {
			return;
		}
		struct wlr_box box = *layout_box;
		int top = box.y, left = box.x, bottom = box.y + box.height, right = box.x + box.width;
		struct output *output;
		wl_list_for_each(output, &k->outputs, link) {
			struct wlr_box *o = wlr_output_layout_get_box(k->output_layout, output->wlr_output);
			if (!o) {
				continue;
			}
			osk_exclusive_insets(k, output->wlr_output, insets);
			if (o->y == box.y && box.y + insets[0] > top) {
				top = box.y + insets[0];
			}
			if (o->x + o->width == box.x + box.width && box.x + box.width - insets[1] < right) {
				right = box.x + box.width - insets[1];
			}
			if (o->y + o->height == box.y + box.height && box.y + box.height - insets[2] < bottom) {
				bottom = box.y + box.height - insets[2];
			}
			if (o->x == box.x && box.x + insets[3] > left) {
				left = box.x + insets[3];
			}
		}
		k->app_x = left;
		k->app_y = top;
		k->app_width = right - left;
		k->app_height = bottom - top;
	}
	/* Panels that leave nothing: the apps keep one unit rather than no size. */
	if (k->app_width < 1) {
		k->app_width = 1;
	}
	if (k->app_height < 1) {
		k->app_height = 1;
	}
}

void kiosk_arrange_apps(struct kiosk *k) {
	int before[4] = { k->app_x, k->app_y, k->app_width, k->app_height };
	osk_arrange_panels(k); /* the panels without a zone of their own, out of the others' */
	compute_app_box(k);
	if (before[0] != k->app_x || before[1] != k->app_y || before[2] != k->app_width || before[3] != k->app_height) {
		configure_apps(k);
		say("apps at %d,%d %dx%d", k->app_x, k->app_y, k->app_width, k->app_height);
	}
}
static void extend_output_gone(struct kiosk *k, struct output *output);

/* Makes `output` the screen (NULL: no screen left; the SeatKit output and the apps stay,
 * detached from any wlr_output, until another output comes). */
static void set_screen(struct kiosk *k, struct output *output) {
	if (k->wlr_output) {
		wlr_output_layout_remove(k->output_layout, k->wlr_output);
	}
	k->wlr_output = output ? output->wlr_output : NULL;
	if (!output) {
		if (k->idle) {
			wl_event_source_timer_update(k->idle, 0); /* nothing to blank */
		}
		return;
	}
	struct wlr_output *wlr_output = output->wlr_output;
	wlr_output_layout_add(k->output_layout, wlr_output, 0, 0);
	wlr_output_effective_resolution(wlr_output, &k->width, &k->height);
	compute_app_box(k);
	/* SeatKit's output: the same name, mode, transform, scale and place. */
	struct seatkit_output *old = k->output;
	k->output = seatkit_output_create(k->router, wlr_output->name, 0, 0, wlr_output->width,
		wlr_output->height, (enum seatkit_output_transform)wlr_output->transform, wlr_output->scale);
	if (k->switcher) {
		seatkit_recognizer_detach(k->switcher);
		seatkit_output_add_recognizer(k->output, k->switcher);
	} else {
		setup_output_gestures(k);
	}
	/* The apps, oldest at the back, then the panels: moving a surface cancels its touches. */
	struct view *view;
	wl_list_for_each_reverse(view, &k->views, link) {
		if (view->surface) {
			seatkit_surface_add_child(seatkit_output_get_root(k->output), view->surface);
		}
		view_configure(view);
	}
	osk_screen_changed(k);
	if (old) {
		seatkit_output_destroy(old);
	}
	if (k->current) {
		focus_view(k->current);
	}
	if (k->idle && !seatkit_kiosk_policy_is_blanked(k->wake)) {
		wl_event_source_timer_update(k->idle, k->blank_after_ms);
	}
	say("screen %s %dx%d", wlr_output->name, k->width, k->height);
}

/* An output went away (unplugged; its window closed on the x11 and wayland backends):
 * nothing may keep it. If it was the screen, the most recent output left becomes the
 * screen (or none: the idle timer is disarmed, it would power a freed output off). If the
 * screen was blanked, the wake filter still swallows the next input. */
/* wlroots 0.15's scene keeps each surface's primary output until the surface moves or is
 * resized, and drops its scene output only after the output's destroy signal: a surface
 * that later commits with a frame callback (GTK's, under a list the outputs' change just
 * closed) had wlr_output_schedule_frame called on the freed output (valgrind: invalid
 * reads in wlr_output_update_needs_frame). So the scene output goes first, here, and every
 * node at the scene's top (the apps, with their popups; the panels) is moved by one unit
 * and back, which makes the scene work out each surface's outputs again. */
static void forget_scene_output(struct kiosk *k, struct wlr_output *wlr_output) {
	struct wlr_scene_output *scene_output = wlr_scene_get_scene_output(k->scene, wlr_output);
	if (!scene_output) {
		return;
	}
	wlr_scene_output_destroy(scene_output); /* its addon too: wlroots will not free it again */
	struct wlr_scene_node *node;
	wl_list_for_each(node, &k->scene->node.state.children, state.link) {
		int x = node->state.x, y = node->state.y;
		wlr_scene_node_set_position(node, x + 1, y);
		wlr_scene_node_set_position(node, x, y);
	}
}

static void output_destroy(struct wl_listener *listener, void *data) {
	struct output *output = wl_container_of(listener, output, destroy);
	struct kiosk *k = output->kiosk;
	say("output %s gone", output->wlr_output->name);
	if (!k->ending) {
		forget_scene_output(k, output->wlr_output);
	}
	osk_output_destroyed(k, output->wlr_output);
	wl_list_remove(&output->link);
	wl_list_remove(&output->frame.link);
	wl_list_remove(&output->destroy.link);
	if (k->extend) {
		extend_output_gone(k, output);
		free(output);
		return;
	}
	if (k->wlr_output == output->wlr_output) {
		k->wlr_output = NULL; /* wlroots takes it out of the layout itself */
		if (!k->ending) {
			set_screen(k, wl_list_empty(&k->outputs) ? NULL : wl_container_of(k->outputs.prev, output, link));
		}
	}
	free(output);
}

/* ---- --outputs extend: every output used, the apps over the box around them (cage's
 * -m extend). Each output has its SeatKit output at its place in the layout; an app's
 * SeatKit surface is on the first output's, and its part on each other output is a slice
 * there (kiosk.h). Popups and panels stay on the first output. ---- */

static void view_sync_slices(struct view *view);

struct seatkit_output *kiosk_seatkit_output(struct kiosk *k, struct wlr_output *wlr_output) {
	if (!k->extend) {
		return wlr_output == k->wlr_output ? k->output : NULL;
	}
	struct output *output;
	wl_list_for_each(output, &k->outputs, link) {
		if (output->wlr_output == wlr_output) {
			return output->sk;
		}
	}
	return NULL;
}

static void extend_power(struct kiosk *k, bool on) {
	struct output *output;
	wl_list_for_each(output, &k->outputs, link) {
		wlr_output_enable(output->wlr_output, on);
		wlr_output_commit(output->wlr_output);
	}
}

/* The first output (the oldest) holds the apps' SeatKit surfaces, the panels and the
 * gestures. */
static void extend_set_primary(struct kiosk *k, struct output *output) {
	k->output = output ? output->sk : NULL;
	k->wlr_output = output ? output->wlr_output : NULL;
	if (!output) {
		if (k->idle) {
			wl_event_source_timer_update(k->idle, 0);
		}
		return;
	}
	if (k->switcher) {
		seatkit_recognizer_detach(k->switcher);
		seatkit_output_add_recognizer(k->output, k->switcher);
	} else {
		setup_output_gestures(k);
	}
	struct view *view;
	wl_list_for_each_reverse(view, &k->views, link) {
		if (view->surface) {
			seatkit_surface_add_child(seatkit_output_get_root(k->output), view->surface);
		}
	}
}

/* The layout changed (an output came, went or moved): SeatKit's outputs follow, and the
 * apps are configured to the new box, their slices made again. */
static void layout_changed(struct wl_listener *listener, void *data) {
	struct kiosk *k = wl_container_of(listener, k, layout_change);
	if (!k->extend || k->ending) {
		return;
	}
	struct output *output;
	wl_list_for_each(output, &k->outputs, link) {
		struct wlr_box *box = wlr_output_layout_get_box(k->output_layout, output->wlr_output);
		if (box && output->sk) {
			seatkit_output_set_position(output->sk, box->x, box->y);
		}
	}
	struct wlr_box *layout_box = wlr_output_layout_get_box(k->output_layout, NULL);
	if (!layout_box || !k->wlr_output) {
		return;
	}
	struct wlr_box box = *layout_box;
	wlr_output_effective_resolution(k->wlr_output, &k->width, &k->height);
	compute_app_box(k);
	struct view *view;
	wl_list_for_each(view, &k->views, link) {
		view_configure(view);
		view_sync_slices(view);
	}
	osk_screen_changed(k);
	if (k->current) {
		focus_view(k->current);
	}
	say("screen extended %dx%d over %d outputs", box.width, box.height, wl_list_length(&k->outputs));
}

/* An output's mode, transform or scale changed at run time (wlr-output-management,
 * output-management.c): SeatKit's output follows (touch with it: the router places touches
 * through the output's current transform) and the apps are configured in the new size. */
void output_reconfigured(struct kiosk *k, struct wlr_output *wlr_output) {
	struct output *output;
	wl_list_for_each(output, &k->outputs, link) {
		struct seatkit_output *sk = k->extend ? output->sk : k->output;
		if (output->wlr_output != wlr_output || !sk || (!k->extend && k->wlr_output != wlr_output)) {
			continue;
		}
		seatkit_output_set_mode(sk, wlr_output->width, wlr_output->height);
		seatkit_output_set_transform(sk, (enum seatkit_output_transform)wlr_output->transform);
		seatkit_output_set_scale(sk, wlr_output->scale);
		if (k->extend) {
			layout_changed(&k->layout_change, NULL);
			return;
		}
		wlr_output_effective_resolution(wlr_output, &k->width, &k->height);
		compute_app_box(k);
		configure_apps(k);
		osk_screen_changed(k);
		say("screen %s %dx%d", wlr_output->name, k->width, k->height);
		return;
	}
}

static void extend_output_added(struct kiosk *k, struct output *output) {
	struct wlr_output *wlr_output = output->wlr_output;
	wlr_output_layout_add_auto(k->output_layout, wlr_output); /* layout_changed: not yet a SeatKit output */
	struct wlr_box *box = wlr_output_layout_get_box(k->output_layout, wlr_output);
	output->sk = seatkit_output_create(k->router, wlr_output->name, box ? box->x : 0, box ? box->y : 0,
		wlr_output->width, wlr_output->height, (enum seatkit_output_transform)wlr_output->transform, wlr_output->scale);
	if (!k->output) {
		extend_set_primary(k, output);
	}
	layout_changed(&k->layout_change, NULL);
}

/* The output went: another becomes the first if it was, the slices on it go (its SeatKit
 * output's destruction cancels the touches on it), and the layout change that follows
 * lays the apps out again. */
static void extend_output_gone(struct kiosk *k, struct output *output) {
	struct view *view;
	wl_list_for_each(view, &k->views, link) {
		for (int i = 0; i < view->slice_count; i++) {
			if (view->slices[i].output == output->sk) {
				seatkit_surface_set_hidden(view->slices[i].surface, true);
			}
		}
	}
	if (k->output == output->sk && !k->ending) {
		extend_set_primary(k, wl_list_empty(&k->outputs) ? NULL : wl_container_of(k->outputs.next, output, link));
	}
	struct seatkit_output *sk = output->sk;
	output->sk = NULL;
	if (k->output == sk) {
		k->output = NULL; /* ending: SeatKit's outputs go with the router */
	}
	seatkit_output_destroy(sk);
	if (k->ending) {
		return;
	}
	wl_list_for_each(view, &k->views, link) {
		view_sync_slices(view);
	}
}

/* --transform and --scale, for the output of this name (the last rule that names it or
 * names none wins). */
static void configure_output(struct kiosk *k, struct wlr_output *wlr_output) {
	for (int i = 0; i < k->rule_count; i++) {
		const struct output_rule *rule = &k->rules[i];
		if (rule->name[0] && strcmp(rule->name, wlr_output->name) != 0) {
			continue;
		}
		if (rule->transform >= 0) {
			wlr_output_set_transform(wlr_output, (enum wl_output_transform)rule->transform);
		}
		if (rule->scale > 0) {
			wlr_output_set_scale(wlr_output, (float)rule->scale);
		}
	}
}

static void new_output(struct wl_listener *listener, void *data) {
	struct kiosk *k = wl_container_of(listener, k, new_output);
	struct wlr_output *wlr_output = data;
	wlr_output_init_render(wlr_output, k->allocator, k->renderer);
	struct wlr_output_mode *mode = wlr_output_preferred_mode(wlr_output);
	if (mode) {
		wlr_output_set_mode(wlr_output, mode);
	}
	configure_output(k, wlr_output);
	wlr_output_enable(wlr_output, true);
	if (!wlr_output_commit(wlr_output)) {
		wlr_log(WLR_ERROR, "output %s: its mode, transform or scale was refused", wlr_output->name);
		return;
	}
	struct output *output = calloc(1, sizeof *output);
	output->kiosk = k;
	output->wlr_output = wlr_output;
	output->frame.notify = output_frame;
	wl_signal_add(&wlr_output->events.frame, &output->frame);
	output->destroy.notify = output_destroy;
	wl_signal_add(&wlr_output->events.destroy, &output->destroy);
	wl_list_insert(k->outputs.prev, &output->link);
	if (k->extend) {
		extend_output_added(k, output);
	} else {
		set_screen(k, output);
	}
}

/* ---- Apps: one fullscreen xdg toplevel at a time ---- */

static void focus_view(struct view *view) {
	struct kiosk *k = view->kiosk;
	k->current = view;
	struct view *other;
	wl_list_for_each(other, &k->views, link) {
		bool shown = other == view;
		wlr_scene_node_set_enabled(other->xdg.node, shown);
		if (other->surface) {
			seatkit_surface_set_hidden(other->surface, !shown);
		}
		for (int i = 0; i < other->slice_count; i++) {
			seatkit_surface_set_hidden(other->slices[i].surface, !shown);
			if (shown) {
				seatkit_surface_raise_to_top(other->slices[i].surface);
			}
		}
	}
	wlr_scene_node_raise_to_top(view->xdg.node);
	seatkit_surface_raise_to_top(view->surface);
	osk_raise(k);
	if (!lock_is_locked(k)) { /* while locked, the lock screen keeps the focus (lock.c) */
		seatkit_router_set_first_responder(k->router, view->surface);
		seatkit_router_refresh_pointer_focus(k->router);
	}
}

void kiosk_refocus(struct kiosk *k) {
	if (k->current && k->current->surface) {
		focus_view(k->current);
	}
}

static void replay_finished(void *data, struct seatkit_replay *replay) {
	say("replay finished");
}

/* The app's SeatKit surface is its wl_surface where the scene draws it: the window
 * geometry's corner at the screen's, or centred on it if the window is smaller (an app
 * that keeps its own size: weston-simple-touch stays 600x500 whatever it is asked), so
 * the wl_surface at that corner minus the geometry's offset (the bridge hands SeatKit's
 * surface-local points to wlroots as they are). It takes input only inside its window
 * geometry and its input region: an app smaller than the screen gets nothing outside its
 * window, nor does a toolkit's shadow. */
static void view_place(struct view *view) {
	struct kiosk *k = view->kiosk;
	struct wlr_surface *surface = view->xdg_surface->surface;
	struct wlr_box geometry;
	wlr_xdg_surface_get_geometry(view->xdg_surface, &geometry);
	int x = k->app_x + (geometry.width < k->app_width ? (k->app_width - geometry.width) / 2 : 0);
	int app_height = k->app_height - k->osk_reserved; /* above a shown keyboard (--osk-resize) */
	int y = k->app_y + (geometry.height < app_height ? (app_height - geometry.height) / 2 : 0);
	wlr_scene_node_set_position(view->xdg.node, x, y);
	/* In the SeatKit output's space (the screen's: at 0,0 of the layout but in extend). */
	double ox = 0, oy = 0, ow, oh;
	if (k->extend && k->output) {
		seatkit_output_get_layout_box(k->output, &ox, &oy, &ow, &oh);
	}
	struct seatkit_rect frame = { .x = x - ox - geometry.x, .y = y - oy - geometry.y,
		.width = surface->current.width, .height = surface->current.height };
	if (memcmp(&frame, &view->frame, sizeof frame) != 0) {
		view->frame = frame;
		seatkit_surface_set_frame(view->surface, frame.x, frame.y, frame.width, frame.height);
	}
	pixman_region32_t region;
	pixman_region32_init(&region);
	pixman_region32_intersect_rect(&region, &surface->input_region, geometry.x, geometry.y,
		(unsigned)geometry.width, (unsigned)geometry.height);
	int count = 0;
	pixman_box32_t *boxes = pixman_region32_rectangles(&region, &count);
	struct seatkit_rect rects[16] = { 0 };
	if (count > 16) {
		count = 16; /* plenty for a window; the rest accept no input */
	}
	for (int i = 0; i < count; i++) {
		rects[i] = (struct seatkit_rect){ .x = boxes[i].x1, .y = boxes[i].y1,
			.width = boxes[i].x2 - boxes[i].x1, .height = boxes[i].y2 - boxes[i].y1 };
	}
	pixman_region32_fini(&region);
	if ((size_t)count != view->input_count || memcmp(rects, view->input, sizeof rects) != 0) {
		view->input_count = (size_t)count;
		memcpy(view->input, rects, sizeof rects);
		seatkit_surface_set_input_region(view->surface, rects, (size_t)count);
	}
	/* The slices: the same wl_surface, in each output's space. */
	for (int i = 0; i < view->slice_count; i++) {
		double sx, sy, sw, sh;
		if (seatkit_output_get_layout_box(view->slices[i].output, &sx, &sy, &sw, &sh)) {
			seatkit_surface_set_frame(view->slices[i].surface, x - sx - geometry.x, y - sy - geometry.y,
				frame.width, frame.height);
		}
		seatkit_surface_set_input_region(view->slices[i].surface, rects, (size_t)count);
	}
}

/* Fullscreen on the screen, in logical units; placed again when it commits its new size
 * (now, if it is mapped: a screen change re-centres it). */
static void view_configure(struct view *view) {
	struct kiosk *k = view->kiosk;
	if (k->app_width > 0 && k->app_height - k->osk_reserved > 0) {
		wlr_xdg_toplevel_set_size(view->xdg_surface, k->app_width, k->app_height - k->osk_reserved);
	}
	wlr_xdg_toplevel_set_fullscreen(view->xdg_surface, true);
	if (view->surface) {
		view_place(view);
	}
}

void configure_apps(struct kiosk *k) {
	struct view *view;
	wl_list_for_each(view, &k->views, link) {
		view_configure(view);
	}
}

static void view_remove_slices(struct view *view) {
	for (int i = 0; i < view->slice_count; i++) {
		seatkit_recognizer_destroy(view->slices[i].long_press);
		seatkit_surface_destroy(view->slices[i].surface);
	}
	view->slice_count = 0;
	view->xdg.part_count = 0;
}

/* --outputs extend: a slice of the mapped app on each output but the first (made again
 * whenever outputs change). */
static void view_sync_slices(struct view *view) {
	struct kiosk *k = view->kiosk;
	/* Its popups' parts are children of the slices: the popups are closed first (a menu
	 * open while the outputs change closes). */
	if (view->slice_count > 0) {
		popups_dismiss(view->xdg_surface);
	}
	view_remove_slices(view);
	if (!k->extend || !view->surface) {
		return;
	}
	struct output *output;
	wl_list_for_each(output, &k->outputs, link) {
		if (!output->sk || output->sk == k->output || view->slice_count == (int)(sizeof view->slices / sizeof view->slices[0])) {
			continue;
		}
		struct view_slice *slice = &view->slices[view->slice_count++];
		slice->output = output->sk;
		slice->surface = seatkit_surface_create(k->router, view->xdg_surface->toplevel->app_id, 0, 0, 0, 0);
		/* Not focusable: the keyboard stays with the app's own SeatKit surface. */
		seatkit_wlr_seat_attach_surface(k->seat, slice->surface, view->xdg_surface->surface, 0);
		seatkit_surface_add_child(seatkit_output_get_root(output->sk), slice->surface);
		seatkit_surface_set_hidden(slice->surface, view != k->current);
		slice->long_press = make_long_press(view, slice->surface);
		view->xdg.parts[view->xdg.part_count++] = slice->surface;
	}
	view->input_count = SIZE_MAX; /* set the slices' input regions too */
	view->frame = (struct seatkit_rect){ 0 };
	view_place(view);
}

/* A resize, a new window geometry or input region. */
static void view_commit(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, commit);
	if (view->surface) {
		view_place(view);
		view_update_long_press(view);
	}
}

static void view_map(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, map);
	struct kiosk *k = view->kiosk;
	/* SeatKit's surface for the app, placed as the app's window; its responder is the
	 * bridge. */
	view->surface = seatkit_surface_create(k->router, view->xdg_surface->toplevel->app_id, 0, 0, 0, 0);
	view->frame = (struct seatkit_rect){ 0 };
	view->input_count = SIZE_MAX; /* never given: set it */
	view_place(view);
	view->commit.notify = view_commit;
	wl_signal_add(&view->xdg_surface->surface->events.commit, &view->commit);
	seatkit_wlr_seat_attach_surface(k->seat, view->surface, view->xdg_surface->surface, SEATKIT_WLR_SURFACE_FOCUSABLE);
	seatkit_surface_add_child(seatkit_output_get_root(k->output), view->surface);
	view_add_long_press(view);
	view_sync_slices(view);
	view->xdg.surface = view->surface;
	focus_view(view);
	k->mapped++;
	kiosk_update_switcher(k);
	say("mapped %s", view->xdg_surface->toplevel->app_id ? view->xdg_surface->toplevel->app_id : "(no app id)");
	if (k->replay && k->mapped == k->windows_before_replay) {
		say("replay started");
		seatkit_replay_play(k->replay, replay_finished, k);
	}
}

void kiosk_update_switcher(struct kiosk *k) {
	if (!k->switcher) {
		return;
	}
	int shown = 0;
	struct view *view;
	wl_list_for_each(view, &k->views, link) {
		shown += view->surface != NULL;
	}
	seatkit_recognizer_set_enabled(k->switcher, shown >= 2 && !k->session_hidden);
}

static void view_unmap(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, unmap);
	if (view->kiosk->current == view) {
		view->kiosk->current = NULL;
	}
	if (view->surface) {
		wl_list_remove(&view->commit.link);
		view_remove_slices(view);
		seatkit_recognizer_destroy(view->long_press);
		view->long_press = NULL;
		seatkit_surface_destroy(view->surface);
		view->surface = NULL;
		view->xdg.surface = NULL;
	}
	kiosk_update_switcher(view->kiosk);
	/* The app below comes back. */
	struct view *next;
	wl_list_for_each(next, &view->kiosk->views, link) {
		if (next != view && next->surface) {
			focus_view(next);
			break;
		}
	}
}

static void view_destroy(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, destroy);
	wl_list_remove(&view->map.link);
	wl_list_remove(&view->unmap.link);
	wl_list_remove(&view->destroy.link);
	wl_list_remove(&view->link);
	free(view);
}

static void new_xdg_surface(struct wl_listener *listener, void *data) {
	struct kiosk *k = wl_container_of(listener, k, new_xdg_surface);
	struct wlr_xdg_surface *xdg_surface = data;
	if (xdg_surface->role == WLR_XDG_SURFACE_ROLE_POPUP) {
		popup_create(k, xdg_surface); /* popups.c */
		return;
	}
	if (xdg_surface->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) {
		return;
	}
	struct view *view = calloc(1, sizeof *view);
	view->kiosk = k;
	view->xdg_surface = xdg_surface;
	view->xdg.node = wlr_scene_xdg_surface_create(&k->scene->node, xdg_surface);
	xdg_surface->data = &view->xdg;
	view->map.notify = view_map;
	wl_signal_add(&xdg_surface->events.map, &view->map);
	view->unmap.notify = view_unmap;
	wl_signal_add(&xdg_surface->events.unmap, &view->unmap);
	view->destroy.notify = view_destroy;
	wl_signal_add(&xdg_surface->events.destroy, &view->destroy);
	wl_list_insert(&k->views, &view->link);
	view_configure(view); /* fullscreen on the screen */
}

static void new_xdg_decoration(struct wl_listener *listener, void *data) {
	struct wlr_xdg_toplevel_decoration_v1 *decoration = data;
	wlr_xdg_toplevel_decoration_v1_set_mode(decoration, WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
}

/* ---- wlroots' own input devices (a real panel): the bridge feeds them to SeatKit ---- */

/* Whether --ignore-device named this device. */
static bool is_ignored_device(struct kiosk *k, const char *name) {
	for (int i = 0; name && i < k->ignored_device_count; i++) {
		if (strcmp(name, k->ignored_devices[i]) == 0) {
			return true;
		}
	}
	return false;
}

static void new_input(struct wl_listener *listener, void *data) {
	struct kiosk *k = wl_container_of(listener, k, new_input);
	struct wlr_input_device *device = data;
	if (is_ignored_device(k, device->name)) {
		say("ignored device %s", device->name);
		return;
	}
	/* Pointers, touchscreens, keyboards, tablets and pads of any backend (wlroots' libinput
	 * without --libinput: a DRM panel with a pen); a keyboard joins the seat's group with
	 * SeatKit's keymap. */
	if (!seatkit_wlr_seat_add_input_device(k->seat, device) && device->type == WLR_INPUT_DEVICE_KEYBOARD) {
		wlr_log(WLR_ERROR, "keyboard %s: not added to the seat", device->name);
	}
}

/* --libinput: SeatKit's libinput opens each device through here; a device --ignore-device
 * names (its kernel name, EVIOCGNAME) is closed again and refused, so libinput skips it. */
static int open_device(void *data, const char *path, int flags) {
	struct kiosk *k = data;
	int fd = open(path, flags | O_CLOEXEC);
	if (fd < 0) {
		return -errno;
	}
	char name[256] = "";
	if (k->ignored_device_count > 0 && ioctl(fd, EVIOCGNAME(sizeof name - 1), name) >= 0 &&
			is_ignored_device(k, name)) {
		close(fd);
		say("ignored device %s", name);
		return -ENODEV;
	}
	return fd;
}

static void close_device(void *data, int fd) {
	close(fd);
}

static const struct seatkit_device_opener_interface device_opener = {
	.struct_size = sizeof(struct seatkit_device_opener_interface),
	.open = open_device,
	.close = close_device,
};

/* Before the backend starts (it announces its keyboards as it starts): SeatKit's keymap for
 * the router, every keyboard of the seat and the clients, in one call. */
static void setup_keymap(struct kiosk *k, const char *layout) {
	struct seatkit_keymap *keymap = seatkit_keymap_create_from_names(NULL, NULL, layout, NULL, NULL);
	if (keymap) {
		seatkit_wlr_seat_set_keymap(k->seat, keymap, 25, 600);
		seatkit_keymap_destroy(keymap);
	}
}

/* Headless, nothing types: a keyboard that never does, so that the seat has one (clients
 * bind wl_keyboard, get the keymap and keyboard focus) as on a panel with a keyboard. */
static void add_headless_keyboard(struct kiosk *k) {
	if (k->headless) {
		wlr_headless_add_input_device(k->headless, WLR_INPUT_DEVICE_KEYBOARD);
	}
}

/* wtype and on-screen keyboards type through virtual-keyboard-v1: a keyboard like any other
 * for SeatKit. */
static void new_virtual_keyboard(struct wl_listener *listener, void *data) {
	struct kiosk *k = wl_container_of(listener, k, new_virtual_keyboard);
	struct wlr_virtual_keyboard_v1 *keyboard = data;
	/* No client-side repeat: the virtual keyboard presses and releases (and repeats, if it
	 * wants to) by itself; its press and release arrive over a socket, and a busy client
	 * could see them further apart than the repeat delay. */
	wlr_keyboard_set_repeat_info(keyboard->input_device.keyboard, 0, 0);
	/* Its own keymap: clients get it while one of its keys is held. */
	seatkit_wlr_seat_add_virtual_keyboard(k->seat, &keyboard->input_device);
	say("virtual keyboard");
	kiosk_arrange_apps(k); /* its client's panel is a keyboard: its exclusive zone is not kept */
}

/* virtual-pointer-v1 (wlrctl, a remote-support tool): a pointer like any other, fed to
 * SeatKit by the bridge, so it goes through the same filters, grabs and responders. */
static void new_virtual_pointer(struct wl_listener *listener, void *data) {
	struct kiosk *k = wl_container_of(listener, k, new_virtual_pointer);
	struct wlr_virtual_pointer_v1_new_pointer_event *event = data;
	seatkit_wlr_seat_add_input_device(k->seat, &event->new_pointer->input_device);
	say("virtual pointer");
}

/* xdg-activation-v1: an app asks to be shown (a second instance handing over to the first,
 * a notification's action): its view is raised and becomes SeatKit's first responder. */
static void request_activate(struct wl_listener *listener, void *data) {
	struct kiosk *k = wl_container_of(listener, k, request_activate);
	struct wlr_xdg_activation_v1_request_activate_event *event = data;
	if (!wlr_surface_is_xdg_surface(event->surface)) {
		return;
	}
	struct wlr_xdg_surface *xdg_surface = wlr_xdg_surface_from_wlr_surface(event->surface);
	struct view *view;
	wl_list_for_each(view, &k->views, link) {
		if (view->xdg_surface == xdg_surface && view->surface && view != k->current) {
			focus_view(view);
			say("activated %s", xdg_surface->toplevel->app_id ? xdg_surface->toplevel->app_id : "(no app id)");
		}
	}
}

/* The protocols a deployed kiosk is asked for that need nothing of SeatKit's routing but
 * what is here: screenshots for remote support (wlr-screencopy with xdg-output: grim),
 * clipboard managers (data-control), idle-inhibit (no blanking while a video plays),
 * virtual pointers and activation (routed above). */
static void setup_protocols(struct kiosk *k) {
	wlr_screencopy_manager_v1_create(k->display);
	wlr_xdg_output_manager_v1_create(k->display, k->output_layout);
	wlr_data_control_manager_v1_create(k->display);
	k->idle_inhibit = wlr_idle_inhibit_v1_create(k->display);
	struct wlr_virtual_pointer_manager_v1 *pointers = wlr_virtual_pointer_manager_v1_create(k->display);
	k->new_virtual_pointer.notify = new_virtual_pointer;
	wl_signal_add(&pointers->events.new_virtual_pointer, &k->new_virtual_pointer);
	struct wlr_xdg_activation_v1 *activation = wlr_xdg_activation_v1_create(k->display);
	k->request_activate.notify = request_activate;
	wl_signal_add(&activation->events.request_activate, &k->request_activate);
	/* What wlroots 0.15 has no helper for, from SeatKit's C API. */
	idle_init(k); /* ext-idle-notify-v1 */
	lock_init(k); /* ext-session-lock-v1 */
	shape_init(k); /* cursor-shape-v1 */
}

static void find_headless(struct wlr_backend *backend, void *data) {
	struct kiosk *k = data;
	if (wlr_backend_is_headless(backend)) {
		k->headless = backend;
	}
}

/* ---- Launch and supervise the app (cage's contract) ---- */

/* SIGTERM, SIGINT: the kiosk ends cleanly (the loop returns, teardown below). */
static int terminate_signal(int signal, void *data) {
	struct kiosk *k = data;
	k->signalled = signal;
	wl_display_terminate(k->display);
	return 0;
}

/* The app exited: the kiosk ends with its status (reaped here, so it leaves no zombie). */
static int child_exited(int signal, void *data) {
	struct kiosk *k = data;
	int status;
	while (k->app_pid > 0) {
		pid_t pid = waitpid(k->app_pid, &status, WNOHANG);
		if (pid == 0 || (pid < 0 && errno == EINTR)) {
			return 0; /* another child (none today), or not yet */
		}
		k->app_pid = 0;
		k->app_status = pid < 0 ? 1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		wl_display_terminate(k->display);
	}
	return 0;
}

/* Starts APP ARGS... with WAYLAND_DISPLAY set (already in the environment), nothing blocked
 * (the kiosk's loop blocks the signals it reads through signalfd) and its own process
 * group. False (with a line on stderr) if it cannot be started. */
static bool launch_app(struct kiosk *k, char *const argv[]) {
	int report[2]; /* the child writes errno here if exec fails (closed on exec) */
	if (pipe2(report, O_CLOEXEC) != 0) {
		fprintf(stderr, "wlroots-kiosk: cannot start %s: %s\n", argv[0], strerror(errno));
		return false;
	}
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "wlroots-kiosk: cannot start %s: %s\n", argv[0], strerror(errno));
		close(report[0]);
		close(report[1]);
		return false;
	}
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		setsid();
		execvp(argv[0], argv);
		int error = errno;
		ssize_t written = write(report[1], &error, sizeof error);
		(void)written;
		_exit(127);
	}
	close(report[1]);
	int error = 0;
	ssize_t got;
	do {
		got = read(report[0], &error, sizeof error);
	} while (got < 0 && errno == EINTR);
	close(report[0]);
	if (got == sizeof error) {
		fprintf(stderr, "wlroots-kiosk: cannot start %s: %s\n", argv[0], strerror(error));
		waitpid(pid, NULL, 0);
		return false;
	}
	k->app_pid = pid;
	return true;
}

/* ---- Options ---- */

static const char usage[] =
	"usage: wlroots-kiosk [options] [-- APP [ARGS...]]\n"
	"\n"
	"A touch kiosk on wlroots in which SeatKit routes every input. With APP, starts it with\n"
	"WAYLAND_DISPLAY set and exits with its status when it exits.\n"
	"\n"
	"  -h, --help                  this text\n"
	"  -v, --version               the version\n"
	"  -V, --verbose               a line per event delivered to a client, and libinput's\n"
	"                              info lines (--libinput)\n"
	"      --long-press kiosk|app  who wins a long press in an app that handles touch\n"
	"                              itself: the kiosk's secondary click (default) or the app\n"
	"      --outputs last|extend   apps on the last output connected (default), or over\n"
	"                              every output side by side (as cage's -m)\n"
	"      --transform [OUTPUT=]T  the output's transform: 0, 90, 180, 270, flipped,\n"
	"                              flipped-90, flipped-180 or flipped-270 (every output\n"
	"                              without OUTPUT); apps are laid out in its logical units\n"
	"      --scale [OUTPUT=]FACTOR the output's scale (1 to 4; every output without OUTPUT)\n"
	"      --cursor auto|never|always  the cursor: hidden on touch and back on pointer\n"
	"                              motion (auto, the default), none, or always drawn\n"
	"      --cursor-timeout MS     auto: also hidden after MS without pointer input\n"
	"      --blank-after MS        blank the screen after MS milliseconds without input\n"
	"      --start-blanked         blank the screen from the start\n"
	"      --dim-after MS          dim the screen after MS without input (before\n"
	"                              --blank-after, if given)\n"
	"      --touch-spots           a circle drawn under each touch (remote support: it\n"
	"                              shows in screenshots and screencasts)\n"
	"  accessibility (MS: milliseconds, 1 to 60000; GNOME: 300 for slow and bounce keys,\n"
	"  1200 for secondary and dwell clicks):\n"
	"      --sticky-keys           a modifier tapped alone latches, tapped twice locks\n"
	"      --slow-keys MS          a key counts only once held MS\n"
	"      --bounce-keys MS        a key pressed again within MS of its release is ignored\n"
	"      --touch-hold MS         a touch counts only once held MS\n"
	"      --touch-ignore-repeat MS  touches within MS after a counted one are ignored\n"
	"      --secondary-click MS    holding the primary button MS is a secondary click\n"
	"      --dwell-click MS        a click where the pointer rests MS\n"
	"      --mouse-keys            the keypad moves the pointer and clicks (Num Lock off)\n"
	"      --locate-pointer        a Ctrl tap logs where the pointer is\n"
	"      --size WxH              the headless backend's output size (default 1280x720)\n"
	"      --libinput [--seat NAME]  SeatKit reads libinput itself (default seat: seat0)\n"
	"      --ignore-device NAME    an input device (by its kernel name) left out (16 at most)\n"
	"      --no-pointer            a touch-only seat: no pointer capability, no cursor\n"
	"      --map-touch DEVICE=OUTPUT  a touchscreen, pen or tablet (by its kernel name) on\n"
	"                              that output (default: its udev WL_OUTPUT, else the first)\n"
	"      --calibrate DEVICE=a,b,c,d,e,f  its calibration matrix (libinput's, applied after\n"
	"                              the udev LIBINPUT_CALIBRATION_MATRIX); rotation followed\n"
	"      --map-tablet OUTPUT     every tablet's (pen's) area on that output\n"
	"      --tablet-region X,Y,W,H  every tablet's area on that rectangle of the layout\n"
	"      --tablet-rotate DEG     every tablet's area turned 0, 90, 180 or 270 clockwise\n"
	"      --osk auto|always       on-screen keyboard panels: shown only while a text field\n"
	"                              focused after touch input has focus (auto, KWin's rule),\n"
	"                              or always (default)\n"
	"      --osk-resize            apps are made shorter, above the keyboard, while it is\n"
	"                              shown (with --osk auto; default: under it, full screen)\n"
	"      --config FILE           settings (name = value, [output NAME], [device NAME]),\n"
	"                              read first: the command line wins\n"
	"      --replay FILE [--start-after-windows N]  replay a libinput recording (tests)\n";

/* A whole positive decimal number no larger than `max`, or -1. */
static long parse_count(const char *text, long max) {
	char *end;
	errno = 0;
	long value = strtol(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || value <= 0 || value > max) {
		return -1;
	}
	return value;
}

/* --transform [NAME=]T or --scale [NAME=]FACTOR: a rule for that output (or every output).
 * NULL, or what is wrong with the value. */
static const char *add_output_rule(struct kiosk *k, bool transform, const char *text) {
	static const char *const transforms[] = { "0", "90", "180", "270",
		"flipped", "flipped-90", "flipped-180", "flipped-270" };
	if (k->rule_count == (int)(sizeof k->rules / sizeof k->rules[0])) {
		return "is one rule too many (16 at most)";
	}
	struct output_rule rule = { .transform = -1 };
	const char *value = text;
	const char *equals = strchr(text, '=');
	if (equals) {
		size_t length = (size_t)(equals - text);
		if (length == 0 || length >= sizeof rule.name) {
			return "names no output before '='";
		}
		memcpy(rule.name, text, length);
		value = equals + 1;
	}
	if (transform) {
		for (int i = 0; i < 8; i++) {
			if (strcmp(value, transforms[i]) == 0) {
				rule.transform = i; /* the order of enum wl_output_transform */
			}
		}
		if (rule.transform < 0) {
			return "is not 0, 90, 180, 270, flipped, flipped-90, flipped-180 or flipped-270";
		}
	} else {
		char *end;
		errno = 0;
		rule.scale = strtod(value, &end);
		if (errno != 0 || end == value || *end != '\0' || !(rule.scale >= 1 && rule.scale <= 4)) {
			return "is not a scale from 1 to 4";
		}
	}
	k->rules[k->rule_count++] = rule;
	return NULL;
}

/* Refuses the command line with one line on stderr: status 2. */
static int refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *refusing_at; /* FILE:LINE while a --config file's setting is parsed */
static int refuse(const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	fputs("wlroots-kiosk: ", stderr);
	if (refusing_at) {
		fprintf(stderr, "%s: ", refusing_at);
	}
	vfprintf(stderr, fmt, args);
	fputs(" (see --help)\n", stderr);
	va_end(args);
	return 2;
}

/* Long options without a short form. */
enum {
	OPT_STICKY_KEYS = 256, OPT_SLOW_KEYS, OPT_BOUNCE_KEYS, OPT_TOUCH_HOLD, OPT_TOUCH_IGNORE_REPEAT,
	OPT_SECONDARY_CLICK, OPT_DWELL_CLICK, OPT_MOUSE_KEYS, OPT_LOCATE_POINTER, OPT_IGNORE_DEVICE,
	OPT_NO_POINTER, OPT_MAP_TOUCH, OPT_CALIBRATE, OPT_CONFIG, OPT_OSK, OPT_OSK_RESIZE,
	OPT_MAP_TABLET, OPT_TABLET_REGION, OPT_TABLET_ROTATE,
	OPT_DIM_AFTER, OPT_TOUCH_SPOTS,
};

/* An accessibility delay: whole milliseconds, 1 to 60000 (as the Swift kiosk takes them);
 * -1 if the text is not one. */
static int parse_delay(const char *text) {
	return (int)parse_count(text, 60000);
}

/* What the options set besides the kiosk. */
struct command_line {
	const char *replay_path;
	const char *libinput_seat;
	bool verbose;
	int width, height;
};

static const struct option options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'v' },
	{ "verbose", no_argument, NULL, 'V' },
	{ "long-press", required_argument, NULL, 'L' },
	{ "transform", required_argument, NULL, 't' },
	{ "outputs", required_argument, NULL, 'm' },
	{ "cursor", required_argument, NULL, 'c' },
	{ "cursor-timeout", required_argument, NULL, 'C' },
	{ "scale", required_argument, NULL, 'S' },
	{ "replay", required_argument, NULL, 'r' },
	{ "start-after-windows", required_argument, NULL, 'n' },
	{ "size", required_argument, NULL, 's' },
	{ "libinput", no_argument, NULL, 'l' },
	{ "seat", required_argument, NULL, 'e' },
	{ "blank-after", required_argument, NULL, 'b' },
	{ "start-blanked", no_argument, NULL, 'B' },
	{ "dim-after", required_argument, NULL, OPT_DIM_AFTER },
	{ "sticky-keys", no_argument, NULL, OPT_STICKY_KEYS },
	{ "slow-keys", required_argument, NULL, OPT_SLOW_KEYS },
	{ "bounce-keys", required_argument, NULL, OPT_BOUNCE_KEYS },
	{ "touch-hold", required_argument, NULL, OPT_TOUCH_HOLD },
	{ "touch-ignore-repeat", required_argument, NULL, OPT_TOUCH_IGNORE_REPEAT },
	{ "secondary-click", required_argument, NULL, OPT_SECONDARY_CLICK },
	{ "dwell-click", required_argument, NULL, OPT_DWELL_CLICK },
	{ "mouse-keys", no_argument, NULL, OPT_MOUSE_KEYS },
	{ "locate-pointer", no_argument, NULL, OPT_LOCATE_POINTER },
	{ "ignore-device", required_argument, NULL, OPT_IGNORE_DEVICE },
	{ "no-pointer", no_argument, NULL, OPT_NO_POINTER },
	{ "map-touch", required_argument, NULL, OPT_MAP_TOUCH },
	{ "calibrate", required_argument, NULL, OPT_CALIBRATE },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "osk", required_argument, NULL, OPT_OSK },
	{ "osk-resize", no_argument, NULL, OPT_OSK_RESIZE },
	{ "map-tablet", required_argument, NULL, OPT_MAP_TABLET },
	{ "tablet-region", required_argument, NULL, OPT_TABLET_REGION },
	{ "tablet-rotate", required_argument, NULL, OPT_TABLET_ROTATE },
	{ "touch-spots", no_argument, NULL, OPT_TOUCH_SPOTS },
	{ 0 },
};

/* Parses argv's options into the kiosk and `cl`: -1 when the kiosk goes on, else its exit
 * status (the reason told). Run on each --config setting, then on the command line. */
static int parse_options(struct kiosk *kp, struct command_line *cl, int argc, char *argv[]) {
	optind = 0; /* glibc: start again (a config file's settings came first) */
	opterr = 0; /* our own one-line reasons */
	int c;
	/* '+': options end at the first non-option (the app's own options are its own). */
	int option = 0;
	while ((c = getopt_long(argc, argv, "+:hvV", options, &option)) != -1) {
		switch (c) {
		case 'h': fputs(usage, stdout); return 0;
		case 'v': printf("wlroots-kiosk %s\n", KIOSK_VERSION); return 0;
		case 'V': cl->verbose = true; break;
		case 'L':
			if (strcmp(optarg, "kiosk") == 0) {
				kp->app_long_press = false;
			} else if (strcmp(optarg, "app") == 0) {
				kp->app_long_press = true;
			} else {
				return refuse("--long-press: '%s' is neither kiosk nor app", optarg);
			}
			break;
		case 'm':
			if (strcmp(optarg, "last") == 0 || strcmp(optarg, "extend") == 0) {
				kp->extend = strcmp(optarg, "extend") == 0;
			} else {
				return refuse("--outputs: '%s' is neither last nor extend", optarg);
			}
			break;
		case 'c':
			if (strcmp(optarg, "auto") == 0) {
				kp->cursor_mode = CURSOR_AUTO;
			} else if (strcmp(optarg, "never") == 0) {
				kp->cursor_mode = CURSOR_NEVER;
			} else if (strcmp(optarg, "always") == 0) {
				kp->cursor_mode = CURSOR_ALWAYS;
			} else {
				return refuse("--cursor: '%s' is not auto, never or always", optarg);
			}
			break;
		case 'C':
			if ((kp->cursor_timeout_ms = (int)parse_count(optarg, 24L * 3600 * 1000)) < 0) {
				return refuse("--cursor-timeout: '%s' is not a number of milliseconds (1 to 86400000)", optarg);
			}
			break;
		case 't':
		case 'S': {
			const char *error = add_output_rule(kp, c == 't', optarg);
			if (error) {
				return refuse("%s: '%s' %s", c == 't' ? "--transform" : "--scale", optarg, error);
			}
			break;
		}
		case 'r': cl->replay_path = optarg; break;
		case 'n':
			if ((kp->windows_before_replay = (int)parse_count(optarg, 64)) < 0) {
				return refuse("--start-after-windows: '%s' is not a number from 1 to 64", optarg);
			}
			break;
		case 's': {
			char x, extra;
			if (sscanf(optarg, "%d%c%d%c", &cl->width, &x, &cl->height, &extra) != 3 || x != 'x' || cl->width <= 0
				|| cl->height <= 0 || cl->width > 16384 || cl->height > 16384) {
				return refuse("--size: '%s' is not WIDTHxHEIGHT in pixels (such as 1280x720)", optarg);
			}
			break;
		}
		case 'l': cl->libinput_seat = cl->libinput_seat ? cl->libinput_seat : "seat0"; break;
		case 'e': cl->libinput_seat = optarg; break;
		case 'b':
			if ((kp->blank_after_ms = (int)parse_count(optarg, 24L * 3600 * 1000)) < 0) {
				return refuse("--blank-after: '%s' is not a number of milliseconds (1 to 86400000)", optarg);
			}
			break;
		case 'B': kp->start_blanked = true; break;
		case OPT_DIM_AFTER:
			if ((kp->dim_after_ms = (int)parse_count(optarg, 24L * 3600 * 1000)) < 0) {
				return refuse("--dim-after: '%s' is not a number of milliseconds (1 to 86400000)", optarg);
			}
			break;
		case OPT_STICKY_KEYS: kp->a11y.sticky_keys = true; break;
		case OPT_MOUSE_KEYS: kp->a11y.mouse_keys = true; break;
		case OPT_LOCATE_POINTER: kp->a11y.locate_pointer = true; break;
		case OPT_NO_POINTER: kp->no_pointer = true; break;
		case OPT_CONFIG: break; /* read before the command line (config_path) */
		case OPT_OSK_RESIZE: kp->osk_resize = true; break;
		case OPT_TOUCH_SPOTS: kp->touch_spots = true; break;
		case OPT_MAP_TABLET:
			if (optarg[0] == '\0' || strlen(optarg) >= sizeof kp->tablet.output) {
				return refuse("--map-tablet: '%s' is not an output name (1 to 63 characters)", optarg);
			}
			snprintf(kp->tablet.output, sizeof kp->tablet.output, "%s", optarg);
			kp->tablet.set = true;
			break;
		case OPT_TABLET_REGION: {
			double v[4];
			char *end = optarg;
			int n = 0;
			for (; n < 4; n++) {
				char *start = end;
				errno = 0;
				v[n] = strtod(start, &end);
				if (end == start || errno != 0 || !isfinite(v[n]) || (*end != ',' && *end != '\0') || (*end == '\0' && n < 3)) {
					break;
				}
				if (*end == ',') {
					end++;
				}
			}
			if (n != 4 || *end != '\0' || v[2] <= 0 || v[3] <= 0) {
				return refuse("--tablet-region: '%s' is not X,Y,WIDTH,HEIGHT in layout units (the size positive)", optarg);
			}
			memcpy(kp->tablet.region, v, sizeof v);
			kp->tablet.has_region = true;
			kp->tablet.set = true;
			break;
		}
		case OPT_TABLET_ROTATE: {
			char *end;
			long degrees = strtol(optarg, &end, 10);
			if (end == optarg || *end != '\0' || (degrees != 0 && degrees != 90 && degrees != 180 && degrees != 270)) {
				return refuse("--tablet-rotate: '%s' is not 0, 90, 180 or 270 (degrees clockwise)", optarg);
			}
			kp->tablet.rotation = (int)degrees;
			kp->tablet.set = true;
			break;
		}
		case OPT_OSK:
			if (strcmp(optarg, "auto") != 0 && strcmp(optarg, "always") != 0) {
				return refuse("--osk: '%s' is neither auto nor always", optarg);
			}
			kp->osk_auto = strcmp(optarg, "auto") == 0;
			break;
		case OPT_MAP_TOUCH:
		case OPT_CALIBRATE: {
			const char *error = device_rule_add(kp, c == OPT_CALIBRATE, optarg);
			if (error) {
				return refuse("--%s: '%s' %s", options[option].name, optarg, error);
			}
			break;
		}
		case OPT_IGNORE_DEVICE:
			if (optarg[0] == '\0') {
				return refuse("--ignore-device: names no device");
			}
			if (kp->ignored_device_count == (int)(sizeof kp->ignored_devices / sizeof kp->ignored_devices[0])) {
				return refuse("--ignore-device: '%s' is one device too many (16 at most)", optarg);
			}
			kp->ignored_devices[kp->ignored_device_count++] = optarg;
			break;
		case OPT_SLOW_KEYS:
		case OPT_BOUNCE_KEYS:
		case OPT_TOUCH_HOLD:
		case OPT_TOUCH_IGNORE_REPEAT:
		case OPT_SECONDARY_CLICK:
		case OPT_DWELL_CLICK: {
			int delay = parse_delay(optarg);
			if (delay < 0) {
				return refuse("--%s: '%s' is not a number of milliseconds (1 to 60000)", options[option].name, optarg);
			}
			int *field = c == OPT_SLOW_KEYS ? &kp->a11y.slow_keys_ms
				: c == OPT_BOUNCE_KEYS ? &kp->a11y.bounce_keys_ms
				: c == OPT_TOUCH_HOLD ? &kp->a11y.touch_hold_ms
				: c == OPT_TOUCH_IGNORE_REPEAT ? &kp->a11y.touch_ignore_repeat_ms
				: c == OPT_SECONDARY_CLICK ? &kp->a11y.secondary_click_ms
				: &kp->a11y.dwell_click_ms;
			*field = delay;
			break;
		}
		case ':': return refuse("%s needs a value", argv[optind - 1]);
		default:
			if (optopt) {
				return refuse("unknown option -%c", optopt);
			}
			return refuse("unknown option %s", argv[optind - 1]);
		}
	}
	return -1;
}

/* A --config file's setting: parsed as the command line's option would be. */
static int config_option(void *data, const char *where, const char *option, const char *error) {
	void **pair = data;
	refusing_at = where;
	int status;
	if (error) {
		status = refuse("%s", error);
	} else {
		/* Kept for the kiosk's life, as argv is: options keep pointers into it (--replay,
		 * --seat, --ignore-device). */
		char *argv[] = { "wlroots-kiosk", strdup(option), NULL };
		status = argv[1] ? parse_options(pair[0], pair[1], 2, argv) : refuse("out of memory");
	}
	refusing_at = NULL;
	return status;
}

int main(int argc, char *argv[]) {
	struct kiosk k = { .windows_before_replay = 1 };
	struct command_line cl = { .width = 1280, .height = 720 };
	const char *config = config_path(argc, argv);
	if (config) {
		void *pair[] = { &k, &cl };
		int status = config_load(config, config_option, pair);
		if (status >= 0) {
			return status;
		}
	}
	int parsed = parse_options(&k, &cl, argc, argv);
	if (parsed >= 0) {
		return parsed;
	}
	const char *replay_path = cl.replay_path;
	const char *libinput_seat = cl.libinput_seat;
	bool verbose = cl.verbose;
	char **app = optind < argc ? &argv[optind] : NULL;
	if (app && optind > 0 && strcmp(argv[optind - 1], "--") != 0) {
		return refuse("unexpected argument '%s': put the app after --", argv[optind]);
	}
	if (k.osk_resize && !k.osk_auto) {
		return refuse("--osk-resize needs --osk auto (an always shown keyboard leaves the apps under it)");
	}
	if (k.dim_after_ms && k.blank_after_ms && k.dim_after_ms >= k.blank_after_ms) {
		return refuse("--dim-after must be shorter than --blank-after");
	}
	if (replay_path && libinput_seat) {
		return refuse("--replay and --libinput cannot be used together");
	}
	if (k.no_pointer) {
		if (k.cursor_mode == CURSOR_ALWAYS) {
			return refuse("--no-pointer and --cursor always cannot be used together");
		}
		/* No cursor; and no kiosk long press: its secondary click would reach no one. */
		k.cursor_mode = CURSOR_NEVER;
		k.app_long_press = true;
	}
	wlr_log_init(WLR_ERROR, NULL);
	seatkit_log_init(verbose ? SEATKIT_INFO : SEATKIT_ERROR, seatkit_log);
	wl_list_init(&k.views);
	wl_list_init(&k.outputs);

	k.display = wl_display_create();
	struct wl_event_loop *loop = wl_display_get_event_loop(k.display);
	/* Signals first: a SIGTERM while starting ends the kiosk as cleanly as later. */
	struct wl_event_source *signals[] = {
		wl_event_loop_add_signal(loop, SIGTERM, terminate_signal, &k),
		wl_event_loop_add_signal(loop, SIGINT, terminate_signal, &k),
		wl_event_loop_add_signal(loop, SIGCHLD, child_exited, &k),
	};
	k.backend = wlr_backend_autocreate(k.display);
	if (!k.backend) {
		fprintf(stderr, "wlroots-kiosk: no wlroots backend\n");
		wl_display_destroy(k.display);
		return 1;
	}
	if (wlr_backend_is_multi(k.backend)) {
		wlr_multi_for_each_backend(k.backend, find_headless, &k);
	} else {
		find_headless(k.backend, &k);
	}
	k.renderer = wlr_renderer_autocreate(k.backend);
	wlr_renderer_init_wl_display(k.renderer, k.display);
	k.allocator = wlr_allocator_autocreate(k.backend, k.renderer);
	wlr_compositor_create(k.display, k.renderer);
	wlr_data_device_manager_create(k.display);
	/* The primary selection (foot offers what a drag, or a pen's stroke, selected). */
	wlr_primary_selection_v1_device_manager_create(k.display);
	k.output_layout = wlr_output_layout_create();
	k.layout_change.notify = layout_changed;
	wl_signal_add(&k.output_layout->events.change, &k.layout_change);
	k.scene = wlr_scene_create();
	wlr_scene_attach_output_layout(k.scene, k.output_layout);

	/* SeatKit: the router on the display's event loop, the compositor as its delegate. */
	k.router = seatkit_router_create(loop);
	seatkit_router_set_delegate(k.router, &delegate_impl, &k);
	device_rules_apply(&k);
	setup_kiosk_behaviour(&k);
	k.wlr_seat = wlr_seat_create(k.display, "seat0");
	/* SeatKit routes, wlr_seat delivers: the bridge (destroyed with the wlr_seat). */
	k.seat = seatkit_wlr_seat_create(k.router, k.wlr_seat, k.output_layout);
	if (verbose) {
		seatkit_wlr_seat_set_delivery_log(k.seat, delivered, &k);
	}
	/* Pens: tablet-v2 for apps that bind it (GTK), the pointer for the others (foot). */
	if (!seatkit_wlr_seat_enable_tablets(k.seat)) {
		wlr_log(WLR_ERROR, "no tablet-v2: pens reach apps as their pointer");
	}
	if (k.no_pointer) {
		seatkit_wlr_seat_set_no_pointer(k.seat, true);
		say("touch-only seat: no pointer");
	}
	setup_cursor(&k);

	osk_init(&k); /* osk.c: layer shell, text-input-v3, input-method-v2 */
	output_management_init(&k); /* output-management.c: wlr-randr */
	setup_protocols(&k);
	spots_init(&k); /* spots.c: --touch-spots */

	k.new_output.notify = new_output;
	wl_signal_add(&k.backend->events.new_output, &k.new_output);
	k.new_input.notify = new_input;
	wl_signal_add(&k.backend->events.new_input, &k.new_input);
	k.xdg_shell = wlr_xdg_shell_create(k.display);
	k.new_xdg_surface.notify = new_xdg_surface;
	wl_signal_add(&k.xdg_shell->events.new_surface, &k.new_xdg_surface);
	wlr_server_decoration_manager_set_default_mode(wlr_server_decoration_manager_create(k.display),
		WLR_SERVER_DECORATION_MANAGER_MODE_SERVER);
	k.virtual_keyboards = wlr_virtual_keyboard_manager_v1_create(k.display);
	k.new_virtual_keyboard.notify = new_virtual_keyboard;
	wl_signal_add(&k.virtual_keyboards->events.new_virtual_keyboard, &k.new_virtual_keyboard);
	struct wlr_xdg_decoration_manager_v1 *decorations = wlr_xdg_decoration_manager_v1_create(k.display);
	k.new_xdg_decoration.notify = new_xdg_decoration;
	wl_signal_add(&decorations->events.new_toplevel_decoration, &k.new_xdg_decoration);

	setup_keymap(&k, "us");
	int status = 0;
	struct seatkit_libinput *libinput = NULL;
	const char *socket = wl_display_add_socket_auto(k.display);
	if (!socket || !wlr_backend_start(k.backend)) {
		fprintf(stderr, "wlroots-kiosk: cannot start (no Wayland socket, or the backend did not start)\n");
		status = 1;
		goto end;
	}
	if (k.headless && !k.output) {
		wlr_headless_add_output(k.headless, cl.width, cl.height);
	}
	add_headless_keyboard(&k);

	if (replay_path) {
		k.replay = seatkit_replay_create(k.router, replay_path, NULL);
		if (!k.replay) {
			fprintf(stderr, "wlroots-kiosk: cannot replay %s\n", replay_path);
			status = 1;
			goto end;
		}
		seatkit_replay_add_devices(k.replay);
	}
	if (libinput_seat) {
		/* SeatKit owns libinput: devices opened directly (a real session would pass
		 * libseat's open and close here). */
		libinput = seatkit_libinput_create_udev(k.router, libinput_seat, &device_opener, &k);
		if (!libinput || !seatkit_libinput_add_to_event_loop(libinput, loop)) {
			fprintf(stderr, "wlroots-kiosk: cannot read input devices on %s\n", libinput_seat);
			status = 1;
			goto end;
		}
		seatkit_libinput_dispatch(libinput); /* the devices already there */
	}
	setenv("WAYLAND_DISPLAY", socket, true);
	say("listening on %s", socket);
	if (app && !launch_app(&k, app)) {
		status = 1;
		goto end;
	}
	wl_display_run(k.display);
	if (k.signalled) {
		say("ending on %s", strsignal(k.signalled));
	}
	status = k.app_pid == 0 ? k.app_status : 0;

end:
	/* Teardown, in order, while everything that SeatKit refers to still exists: the
	 * clients (their surfaces leave SeatKit's tree), SeatKit's own input sources, the
	 * backend (outputs and input devices go, each telling SeatKit), the bridge, then the
	 * router (before the event loop its timers are on), and last the display (the seat,
	 * the globals, the event loop). */
	k.ending = true;
	wl_display_destroy_clients(k.display);
	if (k.replay) {
		seatkit_replay_destroy(k.replay);
	}
	if (libinput) {
		seatkit_libinput_destroy(libinput);
	}
	for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
		if (signals[i]) {
			wl_event_source_remove(signals[i]);
		}
	}
	if (k.idle) {
		wl_event_source_remove(k.idle);
	}
	if (k.cursor_timer) {
		wl_event_source_remove(k.cursor_timer);
	}
	idle_fini(&k);
	lock_fini(&k);
	wlr_backend_destroy(k.backend);
	seatkit_wlr_seat_destroy(k.seat);
	k.seat = NULL; /* a device removed from here on has no bridge to tell */
	seatkit_router_destroy(k.router);
	wl_display_destroy(k.display);
	osk_fini(&k);
	wl_list_remove(&k.layout_change.link);
	output_management_fini();
	wlr_output_layout_destroy(k.output_layout); /* before the scene, which listens to it */
	wlr_scene_node_destroy(&k.scene->node);
	spots_fini(&k);
	wlr_allocator_destroy(k.allocator);
	wlr_renderer_destroy(k.renderer);
	if (k.app_pid > 0) {
		/* The kiosk was asked to end: so is the app (its process group: a shell's children
		 * too), which its closed connection tells as well; SIGKILL if it is still there
		 * 2 s later. */
		kill(-k.app_pid, SIGTERM);
		for (int i = 0; i < 200 && waitpid(k.app_pid, NULL, WNOHANG) == 0; i++) {
			nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
		}
		if (waitpid(k.app_pid, NULL, WNOHANG) == 0) {
			kill(-k.app_pid, SIGKILL);
			waitpid(k.app_pid, NULL, 0);
		}
	}
	return status;
}
