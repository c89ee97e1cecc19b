/*
 * A cage-like kiosk on wlroots 0.15 in which SeatKit decides who gets every input and
 * wlroots delivers it. Read it top to bottom:
 *
 *   input ──► SeatKit router ──► responder of the app's SeatKit surface
 *   (a replayed `libinput record`       (seatkit-wlroots bridge: wlr_seat_*_notify_*)
 *    file, or wlroots' own input
 *    devices)
 *
 * Each app is fullscreen on the output, one at a time (the newest); wlroots renders it (the
 * headless backend with the pixman renderer in tests: WLR_BACKENDS=headless
 * WLR_RENDERER=pixman; x11 in Xvfb and nested wayland in tests too; DRM and libinput on a
 * real panel) and the kiosk asks for server-side decorations. An app's SeatKit surface is
 * its window (an app that keeps a smaller size gets no input outside it). Every keyboard,
 * from any backend, gets SeatKit's keymap through the bridge and joins one keyboard group,
 * which SeatKit sees as one keyboard; absolute pointer motion (x11, wayland, VM tablets) is
 * mapped through the output layout. An output that goes away is forgotten (printed
 * "output NAME gone"); the first output is the only one used.
 *
 *   kiosk [--replay FILE [--start-after-windows N] | --libinput [--seat NAME]] [--size WxH]
 *
 * --libinput hands libinput to SeatKit (its devices on a udev seat, read on the display's
 * event loop); without it, wlroots' own input devices are fed in through notify.
 *
 * Kiosk behaviour, all of it SeatKit's (the library's kiosk policies and recognizers, the
 * same components the Swift kiosk can use):
 *  - a long press becomes a secondary (right) click at the finger;
 *  - a three-finger swipe left or right switches apps, and the app's touches are cancelled;
 *  - with --blank-after MS (idle) or --start-blanked, the touch that wakes the blanked
 *    screen is swallowed, not delivered;
 *  - the cursor hides on touch and comes back on mouse motion (this kiosk draws no cursor
 *    image: it prints the change, where a kiosk with a wlr_cursor would hide it).
 * Popups (menus, dropdowns) are SeatKit surfaces with SeatKit's popup grab (popups.c); an
 * on-screen keyboard's layer-shell panel is a SeatKit surface that never takes keyboard
 * focus, and input-method-v2 is relayed to the focused app's text-input-v3 (osk.c).
 *
 *   kiosk ... [--blank-after MS] [--start-blanked]
 *
 * It prints "listening on WAYLAND_DISPLAY", one "deliver ..." line per event the bridge
 * hands to wlroots, "replay finished", and a line per kiosk behaviour ("secondary click at
 * X,Y", "switched to APP", "screen blanked", "screen woke", "cursor hidden", "cursor shown"),
 * and for popups and keyboards ("popup mapped at X,Y WxH [with a grab]" in its parent's space, "popup dismissed",
 * "panel mapped NAMESPACE at X,Y WxH", "text input enabled", "input method text TEXT").
 */
#define _POSIX_C_SOURCE 200809L
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
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_server_decoration.h>
#include <wlr/types/wlr_touch.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/types/wlr_xdg_decoration_v1.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>
#include "kiosk.h"

