/*
 * tiny-wlroots: a minimal wlroots 0.15 compositor, in the spirit of tinywl, in which SeatKit
 * does all of the input. xdg-shell toplevels (stacked, cascaded, click or tap to focus and
 * raise) and popups, drawn by wlr_scene; a cursor; keyboards, pointers and touchscreens of
 * any backend (x11, wayland, libinput on a session, headless). SeatKit's router decides
 * who gets every event; SeatKit's wlroots bridge (seatkit/seatkit-wlroots.h) feeds it from
 * wlroots' devices and delivers through wlr_seat. The input code is the part marked
 * "Input" below: compare tinywl's cursor, keyboard and seat handling (README.md).
 *
 *   tiny-wlroots [--log-deliveries] [--size WxH]
 *
 * Idle notifications (ext-idle-notify-v1: swayidle) and cursor shapes (cursor-shape-v1) are
 * the bridge's too, one call each: every input SeatKit's router sees is activity.
 *
 * It prints "listening on WAYLAND_DISPLAY", "mapped APP_ID" per toplevel, the bridge's
 * "idle notification ..." and "cursor shape NAME" lines and, with --log-deliveries,
 * "deliver ..." per event the bridge hands to wlroots. The headless
 * backend gets one output of --size (default 1280x720).
 */
#define _POSIX_C_SOURCE 200809L
#include <seatkit/seatkit-wlroots.h>
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
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

struct server {
	struct wl_display *display;
	struct wlr_backend *backend, *headless;
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_scene *scene;
	struct wlr_output_layout *layout;
	struct wlr_seat *seat;
	struct seatkit_router *router;
	struct seatkit_wlr_seat *bridge;
	struct seatkit_output *output; /* the first: windows live in its tree */
	struct wl_list views; /* front to back */
	int mapped;
	struct wl_listener new_output, new_input, new_xdg_surface;
};

/* What every xdg_surface's data points to: where its children draw and take input. */
struct xdg {
	struct wlr_scene_node *node;
	struct seatkit_surface *surface; /* NULL while unmapped */
};

struct view {
	struct xdg xdg; /* first */
	struct wl_list link;
	struct server *server;
	struct wlr_xdg_surface *xdg_surface;
	int x, y; /* the window's corner, layout space */
	struct wl_listener map, unmap, destroy, commit;
};

/* ---- Input: SeatKit (the whole of it, with focus_view and place below) ---- */

static void new_input(struct wl_listener *listener, void *data) {
	struct server *s = wl_container_of(listener, s, new_input);
	seatkit_wlr_seat_add_input_device(s->bridge, data);
}

static void focus_view(struct view *view);

/* Click or tap to focus: the window under a press comes to the front first. */
static void focus_on_press(void *data, const struct seatkit_input_event *event, bool consumed) {
	struct server *s = data;
	double lx = event->x, ly = event->y;
	if (event->type == SEATKIT_INPUT_POINTER_BUTTON && event->state == SEATKIT_BUTTON_PRESSED) {
		seatkit_router_get_pointer_location(s->router, &lx, &ly);
	} else if (event->type != SEATKIT_INPUT_TOUCH_DOWN || consumed) {
		return;
	}
	for (struct seatkit_surface *hit = seatkit_router_surface_at(s->router, lx, ly); hit;
			hit = seatkit_surface_get_parent(hit)) {
		struct view *view;
		wl_list_for_each(view, &s->views, link) {
			if (view->xdg.surface == hit) {
				focus_view(view);
				return;
			}
		}
	}
}

static void setup_input(struct server *s) {
	s->router = seatkit_router_create(wl_display_get_event_loop(s->display));
	s->bridge = seatkit_wlr_seat_create(s->router, s->seat, s->layout);
	struct seatkit_keymap *keymap = seatkit_keymap_create_from_names(NULL, NULL, NULL, NULL, NULL);
	seatkit_wlr_seat_set_keymap(s->bridge, keymap, 25, 600);
	seatkit_keymap_destroy(keymap);
	seatkit_wlr_seat_show_cursor(s->bridge, NULL, 24);
	seatkit_router_add_spy(s->router, focus_on_press, s);
	s->new_input.notify = new_input;
	wl_signal_add(&s->backend->events.new_input, &s->new_input);
}

/* A SeatKit surface is its wl_surface where the scene draws it, taking input where the
 * wl_surface does (its input region). */
