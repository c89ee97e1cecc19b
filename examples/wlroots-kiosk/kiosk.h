/*
 * What kiosk.c, popups.c and osk.c share: the kiosk, its apps (views), and what an
 * xdg_surface's `data` points to.
 */
#ifndef KIOSK_H
#define KIOSK_H

#include <seatkit/seatkit.h>
#include <seatkit/seatkit-replay.h> /* --replay: a test kiosk; production compositors do not link it */
#include <stdbool.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <seatkit/seatkit-wlroots.h>

struct kiosk {
	struct wl_display *display;
	struct wlr_backend *backend;
	struct wlr_backend *headless; /* when running headless: where virtual devices come from */
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_scene *scene;
	struct wlr_output_layout *output_layout;
	struct wlr_xdg_shell *xdg_shell;
	struct wlr_seat *wlr_seat;
	struct seatkit_wlr_seat *seat; /* SeatKit's bridge to wlr_seat */

	struct seatkit_router *router;
	struct seatkit_output *output; /* the first output: apps go fullscreen on it */
	struct wlr_output *wlr_output;
	struct view *current; /* the app shown */

	/* Kiosk behaviour (see the top of kiosk.c). */
	struct seatkit_kiosk_policy *wake, *cursor, *long_press;
	struct seatkit_recognizer *switcher;
	struct wl_event_source *idle;
	int blank_after_ms;
	bool start_blanked;
	int width, height;
	struct wl_list views;

	struct seatkit_replay *replay;
	int windows_before_replay;
	int mapped;

	struct wl_listener new_output, new_input, new_xdg_surface, new_virtual_keyboard;
	struct wl_listener new_xdg_decoration;

	struct wl_listener new_layer_surface; /* osk.c */
	struct wl_list panels; /* osk.c: layer-shell surfaces (an on-screen keyboard) */
	struct osk_relay *relay; /* osk.c: text-input-v3 <-> input-method-v2 */
};

/* What every xdg_surface's `data` points to, so a popup finds its parent's scene node (to
 * draw above it) and SeatKit surface (to be its child). */
struct kiosk_xdg {
	struct wlr_scene_node *node;
	struct seatkit_surface *surface; /* NULL while unmapped */
};

struct view {
	struct kiosk_xdg xdg; /* first: xdg_surface->data */
	struct wl_list link;
	struct kiosk *kiosk;
	struct wlr_xdg_surface *xdg_surface;
	struct seatkit_surface *surface; /* SeatKit's surface for the app: its wl_surface, where drawn */
	/* What the surface was last given (set again only when it changes). */
	struct seatkit_rect frame;
	struct seatkit_rect input[16];
	size_t input_count;
	struct wl_listener map, unmap, destroy, commit;
};

/* kiosk.c */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* popups.c: an xdg_popup becomes a SeatKit surface while mapped. */
void popup_create(struct kiosk *k, struct wlr_xdg_surface *xdg_surface);

/* osk.c: layer-shell surfaces (an on-screen keyboard) and the text-input relay. */
void osk_init(struct kiosk *k);
/* Puts the panels back above the apps (after an app is raised). */
void osk_raise(struct kiosk *k);
/* Closes the panels on an output that is going away (layer-shell's `closed`). */
void osk_output_destroyed(struct kiosk *k, struct wlr_output *output);

#endif
