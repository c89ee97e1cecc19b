/*
 * Popups (menus, dropdown lists, tooltips): each mapped xdg_popup is a SeatKit surface, a
 * child of its parent's (an app's or another popup's), placed where wlroots draws it, with
 * the wl_surface's input region, and the bridge as its responder (it never takes keyboard
 * focus: keys stay with the app, which forwards them to its menus).
 *
 * A popup that asked for a grab (xdg_popup.grab: menus do) gets SeatKit's popup grab while
 * mapped: input reaches the popup and its child popups only, and a press or touch anywhere
 * else dismisses it (wlr_xdg_popup_destroy sends popup_done) without reaching the app.
 * Nested popups (submenus) live inside the grabbing popup's subtree, so the first grab
 * covers them; only a popup whose parent is not a popup starts one.
 *
 * With --outputs extend an app has a SeatKit surface on each output (its slices, kiosk.c),
 * and so has each of its popups: a part on every other output, a child of the parent's
 * part there, in the same surface-local space, delivering to the same wl_surface. A menu
 * opened on the second output, or reaching across onto it, takes the pointer and touches
 * there; its grab is one over all its parts (seatkit_router_start_popup_grab_with_parts), so
 * a press outside every part dismisses it, on whichever output.
 */
#include <pixman.h>
#include <stdlib.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_surface.h>
#include "kiosk.h"

struct popup {
	struct kiosk_xdg xdg; /* first: xdg_surface->data */
	struct kiosk *kiosk;
	struct wlr_xdg_surface *xdg_surface;
	struct seatkit_grab *grab; /* SeatKit's popup grab, while mapped */
	bool unmapping;
	struct wl_listener map, unmap, destroy, commit;
};

/* The popup's wl_surface origin in its parent's wl_surface space (which is the parent's
 * SeatKit surface space: the bridge hands SeatKit's surface-local points to wlroots as
 * they are). xdg positions a popup against the parent's window geometry. */
static void place(struct popup *p) {
	struct wlr_xdg_surface *xdg = p->xdg_surface;
	struct wlr_xdg_surface *parent = wlr_xdg_surface_from_wlr_surface(xdg->popup->parent);
	double x = parent->current.geometry.x + xdg->popup->geometry.x - xdg->current.geometry.x;
	double y = parent->current.geometry.y + xdg->popup->geometry.y - xdg->current.geometry.y;
	struct wlr_surface *surface = xdg->surface;
	seatkit_surface_set_frame(p->xdg.surface, x, y, surface->current.width, surface->current.height);
	for (int i = 0; i < p->xdg.part_count; i++) {
		seatkit_surface_set_frame(p->xdg.parts[i], x, y, surface->current.width, surface->current.height);
	}
	/* The input region: toolkits leave their shadows out of it, so a tap on a shadow counts
	 * as outside (and dismisses). */
	int count = 0;
	pixman_box32_t *boxes = pixman_region32_rectangles(&surface->input_region, &count);
	struct seatkit_rect rects[16];
	if (count > 16) {
		count = 16; /* plenty for a menu; the rest accept no input */
	}
	for (int i = 0; i < count; i++) {
		rects[i] = (struct seatkit_rect){ .x = boxes[i].x1, .y = boxes[i].y1,
			.width = boxes[i].x2 - boxes[i].x1, .height = boxes[i].y2 - boxes[i].y1 };
	}
	seatkit_surface_set_input_region(p->xdg.surface, rects, (size_t)count);
	for (int i = 0; i < p->xdg.part_count; i++) {
		seatkit_surface_set_input_region(p->xdg.parts[i], rects, (size_t)count);
	}
}

static void popup_commit(struct wl_listener *listener, void *data) {
	struct popup *p = wl_container_of(listener, p, commit);
	if (p->xdg.surface) {
		place(p); /* a resize, a new input region, a reposition */
	}
}

/* SeatKit's popup grab ended: a press outside, or the popup went away. */
static void dismissed(void *data, struct seatkit_grab *grab) {
	struct popup *p = data;
	p->grab = NULL;
	if (!p->unmapping) {
		say("popup dismissed");
		wlr_xdg_popup_destroy(p->xdg_surface); /* popup_done: the app closes it */
	}
}

