/*
 * ext-session-lock-v1 (wlroots 0.15 has no helper; the protocol is generated from Debian
 * 12's staging XML): a lock screen (swaylock) hides the session and takes all input.
 *
 *  - Hidden: a black curtain over every output, above the apps, popups and panels, with
 *    each lock surface above it where its output is. The curtain hides everything at once,
 *    so `locked` is sent when the lock is made.
 *  - All input, through SeatKit: one SeatKit grab holds the pointer, touch and keyboard
 *    (the keyboard's with CLEAR focus: the app is sent leave). It runs after SeatKit's
 *    filters (the wake filter, accessibility) and before any recognizer or responder, so
 *    nothing of the session sees input: pointer input goes only to the lock surface under
 *    the pointer, a touch only if it lands on one, keys only to a lock surface (made the
 *    first responder). Virtual pointers and keyboards are routed by SeatKit like any
 *    device, so they too reach the lock screen and nothing else. While locked, the
 *    app-switch swipe is off, popups get no grab of their own (it would replace this one),
 *    and the kiosk gives no app keyboard focus.
 *  - The lock's rules: a second lock while one is active is told `finished`; if the lock
 *    screen dies without unlocking, the session stays locked (and a new lock screen may
 *    take over); unlock_and_destroy ends the grab, drops the curtain and gives the shown
 *    app its focus back.
 *
 * Prints "session locked", "lock surface shown on NAME", "session unlocked", "session lock
 * abandoned: still locked", "session lock refused: already locked".
 */
#include <stdlib.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_surface.h>
#include "ext-session-lock-v1-protocol.h"
#include "kiosk.h"

struct kiosk_lock {
	struct kiosk *kiosk;
	bool locked; /* the session: from `lock` to unlock_and_destroy, whoever holds it */
	struct session_lock *owner; /* the lock object in charge; NULL when abandoned */
	struct seatkit_grab *grab;
	struct wlr_scene_rect *curtain;
	struct wlr_scene_tree *tree; /* the lock surfaces, above the curtain */
};

struct session_lock {
	struct kiosk_lock *state;
	struct wl_resource *resource;
	bool active; /* sent `locked` (not `finished`) */
	struct wl_list surfaces; /* struct lock_surface::link */
};

struct lock_surface {
	struct wl_list link;
	struct session_lock *lock; /* NULL once its lock object is gone */
	struct wl_resource *resource;
	struct wlr_surface *surface;
	struct wlr_output *output;
	struct wlr_scene_node *node; /* while shown */
	struct seatkit_surface *sk; /* while shown on an output SeatKit routes to */
	uint32_t configure_serial;
	int width, height; /* as configured */
	bool acked;
	struct wl_listener surface_destroy, output_destroy;
};

static const struct wlr_surface_role lock_surface_role;

/* ---- The lock surfaces ---- */

static void hide_surface(struct lock_surface *ls) {
	if (ls->sk) {
		seatkit_surface_destroy(ls->sk);
		ls->sk = NULL;
	}
	if (ls->node) {
		wlr_scene_node_destroy(ls->node);
		ls->node = NULL;
	}
}

/* Makes the lock surface inert: no longer shown, its wl_surface and output forgotten. */
static void forget_surface(struct lock_surface *ls) {
	hide_surface(ls);
	if (ls->surface) {
		ls->surface->role_data = NULL;
		wl_list_remove(&ls->surface_destroy.link);
		ls->surface = NULL;
	}
	if (ls->output) {
		wl_list_remove(&ls->output_destroy.link);
		ls->output = NULL;
	}
	if (ls->lock) {
		wl_list_remove(&ls->link);
		ls->lock = NULL;
	}
}

static void lock_surface_resource_destroy(struct wl_resource *resource) {
	struct lock_surface *ls = wl_resource_get_user_data(resource);
	forget_surface(ls);
	free(ls);
}

static void handle_surface_destroy(struct wl_listener *listener, void *data) {
	struct lock_surface *ls = wl_container_of(listener, ls, surface_destroy);
	forget_surface(ls);
}

static void handle_output_destroy(struct wl_listener *listener, void *data) {
	struct lock_surface *ls = wl_container_of(listener, ls, output_destroy);
	hide_surface(ls);
	wl_list_remove(&ls->output_destroy.link);
	ls->output = NULL;
}

