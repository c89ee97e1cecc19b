/*
 * ext-session-lock-v1 from SeatKit's wlroots bridge (seatkit_wlr_session_lock_create:
 * wlroots 0.15 has no helper): a lock screen (swaylock) hides the session and takes all input.
 *
 *  - All input, through SeatKit (the bridge's): one SeatKit grab holds the pointer, touch and
 *    keyboard (the keyboard's with CLEAR focus: the app is sent leave). It runs after
 *    SeatKit's filters (the wake filter, accessibility) and before any recognizer or
 *    responder, so nothing of the session sees input: pointer input goes only to the lock
 *    surface under the pointer, a touch only if it lands on one, keys only to a lock surface
 *    (the kiosk's screen's, made the first responder). The bridge also keeps the protocol's
 *    rules: a second lock while one is active is told `finished`; if the lock screen dies
 *    without unlocking, the session stays locked (and a new lock screen may take over).
 *  - Hidden, by the kiosk (the bridge's callbacks): a black curtain over every output, above
 *    the apps, popups and panels, with each lock surface above it where its output is in the
 *    layout. The curtain hides everything at once, so `locked` is sent when the lock is made.
 *    While locked, the app-switch swipe is off, popups get no grab of their own (it would
 *    replace the lock's), and the kiosk gives no app keyboard focus; unlocking drops the
 *    curtain and gives the shown app its focus back.
 *
 * Prints (the bridge's log) "session locked", "lock surface shown on NAME", "session
 * unlocked", "session lock abandoned: still locked", "session lock refused: already locked".
 */
#include <stdlib.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_surface.h>
#include "kiosk.h"

struct kiosk_lock {
	struct kiosk *kiosk;
	struct seatkit_wlr_session_lock *lock;
	struct wlr_scene_rect *curtain; /* while locked */
	struct wlr_scene_tree *tree; /* the lock surfaces, above the curtain, while locked */
};

static void hide_session(void *data) {
	struct kiosk_lock *state = data;
	struct kiosk *k = state->kiosk;
	/* Bigger than any layout: whatever the outputs, all of it is hidden. */
	const float black[4] = { 0, 0, 0, 1 };
	state->curtain = wlr_scene_rect_create(&k->scene->node, 1 << 16, 1 << 16, black);
	wlr_scene_node_set_position(&state->curtain->node, -(1 << 15), -(1 << 15));
	state->tree = wlr_scene_tree_create(&k->scene->node);
	k->session_hidden = true;
	kiosk_update_switcher(k);
	seatkit_wlr_session_lock_set_key_output(state->lock, k->wlr_output);
	(void)idle_inhibited(k); /* the apps' inhibitors no longer count */
}

static void show_session(void *data) {
	struct kiosk_lock *state = data;
	struct kiosk *k = state->kiosk;
	wlr_scene_node_destroy(&state->curtain->node);
	state->curtain = NULL;
	wlr_scene_node_destroy(&state->tree->node);
	state->tree = NULL;
	k->session_hidden = false;
	kiosk_update_switcher(k);
	kiosk_refocus(k);
	(void)idle_inhibited(k);
}

static void *show_surface(void *data, struct wlr_surface *surface, struct wlr_output *output,
		struct seatkit_output **routed_on) {
	struct kiosk_lock *state = data;
	struct kiosk *k = state->kiosk;
	struct wlr_box *box = state->tree ? wlr_output_layout_get_box(k->output_layout, output) : NULL;
	if (!box) {
		return NULL; /* an output the kiosk does not show (not in the layout) */
	}
	struct wlr_scene_node *node = wlr_scene_subsurface_tree_create(&state->tree->node, surface);
	wlr_scene_node_set_position(node, box->x, box->y);
	*routed_on = kiosk_seatkit_output(k, output);
	return node;
}

static void hide_surface(void *data, void *shown) {
	wlr_scene_node_destroy(shown);
}

static const struct seatkit_wlr_session_lock_interface lock_impl = {
	.struct_size = sizeof(struct seatkit_wlr_session_lock_interface),
	.lock = hide_session,
	.unlock = show_session,
	.show_surface = show_surface,
	.hide_surface = hide_surface,
};

static void log_line(void *data, const char *line) {
	say("%s", line);
}

void lock_init(struct kiosk *k) {
	struct kiosk_lock *state = calloc(1, sizeof *state);
	if (!state) {
		return;
	}
	state->kiosk = k;
	state->lock = seatkit_wlr_session_lock_create(k->display, k->seat, &lock_impl, state);
	if (!state->lock) {
		free(state);
		return;
	}
	seatkit_wlr_session_lock_set_log(state->lock, log_line, NULL);
	k->lock_state = state;
}

bool lock_is_locked(struct kiosk *k) {
	return k->lock_state && seatkit_wlr_session_lock_is_locked(k->lock_state->lock);
}

void lock_raise(struct kiosk *k) {
	struct kiosk_lock *state = k->lock_state;
	if (state && state->curtain) {
		wlr_scene_node_raise_to_top(&state->curtain->node);
		wlr_scene_node_raise_to_top(&state->tree->node);
		seatkit_wlr_session_lock_raise(state->lock);
	}
}

/* After wl_display_destroy_clients (the lock objects are gone) and before the router. */
void lock_fini(struct kiosk *k) {
	struct kiosk_lock *state = k->lock_state;
	if (!state) {
		return;
	}
	seatkit_wlr_session_lock_destroy(state->lock);
	k->lock_state = NULL;
	free(state);
}