static void popup_map(struct wl_listener *listener, void *data) {
	struct popup *p = wl_container_of(listener, p, map);
	struct kiosk *k = p->kiosk;
	struct wlr_xdg_surface *parent = wlr_xdg_surface_from_wlr_surface(p->xdg_surface->popup->parent);
	struct kiosk_xdg *parent_xdg = parent->data;
	if (!parent_xdg || !parent_xdg->surface) {
		return; /* its parent is not shown: neither is it */
	}
	p->xdg.surface = seatkit_surface_create(k->router, "popup", 0, 0, 0, 0);
	/* Its parts on the other outputs, where its parent has one. */
	for (int i = 0; i < parent_xdg->part_count; i++) {
		p->xdg.parts[i] = seatkit_surface_create(k->router, "popup", 0, 0, 0, 0);
	}
	p->xdg.part_count = parent_xdg->part_count;
	place(p);
	seatkit_wlr_seat_attach_surface(k->seat, p->xdg.surface, p->xdg_surface->surface, 0);
	seatkit_surface_add_child(parent_xdg->surface, p->xdg.surface);
	for (int i = 0; i < p->xdg.part_count; i++) {
		seatkit_wlr_seat_attach_surface(k->seat, p->xdg.parts[i], p->xdg_surface->surface, 0);
		seatkit_surface_add_child(parent_xdg->parts[i], p->xdg.parts[i]);
	}
	/* While the session is locked, no popup grab: it would replace the lock's (lock.c). */
	bool grabbing = p->xdg_surface->popup->seat && parent->role != WLR_XDG_SURFACE_ROLE_POPUP &&
		!lock_is_locked(k);
	if (grabbing) {
		p->grab = seatkit_router_start_popup_grab_with_parts(k->router, p->xdg.surface,
			p->xdg.parts, (size_t)p->xdg.part_count, NULL, dismissed, p);
	}
	struct seatkit_rect frame;
	seatkit_surface_get_frame(p->xdg.surface, &frame);
	say("popup mapped at %.0f,%.0f %.0fx%.0f%s%s", frame.x, frame.y, frame.width, frame.height,
		p->grab ? " with a grab" : "", p->xdg.part_count > 0 ? " on every output" : "");
}

static void popup_unmap(struct wl_listener *listener, void *data) {
	struct popup *p = wl_container_of(listener, p, unmap);
	p->unmapping = true;
	if (p->grab) {
		seatkit_router_end_grab(p->kiosk->router, p->grab); /* dismissed() runs: no popup_done */
	}
	if (p->xdg.surface) {
		for (int i = 0; i < p->xdg.part_count; i++) {
			seatkit_surface_destroy(p->xdg.parts[i]);
		}
		p->xdg.part_count = 0;
		seatkit_surface_destroy(p->xdg.surface);
		p->xdg.surface = NULL;
		say("popup unmapped");
	}
	p->unmapping = false;
}

static void popup_destroy(struct wl_listener *listener, void *data) {
	struct popup *p = wl_container_of(listener, p, destroy);
	wl_list_remove(&p->map.link);
	wl_list_remove(&p->unmap.link);
	wl_list_remove(&p->destroy.link);
	wl_list_remove(&p->commit.link);
	free(p);
}

void popup_create(struct kiosk *k, struct wlr_xdg_surface *xdg_surface) {
	struct wlr_surface *parent_surface = xdg_surface->popup->parent;
	if (!parent_surface || !wlr_surface_is_xdg_surface(parent_surface)) {
		return; /* a layer surface's popup: none of this kiosk's panels has any */
	}
	struct wlr_xdg_surface *parent = wlr_xdg_surface_from_wlr_surface(parent_surface);
	struct kiosk_xdg *parent_xdg = parent->data;
	if (!parent_xdg) {
		return; /* a popup of a surface this kiosk does not show */
	}
	struct popup *p = calloc(1, sizeof *p);
	p->kiosk = k;
	p->xdg_surface = xdg_surface;
	/* Drawn above its parent, where xdg puts it. */
	p->xdg.node = wlr_scene_xdg_surface_create(parent_xdg->node, xdg_surface);
	xdg_surface->data = &p->xdg;
	/* Kept where apps are laid out: the box is in the toplevel's coordinates, and apps are
	 * fullscreen at its origin. */
	struct wlr_box box = { .x = 0, .y = 0, .width = k->app_width, .height = k->app_height };
	wlr_xdg_popup_unconstrain_from_box(xdg_surface->popup, &box);
	p->map.notify = popup_map;
	wl_signal_add(&xdg_surface->events.map, &p->map);
	p->unmap.notify = popup_unmap;
	wl_signal_add(&xdg_surface->events.unmap, &p->unmap);
	p->destroy.notify = popup_destroy;
	wl_signal_add(&xdg_surface->events.destroy, &p->destroy);
	p->commit.notify = popup_commit;
	wl_signal_add(&xdg_surface->surface->events.commit, &p->commit);
}

void popups_dismiss(struct wlr_xdg_surface *xdg_surface) {
	struct wlr_xdg_popup *popup, *next;
	wl_list_for_each_safe(popup, next, &xdg_surface->popups, link) {
		if (popup->base->mapped) {
			say("popup closed: the outputs changed");
		}
		wlr_xdg_popup_destroy(popup->base); /* its own popups first; popup_done */
	}
}