/* The lock surface the keyboard goes to: the one on the kiosk's screen, or any shown. */
static struct lock_surface *key_surface(struct kiosk_lock *state) {
	struct lock_surface *ls, *found = NULL;
	if (!state->owner) {
		return NULL;
	}
	wl_list_for_each(ls, &state->owner->surfaces, link) {
		if (ls->sk && (!found || ls->output == state->kiosk->wlr_output)) {
			found = ls;
		}
	}
	return found;
}

static bool is_lock_surface(struct kiosk_lock *state, struct seatkit_surface *surface) {
	struct lock_surface *ls;
	if (!surface || !state->owner) {
		return false;
	}
	wl_list_for_each(ls, &state->owner->surfaces, link) {
		if (ls->sk == surface) {
			return true;
		}
	}
	return false;
}

static void show_surface(struct lock_surface *ls) {
	struct kiosk_lock *state = ls->lock->state;
	struct kiosk *k = state->kiosk;
	struct wlr_box *box = ls->output ? wlr_output_layout_get_box(k->output_layout, ls->output) : NULL;
	if (!box) {
		return; /* an output the kiosk does not show (not in the layout) */
	}
	ls->node = wlr_scene_subsurface_tree_create(&state->tree->node, ls->surface);
	wlr_scene_node_set_position(ls->node, box->x, box->y);
	struct seatkit_output *output = kiosk_seatkit_output(k, ls->output);
	if (output) {
		ls->sk = seatkit_surface_create(k->router, "lock", 0, 0, ls->width, ls->height);
		seatkit_surface_add_child(seatkit_output_get_root(output), ls->sk);
		seatkit_wlr_seat_attach_surface(k->seat, ls->sk, ls->surface, SEATKIT_WLR_SURFACE_FOCUSABLE);
		if (key_surface(state) == ls) {
			seatkit_router_set_first_responder(k->router, ls->sk);
		}
		seatkit_router_refresh_pointer_focus(k->router);
	}
	say("lock surface shown on %s", ls->output->name);
}

static void lock_surface_commit(struct wlr_surface *surface) {
	struct lock_surface *ls = surface->role_data;
	if (!ls || !ls->lock) {
		return;
	}
	if (!ls->acked) {
		wl_resource_post_error(ls->resource, EXT_SESSION_LOCK_SURFACE_V1_ERROR_COMMIT_BEFORE_FIRST_ACK,
			"committed before the first ack_configure");
		return;
	}
	if (!wlr_surface_has_buffer(surface)) {
		wl_resource_post_error(ls->resource, EXT_SESSION_LOCK_SURFACE_V1_ERROR_NULL_BUFFER, "a null buffer");
		return;
	}
	if (surface->current.width != ls->width || surface->current.height != ls->height) {
		wl_resource_post_error(ls->resource, EXT_SESSION_LOCK_SURFACE_V1_ERROR_DIMENSIONS_MISMATCH,
			"%dx%d, configured %dx%d", surface->current.width, surface->current.height, ls->width, ls->height);
		return;
	}
	if (!ls->node && ls->output) {
		show_surface(ls);
	}
}

static const struct wlr_surface_role lock_surface_role = {
	.name = "ext_session_lock_surface_v1",
	.commit = lock_surface_commit,
};

static void lock_surface_ack_configure(struct wl_client *client, struct wl_resource *resource, uint32_t serial) {
	struct lock_surface *ls = wl_resource_get_user_data(resource);
	if (serial != ls->configure_serial) {
		wl_resource_post_error(resource, EXT_SESSION_LOCK_SURFACE_V1_ERROR_INVALID_SERIAL,
			"serial %u was never sent", serial);
		return;
	}
	ls->acked = true;
}

