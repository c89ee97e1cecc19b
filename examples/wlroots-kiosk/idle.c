/*
 * Idle: ext-idle-notify-v1 from SeatKit's wlroots bridge (seatkit_wlr_idle_notifier_create:
 * wlroots 0.15 has no helper), the kiosk's idle-inhibit policy (visible surfaces), and the
 * --dim-after step before --blank-after (kiosk.c blanks).
 *
 *  - Activity is SeatKit's: a spy on the router sees input as it enters (before filters and
 *    grabs decide anything: the touch the wake filter swallows, keys a lock screen's grab
 *    takes, virtual pointers and keyboards; not a device plugged in or out), of the kinds
 *    SEATKIT_INPUT_KINDS_ACTIVITY (seatkit.h: a touch's frames stand for its motions); kiosk.c's spy,
 *    which --blank-after and --dim-after share, tells the dim step (idle_activity).
 *    The bridge's spy restarts every notification's timeout (a notification that had said
 *    `idled` says `resumed` at the first such event); the kiosk's restarts the dim timer.
 *  - An idle inhibitor counts only while its surface is visible: on the app shown (its
 *    toplevel, a popup or subsurface of it) or a mapped layer-shell panel, and not while the
 *    session is locked (the lock hides the apps). While one counts, no notification goes
 *    idle, the screen is neither dimmed nor blanked; when the last one stops counting (gone,
 *    or its app no longer shown), every timeout starts again from the whole of it. Counted
 *    when an inhibitor comes or goes, when the stacking changes, and when a timer is due.
 *  - --dim-after MS: after MS without input the screen is darkened by half (a black,
 *    half-transparent scene rect over everything but a lock screen; the backends wlroots 0.15
 *    runs here, headless and x11, have no gamma: a rect is what every renderer shows and
 *    screencopy captures). Input undims it and is delivered as usual (the screen is still
 *    visible: the user sees what they touch). Blanking removes it.
 *
 * Prints "screen dimmed", "screen undimmed", "idle notification after MS ms: idled|resumed",
 * "idle inhibitors: N" (those that count, when that changes).
 */
#include <stdlib.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_idle_inhibit_v1.h>
#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/types/wlr_xdg_shell.h>
#include "kiosk.h"

struct kiosk_idle {
	struct kiosk *kiosk;
	struct seatkit_wlr_idle_notifier *notifier; /* ext-idle-notify-v1, the bridge's */
	struct wl_event_source *dim_timer;
	struct wlr_scene_rect *dim; /* NULL unless dimmed */
	int counted; /* inhibitors that counted when last looked at */
	struct wl_listener new_inhibitor;
};

struct inhibitor {
	struct kiosk_idle *idle;
	struct wlr_idle_inhibitor_v1 *wlr_inhibitor;
	struct wl_listener destroy;
};

/* ---- Whether an inhibitor's surface is visible ---- */

static bool surface_visible(struct kiosk *k, struct wlr_surface *surface) {
	if (lock_is_locked(k)) {
		return false;
	}
	struct wlr_surface *root = wlr_surface_get_root_surface(surface);
	if (wlr_surface_is_layer_surface(root)) {
		return wlr_layer_surface_v1_from_wlr_surface(root)->mapped;
	}
	if (!wlr_surface_is_xdg_surface(root)) {
		return false;
	}
	struct wlr_xdg_surface *xdg = wlr_xdg_surface_from_wlr_surface(root);
	/* A popup: its toplevel's visibility (popups close with their parent). */
	while (xdg && xdg->role == WLR_XDG_SURFACE_ROLE_POPUP && xdg->popup->parent &&
			wlr_surface_is_xdg_surface(xdg->popup->parent)) {
		if (!xdg->mapped) {
			return false;
		}
		xdg = wlr_xdg_surface_from_wlr_surface(xdg->popup->parent);
	}
	return xdg && xdg->mapped && k->current && k->current->xdg_surface == xdg;
}

static void restart_timers(struct kiosk_idle *idle);

/* Counts the inhibitors that count now (`excluding` one being destroyed), printing a change;
 * when the last one stops counting (gone, or its surface hidden), every timeout starts again
 * from the whole of it. */
static int recount(struct kiosk_idle *idle, struct wlr_idle_inhibitor_v1 *excluding) {
	struct kiosk *k = idle->kiosk;
	int count = 0;
	struct wlr_idle_inhibitor_v1 *inhibitor;
	if (k->idle_inhibit) {
		wl_list_for_each(inhibitor, &k->idle_inhibit->inhibitors, link) {
			count += inhibitor != excluding && surface_visible(k, inhibitor->surface);
		}
	}
	if (count != idle->counted) {
		bool released = idle->counted > 0 && count == 0;
		idle->counted = count;
		say("idle inhibitors: %d", count);
		/* The notifications' timeouts start again from the whole of them when released. */
		seatkit_wlr_idle_notifier_set_inhibited(idle->notifier, count > 0);
		if (released) {
			restart_timers(idle);
		}
	}
	return count;
}

bool idle_inhibited(struct kiosk *k) {
	return k->idle_state && recount(k->idle_state, NULL) > 0;
}

static void log_line(void *data, const char *line) {
	say("%s", line);
}