static void place(struct seatkit_surface *surface, struct wlr_surface *wlr_surface, double x, double y) {
	seatkit_surface_set_frame(surface, x, y, wlr_surface->current.width, wlr_surface->current.height);
	int count = 0;
	pixman_box32_t *boxes = pixman_region32_rectangles(&wlr_surface->input_region, &count);
	struct seatkit_rect rects[16];
	for (int i = 0; i < count && i < 16; i++) {
		rects[i] = (struct seatkit_rect){ .x = boxes[i].x1, .y = boxes[i].y1,
			.width = boxes[i].x2 - boxes[i].x1, .height = boxes[i].y2 - boxes[i].y1 };
	}
	seatkit_surface_set_input_region(surface, rects, count < 16 ? (size_t)count : 16);
}

/* ---- Outputs ---- */

struct output {
	struct server *server;
	struct wlr_output *wlr_output;
	struct wl_listener frame, destroy;
};

static void output_frame(struct wl_listener *listener, void *data) {
	struct output *output = wl_container_of(listener, output, frame);
	struct wlr_scene_output *scene_output = wlr_scene_get_scene_output(output->server->scene, output->wlr_output);
	wlr_scene_output_commit(scene_output);
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	wlr_scene_output_send_frame_done(scene_output, &now);
}

static void output_destroy(struct wl_listener *listener, void *data) {
	struct output *output = wl_container_of(listener, output, destroy);
	wl_list_remove(&output->frame.link);
	wl_list_remove(&output->destroy.link);
	free(output);
}

static void new_output(struct wl_listener *listener, void *data) {
	struct server *s = wl_container_of(listener, s, new_output);
	struct wlr_output *wlr_output = data;
	wlr_output_init_render(wlr_output, s->allocator, s->renderer);
	struct wlr_output_mode *mode = wlr_output_preferred_mode(wlr_output);
	if (mode) {
		wlr_output_set_mode(wlr_output, mode);
	}
	wlr_output_enable(wlr_output, true);
	if (!wlr_output_commit(wlr_output)) {
		return;
	}
	struct output *output = calloc(1, sizeof *output);
	output->server = s;
	output->wlr_output = wlr_output;
	output->frame.notify = output_frame;
	wl_signal_add(&wlr_output->events.frame, &output->frame);
	output->destroy.notify = output_destroy;
	wl_signal_add(&wlr_output->events.destroy, &output->destroy);
	wlr_output_layout_add_auto(s->layout, wlr_output);
	/* SeatKit's output: the same name, place, mode, transform and scale. */
	struct wlr_box *box = wlr_output_layout_get_box(s->layout, wlr_output);
	struct seatkit_output *sk = seatkit_output_create(s->router, wlr_output->name, box->x, box->y,
		wlr_output->width, wlr_output->height, (enum seatkit_output_transform)wlr_output->transform, wlr_output->scale);
	if (!s->output) {
		s->output = sk;
	}
}

/* ---- Windows ---- */

static void focus_view(struct view *view) {
	struct server *s = view->server;
	struct view *front = wl_list_empty(&s->views) ? NULL : wl_container_of(s->views.next, front, link);
	if (front && front != view) {
		wlr_xdg_toplevel_set_activated(front->xdg_surface, false);
	}
	wl_list_remove(&view->link);
	wl_list_insert(&s->views, &view->link);
	wlr_scene_node_raise_to_top(view->xdg.node);
	seatkit_surface_raise_to_top(view->xdg.surface);
	wlr_xdg_toplevel_set_activated(view->xdg_surface, true);
	seatkit_router_set_first_responder(s->router, view->xdg.surface);
}

/* The window's corner at (x, y): its wl_surface at minus the window geometry's offset. */
static void view_place(struct view *view) {
	struct wlr_box geometry;
	wlr_xdg_surface_get_geometry(view->xdg_surface, &geometry);
	double lx, ly, width, height;
	seatkit_output_get_layout_box(view->server->output, &lx, &ly, &width, &height);
	place(view->xdg.surface, view->xdg_surface->surface, view->x - lx - geometry.x, view->y - ly - geometry.y);
}

static void view_commit(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, commit);
	view_place(view);
}