static void destroy_resource(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static const struct ext_session_lock_surface_v1_interface lock_surface_impl = {
	.destroy = destroy_resource,
	.ack_configure = lock_surface_ack_configure,
};

/* ---- The grab: all input to the lock screen, none elsewhere ---- */

/* The lock surfaces above everything SeatKit hit-tests (a panel raised meanwhile). */
static void raise_surfaces(struct kiosk_lock *state) {
	struct lock_surface *ls;
	if (state->owner) {
		wl_list_for_each(ls, &state->owner->surfaces, link) {
			if (ls->sk) {
				seatkit_surface_raise_to_top(ls->sk);
			}
		}
	}
}

/* The lock surface at a layout-space point, or NULL. */
static struct seatkit_surface *lock_surface_at(struct kiosk_lock *state, double x, double y) {
	raise_surfaces(state);
	struct seatkit_surface *hit = seatkit_router_surface_at(state->kiosk->router, x, y);
	return is_lock_surface(state, hit) ? hit : NULL;
}

static void grab_pointer_motion(void *data, struct seatkit_grab *grab, const struct seatkit_pointer_motion_event *event) {
	struct kiosk_lock *state = data;
	struct seatkit_router *router = state->kiosk->router;
	struct seatkit_surface *target = lock_surface_at(state, event->x, event->y);
	if (seatkit_router_get_pointer_focus(router) != target) {
		seatkit_router_set_pointer_focus(router, target, event->time_usec);
	}
	if (target) {
		seatkit_router_send_pointer_motion(router, event, target);
	}
}

static void grab_pointer_button(void *data, struct seatkit_grab *grab, const struct seatkit_pointer_button_event *event) {
	struct kiosk_lock *state = data;
	struct seatkit_surface *focus = seatkit_router_get_pointer_focus(state->kiosk->router);
	if (is_lock_surface(state, focus)) {
		seatkit_router_send_pointer_button(state->kiosk->router, event, focus);
	}
}

static void grab_pointer_axis(void *data, struct seatkit_grab *grab, const struct seatkit_pointer_axis_event *event) {
	struct kiosk_lock *state = data;
	struct seatkit_surface *focus = seatkit_router_get_pointer_focus(state->kiosk->router);
	if (is_lock_surface(state, focus)) {
		seatkit_router_send_pointer_axis(state->kiosk->router, event, focus);
	}
}

static void grab_touchpad_gesture(void *data, struct seatkit_grab *grab,
		const struct seatkit_touchpad_gesture_event *event) {
	/* Swallowed: a lock screen has no use for them, and no one else may have them. */
}

/* A touch down that lands on a lock surface is routed (SeatKit binds it there; its motion,
 * up and frames follow it); any other belongs to the grab, and no one sees it. */
static void grab_touch_down(void *data, struct seatkit_grab *grab, const struct seatkit_input_event *event) {
	struct kiosk_lock *state = data;
	if (lock_surface_at(state, event->x, event->y)) {
		seatkit_router_route_touch(state->kiosk->router, event);
	}
}

static void grab_touch_rest(void *data, struct seatkit_grab *grab, const struct seatkit_input_event *event) {
	struct kiosk_lock *state = data;
	/* Ignored by SeatKit unless it routed the touch's down. */
	seatkit_router_route_touch(state->kiosk->router, event);
}

static void grab_key(void *data, struct seatkit_grab *grab, const struct seatkit_key_event *event) {
	struct kiosk_lock *state = data;
	struct seatkit_router *router = state->kiosk->router;
	struct lock_surface *ls = key_surface(state);
	if (!ls) {
		return; /* no lock surface (abandoned, or not shown yet): the key reaches no one */
	}
	if (seatkit_router_get_first_responder(router) != ls->sk) {
		seatkit_router_set_first_responder(router, ls->sk);
	}
	seatkit_router_send_key(router, event);
}

static void grab_cancel(void *data, struct seatkit_grab *grab) {
}

static const struct seatkit_grab_interface grab_impl = {
	.struct_size = sizeof(struct seatkit_grab_interface),
	.pointer_motion = grab_pointer_motion,
	.pointer_button = grab_pointer_button,
	.pointer_axis = grab_pointer_axis,
	.touchpad_gesture = grab_touchpad_gesture,
	.touch_down = grab_touch_down,
	.touch_motion = grab_touch_rest,
	.touch_up = grab_touch_rest,
	.touch_cancel = grab_touch_rest,
	.touch_frame = grab_touch_rest,
	.key = grab_key,
	.cancel = grab_cancel,
};

/* ---- Locking and unlocking the session ---- */

static void lock_session(struct kiosk_lock *state) {
	struct kiosk *k = state->kiosk;
	state->locked = true;
	/* Bigger than any layout: whatever the outputs, all of it is hidden. */
	const float black[4] = { 0, 0, 0, 1 };
	state->curtain = wlr_scene_rect_create(&k->scene->node, 1 << 16, 1 << 16, black);
	wlr_scene_node_set_position(&state->curtain->node, -(1 << 15), -(1 << 15));
	state->tree = wlr_scene_tree_create(&k->scene->node);
	state->grab = seatkit_grab_create(k->router, &grab_impl, state);
	seatkit_router_start_pointer_grab(k->router, state->grab);
	seatkit_router_start_touch_grab(k->router, state->grab);
	seatkit_router_start_keyboard_grab_with_focus(k->router, state->grab, SEATKIT_KEYBOARD_GRAB_CLEAR_FOCUS);
	seatkit_router_set_pointer_focus(k->router, NULL, seatkit_router_get_time(k->router));
	if (k->switcher) {
		seatkit_recognizer_set_enabled(k->switcher, false);
	}
	say("session locked");
}

static void unlock_session(struct kiosk_lock *state) {
	struct kiosk *k = state->kiosk;
	state->locked = false;
	seatkit_grab_destroy(state->grab);
	state->grab = NULL;
	wlr_scene_node_destroy(&state->curtain->node);
	state->curtain = NULL;
	wlr_scene_node_destroy(&state->tree->node); /* the lock surfaces' nodes with it */
	state->tree = NULL;
	if (k->switcher) {
		seatkit_recognizer_set_enabled(k->switcher, true);
	}
	say("session unlocked");
	kiosk_refocus(k);
}

static void session_lock_resource_destroy(struct wl_resource *resource) {
	struct session_lock *lock = wl_resource_get_user_data(resource);
	struct lock_surface *ls, *tmp;
	wl_list_for_each_safe(ls, tmp, &lock->surfaces, link) {
		forget_surface(ls);
	}
	struct kiosk_lock *state = lock->state;
	if (state && state->owner == lock) {
		/* Gone without unlocking (the lock screen crashed or was killed): the session
		 * stays locked; another lock screen may take over. */
		state->owner = NULL;
		say("session lock abandoned: still locked");
	}
	free(lock);
}

static void session_lock_destroy(struct wl_client *client, struct wl_resource *resource) {
	struct session_lock *lock = wl_resource_get_user_data(resource);
	if (lock->active && lock->state && lock->state->owner == lock) {
		wl_resource_post_error(resource, EXT_SESSION_LOCK_V1_ERROR_INVALID_DESTROY,
			"destroyed while locked: unlock_and_destroy unlocks");
		return;
	}
	wl_resource_destroy(resource);
}

static void session_lock_unlock(struct wl_client *client, struct wl_resource *resource) {
	struct session_lock *lock = wl_resource_get_user_data(resource);
	if (!lock->active) {
		wl_resource_post_error(resource, EXT_SESSION_LOCK_V1_ERROR_INVALID_UNLOCK, "never locked");
		return;
	}
	struct kiosk_lock *state = lock->state;
	if (state->owner == lock) {
		state->owner = NULL;
		struct lock_surface *ls, *tmp;
		wl_list_for_each_safe(ls, tmp, &lock->surfaces, link) {
			forget_surface(ls);
		}
		unlock_session(state);
	}
	wl_resource_destroy(resource);
}

static void session_lock_get_surface(struct wl_client *client, struct wl_resource *resource, uint32_t id,
		struct wl_resource *surface_resource, struct wl_resource *output_resource) {
	struct session_lock *lock = wl_resource_get_user_data(resource);
	struct wlr_surface *surface = wlr_surface_from_resource(surface_resource);
	struct wlr_output *output = wlr_output_from_resource(output_resource);
	struct lock_surface *ls = calloc(1, sizeof *ls);
	struct wl_resource *made = wl_resource_create(client, &ext_session_lock_surface_v1_interface,
		wl_resource_get_version(resource), id);
	if (!ls || !made) {
		free(ls);
		wl_client_post_no_memory(client);
		return;
	}
	ls->resource = made;
	wl_resource_set_implementation(made, &lock_surface_impl, ls, lock_surface_resource_destroy);
	wl_list_init(&ls->link);
	if (!lock->active || lock->state->owner != lock) {
		return; /* a finished lock's: inert */
	}
	if (wlr_surface_has_buffer(surface)) {
		wl_resource_post_error(resource, EXT_SESSION_LOCK_V1_ERROR_ALREADY_CONSTRUCTED, "the surface has a buffer");
		return;
	}
	struct lock_surface *other;
	wl_list_for_each(other, &lock->surfaces, link) {
		if (output && other->output == output) {
			wl_resource_post_error(resource, EXT_SESSION_LOCK_V1_ERROR_DUPLICATE_OUTPUT,
				"a lock surface for %s already", output->name);
			return;
		}
	}
	if (!wlr_surface_set_role(surface, &lock_surface_role, ls, resource, EXT_SESSION_LOCK_V1_ERROR_ROLE)) {
		return;
	}
	ls->lock = lock;
	wl_list_insert(lock->surfaces.prev, &ls->link);
	ls->surface = surface;
	ls->surface_destroy.notify = handle_surface_destroy;
	wl_signal_add(&surface->events.destroy, &ls->surface_destroy);
	if (!output) {
		return; /* an inert wl_output: never configured, never shown */
	}
	ls->output = output;
	ls->output_destroy.notify = handle_output_destroy;
	wl_signal_add(&output->events.destroy, &ls->output_destroy);
	wlr_output_effective_resolution(output, &ls->width, &ls->height);
	ls->configure_serial = wl_display_next_serial(lock->state->kiosk->display);
	ext_session_lock_surface_v1_send_configure(made, ls->configure_serial, (uint32_t)ls->width, (uint32_t)ls->height);
}

static const struct ext_session_lock_v1_interface session_lock_impl = {
	.destroy = session_lock_destroy,
	.get_lock_surface = session_lock_get_surface,
	.unlock_and_destroy = session_lock_unlock,
};

static void manager_lock(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	struct kiosk_lock *state = wl_resource_get_user_data(resource);
	struct session_lock *lock = calloc(1, sizeof *lock);
	struct wl_resource *made = wl_resource_create(client, &ext_session_lock_v1_interface,
		wl_resource_get_version(resource), id);
	if (!lock || !made) {
		free(lock);
		wl_client_post_no_memory(client);
		return;
	}
	lock->state = state;
	lock->resource = made;
	wl_list_init(&lock->surfaces);
	wl_resource_set_implementation(made, &session_lock_impl, lock, session_lock_resource_destroy);
	if (state->owner) {
		ext_session_lock_v1_send_finished(made);
		say("session lock refused: already locked");
		return;
	}
	/* Locks the session, or takes over one whose lock screen went. */
	state->owner = lock;
	lock->active = true;
	if (!state->locked) {
		lock_session(state);
	}
	ext_session_lock_v1_send_locked(made);
}

static const struct ext_session_lock_manager_v1_interface manager_impl = {
	.destroy = destroy_resource,
	.lock = manager_lock,
};

static void bind_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *resource = wl_resource_create(client, &ext_session_lock_manager_v1_interface, version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

void lock_init(struct kiosk *k) {
	struct kiosk_lock *state = calloc(1, sizeof *state);
	if (!state) {
		return;
	}
	state->kiosk = k;
	k->lock_state = state;
	wl_global_create(k->display, &ext_session_lock_manager_v1_interface, 1, state, bind_manager);
}

bool lock_is_locked(struct kiosk *k) {
	return k->lock_state && k->lock_state->locked;
}

void lock_raise(struct kiosk *k) {
	struct kiosk_lock *state = k->lock_state;
	if (state && state->locked) {
		wlr_scene_node_raise_to_top(&state->curtain->node);
		wlr_scene_node_raise_to_top(&state->tree->node);
		raise_surfaces(state);
	}
}

/* After wl_display_destroy_clients (the lock objects are gone) and before the router. */
void lock_fini(struct kiosk *k) {
	struct kiosk_lock *state = k->lock_state;
	if (!state) {
		return;
	}
	if (state->grab) {
		seatkit_grab_destroy(state->grab);
	}
	k->lock_state = NULL;
	free(state);
}