/* ---- The dim step ---- */

static void undim(struct kiosk_idle *idle, bool quietly) {
	if (idle->dim) {
		wlr_scene_node_destroy(&idle->dim->node);
		idle->dim = NULL;
		if (!quietly) {
			say("screen undimmed");
		}
	}
}

static int dim_expired(void *data) {
	struct kiosk_idle *idle = data;
	struct kiosk *k = idle->kiosk;
	if (!k->wlr_output || seatkit_kiosk_policy_is_blanked(k->wake) || idle->dim) {
		return 0;
	}
	if (idle_inhibited(k)) {
		wl_event_source_timer_update(idle->dim_timer, k->dim_after_ms);
		return 0;
	}
	/* Premultiplied: black at half opacity halves every pixel under it. */
	const float color[4] = { 0, 0, 0, 0.5f };
	idle->dim = wlr_scene_rect_create(&k->scene->node, k->app_width, k->app_height, color);
	wlr_scene_node_set_position(&idle->dim->node, k->app_x, k->app_y);
	lock_raise(k); /* a lock screen stays above */
	say("screen dimmed");
	return 0;
}

/* Called whenever the stacking changes (an app shown, a panel, a lock): also when an
 * inhibitor's surface is shown or hidden. */
void idle_raise(struct kiosk *k) {
	if (k->idle_state && k->idle_state->dim) {
		wlr_scene_node_raise_to_top(&k->idle_state->dim->node);
	}
	if (k->idle_state) {
		recount(k->idle_state, NULL);
	}
}

void idle_screen_blanked(struct kiosk *k) {
	if (k->idle_state) {
		undim(k->idle_state, true);
	}
}

/* ---- Activity: kiosk.c's spy ---- */

void idle_activity(struct kiosk *k) {
	struct kiosk_idle *idle = k->idle_state;
	if (idle && idle->dim_timer) {
		undim(idle, false);
		wl_event_source_timer_update(idle->dim_timer, k->dim_after_ms);
	}
}

/* The kiosk's timeouts from the whole of them (after the last inhibitor stopped counting;
 * the bridge restarts the notifications'). */
static void restart_timers(struct kiosk_idle *idle) {
	struct kiosk *k = idle->kiosk;
	if (idle->dim_timer && !idle->dim) {
		wl_event_source_timer_update(idle->dim_timer, k->dim_after_ms);
	}
	/* kiosk.c's --blank-after timer, likewise. */
	if (k->idle && k->wlr_output && !seatkit_kiosk_policy_is_blanked(k->wake)) {
		wl_event_source_timer_update(k->idle, k->blank_after_ms);
	}
}

static void inhibitor_destroyed(struct wl_listener *listener, void *data) {
	struct inhibitor *inhibitor = wl_container_of(listener, inhibitor, destroy);
	struct kiosk_idle *idle = inhibitor->idle;
	/* wlroots emits destroy before taking it out of its list: counted without it. */
	struct wlr_idle_inhibitor_v1 *gone = inhibitor->wlr_inhibitor;
	wl_list_remove(&inhibitor->destroy.link);
	free(inhibitor);
	recount(idle, gone);
}

static void new_inhibitor(struct wl_listener *listener, void *data) {
	struct kiosk_idle *idle = wl_container_of(listener, idle, new_inhibitor);
	struct wlr_idle_inhibitor_v1 *wlr_inhibitor = data;
	struct inhibitor *inhibitor = calloc(1, sizeof *inhibitor);
	if (!inhibitor) {
		return;
	}
	inhibitor->idle = idle;
	inhibitor->wlr_inhibitor = wlr_inhibitor;
	inhibitor->destroy.notify = inhibitor_destroyed;
	wl_signal_add(&wlr_inhibitor->events.destroy, &inhibitor->destroy);
	recount(idle, NULL);
}

void idle_init(struct kiosk *k) {
	struct kiosk_idle *idle = calloc(1, sizeof *idle);
	if (!idle) {
		return;
	}
	idle->kiosk = k;
	idle->notifier = seatkit_wlr_idle_notifier_create(k->display, k->router);
	seatkit_wlr_idle_notifier_set_log(idle->notifier, log_line, NULL);
	k->idle_state = idle;
	idle->new_inhibitor.notify = new_inhibitor;
	wl_signal_add(&k->idle_inhibit->events.new_inhibitor, &idle->new_inhibitor);
	if (k->dim_after_ms > 0) {
		idle->dim_timer = wl_event_loop_add_timer(wl_display_get_event_loop(k->display), dim_expired, idle);
		wl_event_source_timer_update(idle->dim_timer, k->dim_after_ms);
		/* Input restarts it through kiosk.c's spy (idle_activity), the one --blank-after
		 * shares. */
	}
}

void idle_fini(struct kiosk *k) {
	struct kiosk_idle *idle = k->idle_state;
	if (!idle) {
		return;
	}
	if (idle->dim_timer) {
		wl_event_source_remove(idle->dim_timer);
	}
	wl_list_remove(&idle->new_inhibitor.link);
	/* The notifications went with their clients (wl_display_destroy_clients). */
	seatkit_wlr_idle_notifier_destroy(idle->notifier);
	k->idle_state = NULL;
	free(idle);
}