void say(const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	putchar('\n');
	fflush(stdout);
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

static const struct seatkit_delegate_interface delegate_impl = {
	.struct_size = sizeof(struct seatkit_delegate_interface),
	.capabilities_changed = capabilities_changed,
};

/* ---- Kiosk behaviour: SeatKit's kiosk policies ---- */

static void focus_view(struct view *view);

/* The kiosk's screen, if it still has one (the output may have gone away). */
static void screen_power(struct kiosk *k, bool on) {
	if (k->wlr_output) {
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
	if (!seatkit_kiosk_policy_is_blanked(k->wake)) {
		seatkit_kiosk_policy_blank(k->wake);
		say("screen blanked");
		screen_power(k, false);
	}
	return 0;
}

/* Every event, swallowed or not, restarts the idle timer (while there is a screen). */
static void input_seen(void *data, const struct seatkit_input_event *event, bool consumed) {
	struct kiosk *k = data;
	if (k->idle && k->wlr_output) {
		wl_event_source_timer_update(k->idle, k->blank_after_ms);
	}
}

static void cursor_changed(void *data, bool visible) {
	say(visible ? "cursor shown" : "cursor hidden");
}

static void secondary_click(void *data, double lx, double ly) {
	say("secondary click at %.0f,%.0f", lx, ly);
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

static void setup_kiosk_behaviour(struct kiosk *k) {
	/* First filter: nothing else acts on the waking input. */
	k->wake = seatkit_router_add_wake_filter(k->router, screen_woke, k);
	k->cursor = seatkit_router_add_cursor_visibility(k->router, cursor_changed, k);
	if (k->blank_after_ms > 0) {
		k->idle = wl_event_loop_add_timer(wl_display_get_event_loop(k->display), idle_expired, k);
		wl_event_source_timer_update(k->idle, k->blank_after_ms);
		seatkit_router_add_spy(k->router, input_seen, k);
	}
	if (k->start_blanked) {
		blank_screen(k);
	}
}

/* On the first output: long press, app switching. */
static void setup_output_gestures(struct kiosk *k) {
	k->long_press = seatkit_output_add_long_press_secondary_click(k->output, 600000, 10, secondary_click, k);
	k->switcher = seatkit_recognizer_create_swipe(k->router, "switch-app", SEATKIT_SWIPE_LEFT | SEATKIT_SWIPE_RIGHT, 3);
	seatkit_recognizer_set_callback(k->switcher, swipe_changed, k);
	seatkit_output_add_recognizer(k->output, k->switcher);
}

/* ---- Outputs ---- */

struct output {
	struct kiosk *kiosk;
	struct wlr_output *wlr_output;
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

/* An output went away (unplugged; its window closed on the x11 and wayland backends):
 * nothing may keep it. If it was the kiosk's screen, the idle timer is disarmed and stays
 * so (it would power the output off through a freed pointer). If the screen was blanked,
 * the wake filter still swallows the next input (SeatKit's policy has no call to un-blank).
 * Its SeatKit output stays, with the apps: another output is not adopted (hotplug is not
 * handled yet). */
static void output_destroy(struct wl_listener *listener, void *data) {
	struct output *output = wl_container_of(listener, output, destroy);
	struct kiosk *k = output->kiosk;
	say("output %s gone", output->wlr_output->name);
	osk_output_destroyed(k, output->wlr_output);
	if (k->wlr_output == output->wlr_output) {
		k->wlr_output = NULL;
		if (k->idle) {
			wl_event_source_timer_update(k->idle, 0);
		}
	}
	wl_list_remove(&output->frame.link);
	wl_list_remove(&output->destroy.link);
	free(output);
}

static void new_output(struct wl_listener *listener, void *data) {
	struct kiosk *k = wl_container_of(listener, k, new_output);
	struct wlr_output *wlr_output = data;
	wlr_output_init_render(wlr_output, k->allocator, k->renderer);
	struct wlr_output_mode *mode = wlr_output_preferred_mode(wlr_output);
	if (mode) {
		wlr_output_set_mode(wlr_output, mode);
	}
	wlr_output_enable(wlr_output, true);
	if (!wlr_output_commit(wlr_output)) {
		return;
	}
	struct output *output = calloc(1, sizeof *output);
	output->kiosk = k;
	output->wlr_output = wlr_output;
	output->frame.notify = output_frame;
	wl_signal_add(&wlr_output->events.frame, &output->frame);
	output->destroy.notify = output_destroy;
	wl_signal_add(&wlr_output->events.destroy, &output->destroy);
	wlr_output_layout_add_auto(k->output_layout, wlr_output);

	if (!k->output) {
		/* SeatKit's output: the same name, mode, transform, scale and place. */
		k->width = wlr_output->width;
		k->height = wlr_output->height;
		k->output = seatkit_output_create(k->router, wlr_output->name, 0, 0, wlr_output->width,
			wlr_output->height, (enum seatkit_output_transform)wlr_output->transform, wlr_output->scale);
		k->wlr_output = wlr_output;
		setup_output_gestures(k);
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
	}
	wlr_scene_node_raise_to_top(view->xdg.node);
	seatkit_surface_raise_to_top(view->surface);
	osk_raise(k);
	seatkit_router_set_first_responder(k->router, view->surface);
	seatkit_router_refresh_pointer_focus(k->router);
}

static void replay_finished(void *data, struct seatkit_replay *replay) {
	say("replay finished");
}

/* The app's SeatKit surface is its wl_surface where the scene draws it (the window
 * geometry's corner at the output's, so the wl_surface at minus the geometry's offset: the
 * bridge hands SeatKit's surface-local points to wlroots as they are), taking input only
 * inside its window geometry and its input region. An app smaller than the output
 * (weston-simple-touch stays 600x500 whatever it is asked) gets nothing outside its
 * window, nor does a toolkit's shadow. */
static void view_place(struct view *view) {
	struct wlr_surface *surface = view->xdg_surface->surface;
	struct wlr_box geometry;
	wlr_xdg_surface_get_geometry(view->xdg_surface, &geometry);
	struct seatkit_rect frame = { .x = -geometry.x, .y = -geometry.y,
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
}

/* A resize, a new window geometry or input region. */
static void view_commit(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, commit);
	if (view->surface) {
		view_place(view);
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
	view->xdg.surface = view->surface;
	focus_view(view);
	k->mapped++;
	say("mapped %s", view->xdg_surface->toplevel->app_id ? view->xdg_surface->toplevel->app_id : "(no app id)");
	if (k->replay && k->mapped == k->windows_before_replay) {
		say("replay started");
		seatkit_replay_play(k->replay, replay_finished, k);
	}
}

static void view_unmap(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, unmap);
	if (view->kiosk->current == view) {
		view->kiosk->current = NULL;
	}
	if (view->surface) {
		wl_list_remove(&view->commit.link);
		seatkit_surface_destroy(view->surface);
		view->surface = NULL;
		view->xdg.surface = NULL;
	}
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
	/* Fullscreen on the output. */
	wlr_xdg_toplevel_set_size(xdg_surface, k->width, k->height);
	wlr_xdg_toplevel_set_fullscreen(xdg_surface, true);
}

static void new_xdg_decoration(struct wl_listener *listener, void *data) {
	struct wlr_xdg_toplevel_decoration_v1 *decoration = data;
	wlr_xdg_toplevel_decoration_v1_set_mode(decoration, WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
}

/* ---- wlroots' own input devices (a real panel): the bridge feeds them to SeatKit ---- */

static void new_input(struct wl_listener *listener, void *data) {
	struct kiosk *k = wl_container_of(listener, k, new_input);
	struct wlr_input_device *device = data;
	/* Pointers, touchscreens and keyboards of any backend; a keyboard joins the seat's group
	 * with SeatKit's keymap. */
	if (!seatkit_wlr_seat_add_input_device(k->seat, device) && device->type == WLR_INPUT_DEVICE_KEYBOARD) {
		wlr_log(WLR_ERROR, "keyboard %s: not added to the seat", device->name);
	}
}

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
}

static void find_headless(struct wlr_backend *backend, void *data) {
	struct kiosk *k = data;
	if (wlr_backend_is_headless(backend)) {
		k->headless = backend;
	}
}

int main(int argc, char *argv[]) {
	struct kiosk k = { .windows_before_replay = 1 };
	const char *replay_path = NULL;
	const char *libinput_seat = NULL;
	int width = 1280, height = 720;
	static const struct option options[] = {
		{ "replay", required_argument, NULL, 'r' },
		{ "start-after-windows", required_argument, NULL, 'n' },
		{ "size", required_argument, NULL, 's' },
		{ "libinput", no_argument, NULL, 'l' },
		{ "seat", required_argument, NULL, 'e' },
		{ "blank-after", required_argument, NULL, 'b' },
		{ "start-blanked", no_argument, NULL, 'B' },
		{ 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 'r': replay_path = optarg; break;
		case 'n': k.windows_before_replay = atoi(optarg); break;
		case 's': sscanf(optarg, "%dx%d", &width, &height); break;
		case 'l': libinput_seat = libinput_seat ? libinput_seat : "seat0"; break;
		case 'e': libinput_seat = optarg; break;
		case 'b': k.blank_after_ms = atoi(optarg); break;
		case 'B': k.start_blanked = true; break;
		default:
			fprintf(stderr, "usage: %s [--replay FILE [--start-after-windows N] | --libinput [--seat NAME]] [--size WxH] [--blank-after MS] [--start-blanked]\n",
				argv[0]);
			return 2;
		}
	}
	wlr_log_init(WLR_ERROR, NULL);
	seatkit_log_init(SEATKIT_ERROR, (seatkit_log_func_t)_wlr_vlog);
	wl_list_init(&k.views);

	k.display = wl_display_create();
	k.backend = wlr_backend_autocreate(k.display);
	if (!k.backend) {
		fprintf(stderr, "kiosk: no wlroots backend\n");
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
	k.output_layout = wlr_output_layout_create();
	k.scene = wlr_scene_create();
	wlr_scene_attach_output_layout(k.scene, k.output_layout);

	/* SeatKit: the router on the display's event loop, the compositor as its delegate. */
	k.router = seatkit_router_create(wl_display_get_event_loop(k.display));
	seatkit_router_set_delegate(k.router, &delegate_impl, &k);
	setup_kiosk_behaviour(&k);
	k.wlr_seat = wlr_seat_create(k.display, "seat0");
	/* SeatKit routes, wlr_seat delivers: the bridge (destroyed with the wlr_seat). */
	k.seat = seatkit_wlr_seat_create(k.router, k.wlr_seat, k.output_layout);
	seatkit_wlr_seat_set_delivery_log(k.seat, delivered, &k);

	osk_init(&k); /* osk.c: layer shell, text-input-v3, input-method-v2 */

	k.new_output.notify = new_output;
	wl_signal_add(&k.backend->events.new_output, &k.new_output);
	k.new_input.notify = new_input;
	wl_signal_add(&k.backend->events.new_input, &k.new_input);
	k.xdg_shell = wlr_xdg_shell_create(k.display);
	k.new_xdg_surface.notify = new_xdg_surface;
	wl_signal_add(&k.xdg_shell->events.new_surface, &k.new_xdg_surface);
	wlr_server_decoration_manager_set_default_mode(wlr_server_decoration_manager_create(k.display),
		WLR_SERVER_DECORATION_MANAGER_MODE_SERVER);
	struct wlr_virtual_keyboard_manager_v1 *virtual_keyboards = wlr_virtual_keyboard_manager_v1_create(k.display);
	k.new_virtual_keyboard.notify = new_virtual_keyboard;
	wl_signal_add(&virtual_keyboards->events.new_virtual_keyboard, &k.new_virtual_keyboard);
	struct wlr_xdg_decoration_manager_v1 *decorations = wlr_xdg_decoration_manager_v1_create(k.display);
	k.new_xdg_decoration.notify = new_xdg_decoration;
	wl_signal_add(&decorations->events.new_toplevel_decoration, &k.new_xdg_decoration);

	setup_keymap(&k, "us");
	const char *socket = wl_display_add_socket_auto(k.display);
	if (!socket || !wlr_backend_start(k.backend)) {
		fprintf(stderr, "kiosk: cannot start\n");
		return 1;
	}
	if (k.headless && !k.output) {
		wlr_headless_add_output(k.headless, width, height);
	}
	add_headless_keyboard(&k);

	if (replay_path) {
		k.replay = seatkit_replay_create(k.router, replay_path, NULL);
		if (!k.replay) {
			fprintf(stderr, "kiosk: cannot replay %s\n", replay_path);
			return 1;
		}
		seatkit_replay_add_devices(k.replay);
	}
	if (libinput_seat) {
		/* SeatKit owns libinput: devices opened directly (a real session would pass
		 * libseat's open and close here). */
		struct seatkit_libinput *libinput = seatkit_libinput_create_udev(k.router, libinput_seat, NULL, NULL);
		if (!libinput || !seatkit_libinput_add_to_event_loop(libinput, wl_display_get_event_loop(k.display))) {
			fprintf(stderr, "kiosk: cannot read input devices on %s\n", libinput_seat);
			return 1;
		}
		seatkit_libinput_dispatch(libinput); /* the devices already there */
	}
	setenv("WAYLAND_DISPLAY", socket, true);
	say("listening on %s", socket);
	wl_display_run(k.display);

	wl_display_destroy_clients(k.display);
	seatkit_router_destroy(k.router);
	wl_display_destroy(k.display);
	return 0;
}