static void view_map(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, map);
	struct server *s = view->server;
	if (!s->output) {
		return;
	}
	const char *app_id = view->xdg_surface->toplevel->app_id;
	view->x = 40 * (s->mapped % 8);
	view->y = 30 * (s->mapped % 8);
	s->mapped++;
	wlr_scene_node_set_position(view->xdg.node, view->x, view->y);
	view->xdg.surface = seatkit_surface_create(s->router, app_id ? app_id : "window", 0, 0, 0, 0);
	view_place(view);
	seatkit_wlr_seat_attach_surface(s->bridge, view->xdg.surface, view->xdg_surface->surface,
		SEATKIT_WLR_SURFACE_FOCUSABLE);
	seatkit_surface_add_child(seatkit_output_get_root(s->output), view->xdg.surface);
	view->commit.notify = view_commit;
	wl_signal_add(&view->xdg_surface->surface->events.commit, &view->commit);
	focus_view(view);
	printf("mapped %s\n", app_id ? app_id : "(no app id)");
	fflush(stdout);
}

static void view_unmap(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, unmap);
	if (view->xdg.surface) {
		wl_list_remove(&view->commit.link);
		seatkit_surface_destroy(view->xdg.surface);
		view->xdg.surface = NULL;
	}
	struct view *next; /* the keyboard goes to the next window */
	wl_list_for_each(next, &view->server->views, link) {
		if (next->xdg.surface) {
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

/* A popup: a SeatKit child of its parent's surface, placed as xdg-shell places it. */
struct popup {
	struct xdg xdg; /* first */
	struct wlr_xdg_surface *xdg_surface;
	struct seatkit_router *router;
	struct seatkit_wlr_seat *bridge;
	struct wl_listener map, unmap, destroy, commit;
};

static void popup_place(struct popup *p) {
	struct wlr_xdg_surface *parent = wlr_xdg_surface_from_wlr_surface(p->xdg_surface->popup->parent);
	place(p->xdg.surface, p->xdg_surface->surface,
		parent->current.geometry.x + p->xdg_surface->popup->geometry.x - p->xdg_surface->current.geometry.x,
		parent->current.geometry.y + p->xdg_surface->popup->geometry.y - p->xdg_surface->current.geometry.y);
}

static void popup_commit(struct wl_listener *listener, void *data) {
	struct popup *p = wl_container_of(listener, p, commit);
	if (p->xdg.surface) {
		popup_place(p);
	}
}

static void popup_map(struct wl_listener *listener, void *data) {
	struct popup *p = wl_container_of(listener, p, map);
	struct xdg *parent = wlr_xdg_surface_from_wlr_surface(p->xdg_surface->popup->parent)->data;
	if (parent && parent->surface) {
		p->xdg.surface = seatkit_surface_create(p->router, "popup", 0, 0, 0, 0);
		popup_place(p);
		seatkit_wlr_seat_attach_surface(p->bridge, p->xdg.surface, p->xdg_surface->surface, 0);
		seatkit_surface_add_child(parent->surface, p->xdg.surface);
	}
}

static void popup_unmap(struct wl_listener *listener, void *data) {
	struct popup *p = wl_container_of(listener, p, unmap);
	if (p->xdg.surface) {
		seatkit_surface_destroy(p->xdg.surface);
		p->xdg.surface = NULL;
	}
}

static void popup_destroy(struct wl_listener *listener, void *data) {
	struct popup *p = wl_container_of(listener, p, destroy);
	wl_list_remove(&p->map.link);
	wl_list_remove(&p->unmap.link);
	wl_list_remove(&p->destroy.link);
	wl_list_remove(&p->commit.link);
	free(p);
}

static void new_xdg_surface(struct wl_listener *listener, void *data) {
	struct server *s = wl_container_of(listener, s, new_xdg_surface);
	struct wlr_xdg_surface *xdg_surface = data;
	if (xdg_surface->role == WLR_XDG_SURFACE_ROLE_POPUP) {
		struct xdg *parent = wlr_xdg_surface_from_wlr_surface(xdg_surface->popup->parent)->data;
		struct popup *p = calloc(1, sizeof *p);
		*p = (struct popup){ .xdg_surface = xdg_surface, .router = s->router, .bridge = s->bridge,
			.xdg.node = wlr_scene_xdg_surface_create(parent->node, xdg_surface) };
		xdg_surface->data = &p->xdg;
		p->map.notify = popup_map;
		wl_signal_add(&xdg_surface->events.map, &p->map);
		p->unmap.notify = popup_unmap;
		wl_signal_add(&xdg_surface->events.unmap, &p->unmap);
		p->destroy.notify = popup_destroy;
		wl_signal_add(&xdg_surface->events.destroy, &p->destroy);
		p->commit.notify = popup_commit;
		wl_signal_add(&xdg_surface->surface->events.commit, &p->commit);
		return;
	}
	if (xdg_surface->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) {
		return;
	}
	struct view *view = calloc(1, sizeof *view);
	view->server = s;
	view->xdg_surface = xdg_surface;
	view->xdg.node = wlr_scene_xdg_surface_create(&s->scene->node, xdg_surface);
	xdg_surface->data = &view->xdg;
	view->map.notify = view_map;
	wl_signal_add(&xdg_surface->events.map, &view->map);
	view->unmap.notify = view_unmap;
	wl_signal_add(&xdg_surface->events.unmap, &view->unmap);
	view->destroy.notify = view_destroy;
	wl_signal_add(&xdg_surface->events.destroy, &view->destroy);
	wl_list_insert(s->views.prev, &view->link);
}

static void log_line(void *data, const char *line) {
	printf("deliver %s\n", line);
	fflush(stdout);
}

static void print_line(void *data, const char *line) {
	printf("%s\n", line);
	fflush(stdout);
}

static void find_headless(struct wlr_backend *backend, void *data) {
	struct server *s = data;
	if (wlr_backend_is_headless(backend)) {
		s->headless = backend;
	}
}

int main(int argc, char *argv[]) {
	bool log_deliveries = false;
	int width = 1280, height = 720;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--log-deliveries") == 0) {
			log_deliveries = true;
		} else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
			sscanf(argv[++i], "%dx%d", &width, &height);
		} else {
			fprintf(stderr, "usage: %s [--log-deliveries] [--size WxH]\n", argv[0]);
			return 2;
		}
	}
	wlr_log_init(WLR_ERROR, NULL);
	seatkit_log_init(SEATKIT_ERROR, (seatkit_log_func_t)_wlr_vlog);
	struct server s = { 0 };
	wl_list_init(&s.views);
	s.display = wl_display_create();
	s.backend = wlr_backend_autocreate(s.display);
	if (!s.backend) {
		fprintf(stderr, "tiny-wlroots: no backend\n");
		return 1;
	}
	if (wlr_backend_is_multi(s.backend)) {
		wlr_multi_for_each_backend(s.backend, find_headless, &s);
	}
	s.renderer = wlr_renderer_autocreate(s.backend);
	wlr_renderer_init_wl_display(s.renderer, s.display);
	s.allocator = wlr_allocator_autocreate(s.backend, s.renderer);
	wlr_compositor_create(s.display, s.renderer);
	wlr_data_device_manager_create(s.display);
	s.layout = wlr_output_layout_create();
	s.scene = wlr_scene_create();
	wlr_scene_attach_output_layout(s.scene, s.layout);
	s.seat = wlr_seat_create(s.display, "seat0");

	setup_input(&s);
	/* Protocols wlroots 0.15 lacks, from the bridge: swayidle's idle notifications, fed by
	 * SeatKit's router, and clients' named cursors, drawn by the bridge's cursor. */
	seatkit_wlr_idle_notifier_set_log(seatkit_wlr_idle_notifier_create(s.display, s.router), print_line, NULL);
	seatkit_wlr_cursor_shape_manager_set_log(seatkit_wlr_cursor_shape_manager_create(s.display, s.bridge),
		print_line, NULL);
	if (log_deliveries) {
		seatkit_wlr_seat_set_delivery_log(s.bridge, log_line, NULL);
	}

	s.new_output.notify = new_output;
	wl_signal_add(&s.backend->events.new_output, &s.new_output);
	struct wlr_xdg_shell *xdg_shell = wlr_xdg_shell_create(s.display);
	s.new_xdg_surface.notify = new_xdg_surface;
	wl_signal_add(&xdg_shell->events.new_surface, &s.new_xdg_surface);

	const char *socket = wl_display_add_socket_auto(s.display);
	if (!socket || !wlr_backend_start(s.backend)) {
		fprintf(stderr, "tiny-wlroots: cannot start\n");
		return 1;
	}
	if (s.headless && !s.output) {
		wlr_headless_add_output(s.headless, width, height);
	}
	setenv("WAYLAND_DISPLAY", socket, true);
	printf("listening on %s\n", socket);
	fflush(stdout);
	wl_display_run(s.display);

	wl_display_destroy_clients(s.display);
	seatkit_router_destroy(s.router);
	wl_display_destroy(s.display);
	return 0;
}
