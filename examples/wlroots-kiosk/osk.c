/*
 * The on-screen keyboard's side of the kiosk.
 *
 * Panels: wlr-layer-shell surfaces (an on-screen keyboard such as wvkbd or squeekboard, a
 * bar) are placed by their anchors, margins and size on the output they asked for (with
 * --outputs extend; otherwise, or if they asked for none, the screen: the first output),
 * drawn above the apps (background and bottom layers below them), and each is a SeatKit
 * surface on that output's SeatKit output (in its space), whose
 * responder is the bridge with `focusable` false: SeatKit never makes it the first
 * responder, so a tap on a key never takes keyboard focus from the app. The keyboard's text
 * reaches the app one of two ways, both routed by SeatKit to the first responder:
 *  - virtual-keyboard-v1 (wvkbd, wtype): key events of a keyboard like any other (kiosk.c);
 *  - input-method-v2 (squeekboard): the relay below hands the input method's text to the
 *    text-input-v3 of the surface that has keyboard focus, the way sway's
 *    input_method_relay does (wlroots provides both protocols, not the relay).
 * A panel's exclusive zone (a bar, a dock) is honoured: the apps are laid out in what is
 * left of its output's edge (kiosk.c: kiosk_arrange_apps), and so are the panels whose own
 * zone is 0 (sway's rule; -1 ignores the zones). An on-screen keyboard's is not
 * (its client types through virtual-keyboard-v1 or is the input method): the apps stay
 * fullscreen under it unless --osk-resize says otherwise, below.
 *
 * --osk auto: KWin's rule. The panels above the apps are hidden (not drawn, no input) until
 * a text field is enabled (text-input-v3) after touch input, and hidden again when it is
 * disabled or loses focus; an input method (squeekboard) is activated only then too. A
 * text field focused by a key, a click or the app itself shows nothing. --osk always (the
 * default): panels are always shown, the input method activated at every enable.
 * --osk-resize (with auto): while shown, the apps are configured shorter by the height of
 * the bottom panels, so nothing of theirs is under the keyboard; full height again after.
 */
#include <stdlib.h>
#include <wlr/types/wlr_input_method_v2.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_text_input_v3.h>
#include "kiosk.h"

/* ---- Panels (layer-shell) ---- */

struct panel;
static void set_panel_shown(struct kiosk *k, struct panel *p, bool shown);

struct panel {
	struct wl_list link; /* kiosk.panels */
	struct kiosk *kiosk;
	struct wlr_layer_surface_v1 *layer_surface;
	struct wlr_scene_node *node;
	struct seatkit_surface *surface; /* while mapped */
	int x, y, width, height; /* its output's space (layout space less the output's corner) */
	struct wl_listener map, unmap, destroy, commit;
};

static bool above_apps(struct panel *p) {
	return p->layer_surface->current.layer >= ZWLR_LAYER_SHELL_V1_LAYER_TOP;
}

/* --osk auto: a panel above the apps is drawn and takes input only while shown. */
static void set_panel_shown(struct kiosk *k, struct panel *p, bool shown) {
	if (!k->osk_auto || !above_apps(p)) {
		return;
	}
	wlr_scene_node_set_enabled(p->node, shown);
	if (p->surface) {
		seatkit_surface_set_hidden(p->surface, !shown);
	}
}

static struct wlr_input_method_v2 *osk_input_method(struct kiosk *k);

/* Whether the panel is an on-screen keyboard: its client is the input method (squeekboard)
 * or types through a virtual keyboard (wvkbd). */
static bool panel_is_keyboard(struct panel *p) {
	struct kiosk *k = p->kiosk;
	struct wl_client *client = wl_resource_get_client(p->layer_surface->resource);
	struct wlr_input_method_v2 *im = osk_input_method(k);
	if (im && wl_resource_get_client(im->resource) == client) {
		return true;
	}
	struct wlr_virtual_keyboard_v1 *keyboard;
	wl_list_for_each(keyboard, &k->virtual_keyboards->virtual_keyboards, link) {
		if (wl_resource_get_client(keyboard->resource) == client) {
			return true;
		}
	}
	return false;
}

void osk_exclusive_insets(struct kiosk *k, struct wlr_output *output, int insets[4]) {
	insets[0] = insets[1] = insets[2] = insets[3] = 0;
	struct panel *p;
	wl_list_for_each(p, &k->panels, link) {
		const struct wlr_layer_surface_v1_state *s = &p->layer_surface->current;
		if (!p->surface || p->layer_surface->output != output || s->exclusive_zone <= 0 ||
				(k->osk_auto && above_apps(p) && !k->osk_shown) || panel_is_keyboard(p)) {
			continue;
		}
		/* The protocol's rule: anchored to one edge, or to one edge and both edges beside
		 * it; the zone counts from that edge, after the margin there. */
		uint32_t a = s->anchor;
		bool top = a & ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP, bottom = a & ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM;
		bool left = a & ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT, right = a & ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT;
		int edge = -1, margin = 0;
		if (top && !bottom && left == right) {
			edge = 0, margin = (int)s->margin.top;
		} else if (right && !left && top == bottom) {
			edge = 1, margin = (int)s->margin.right;
		} else if (bottom && !top && left == right) {
			edge = 2, margin = (int)s->margin.bottom;
		} else if (left && !right && top == bottom) {
			edge = 3, margin = (int)s->margin.left;
		}
		if (edge >= 0 && s->exclusive_zone + margin > insets[edge]) {
			insets[edge] = s->exclusive_zone + margin;
		}
	}
}

static void set_osk_shown(struct kiosk *k, bool shown) {
	if (!k->osk_auto || k->osk_shown == shown) {
		return;
	}
	k->osk_shown = shown;
	struct panel *p;
	int reserved = 0;
	wl_list_for_each(p, &k->panels, link) {
		set_panel_shown(k, p, shown);
		const struct wlr_layer_surface_v1_state *s = &p->layer_surface->current;
		if (above_apps(p) && (s->anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM) && !(s->anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP)
				&& p->height + (int)s->margin.bottom > reserved) {
			reserved = p->height + (int)s->margin.bottom;
		}
	}
	say("osk %s", shown ? "shown" : "hidden");
	kiosk_arrange_apps(k); /* a bar's exclusive zone counts only while it is shown */
	/* --osk-resize: the apps above the keyboard while it is shown (KWin's "resize" mode). */
	if (k->osk_resize && (shown ? reserved : 0) != k->osk_reserved) {
		k->osk_reserved = shown ? reserved : 0;
		configure_apps(k);
		say("apps %dx%d", k->app_width, k->app_height - k->osk_reserved);
	}
}

/* --osk auto: whether the last touch, button or key was a touch (the spy sees every event,
 * taken or not, before routing). */
static void input_kind_seen(void *data, const struct seatkit_input_event *event, bool consumed) {
	struct kiosk *k = data;
	if (event->type == SEATKIT_INPUT_TOUCH_DOWN) {
		k->last_input_touch = true;
	} else if (event->type == SEATKIT_INPUT_POINTER_BUTTON || event->type == SEATKIT_INPUT_KEY) {
		k->last_input_touch = false;
	}
}

/* Size and place by the protocol's rules: a size of 0 stretches between opposite anchors;
 * anchored to neither or both opposite edges: centred; otherwise against the anchored edge.
 * The area is the output less the other panels' exclusive zones (osk_exclusive_insets) for
 * a panel whose own zone is 0, the whole output for one whose zone is -1 (it asks to ignore
 * them) or above 0 (its zone is counted from the output's edge), as sway and wlroots'
 * layer-shell helpers place them. `configure` false: only when its size changed. */
static void arrange(struct panel *p, bool configure) {
	struct kiosk *k = p->kiosk;
	const struct wlr_layer_surface_v1_state *s = &p->layer_surface->current;
	/* Its output's logical size and corner in the layout. */
	struct wlr_output *output = p->layer_surface->output;
	int output_width = k->width, output_height = k->height;
	struct wlr_box *box = output ? wlr_output_layout_get_box(k->output_layout, output) : NULL;
	if (output) {
		wlr_output_effective_resolution(output, &output_width, &output_height);
	}
	int insets[4] = { 0, 0, 0, 0 };
	if (output && s->exclusive_zone == 0) {
		osk_exclusive_insets(k, output, insets);
	}
	int area_x = insets[3], area_y = insets[0];
	int area_width = output_width - insets[1] - insets[3], area_height = output_height - insets[0] - insets[2];
	bool left = s->anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT, right = s->anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT;
	bool top = s->anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP, bottom = s->anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM;
	int width = s->desired_width, height = s->desired_height;
	if (width == 0) {
		width = area_width - s->margin.left - s->margin.right;
	}
	if (height == 0) {
		height = area_height - s->margin.top - s->margin.bottom;
	}
	p->x = area_x + (left && !right ? (int)s->margin.left
		: right && !left ? area_width - width - (int)s->margin.right : (area_width - width) / 2);
	p->y = area_y + (top && !bottom ? (int)s->margin.top
		: bottom && !top ? area_height - height - (int)s->margin.bottom : (area_height - height) / 2);
	bool resized = p->width != width || p->height != height;
	p->width = width;
	p->height = height;
	if (configure || resized) {
		wlr_layer_surface_v1_configure(p->layer_surface, width, height);
	}
	wlr_scene_node_set_position(p->node, (box ? box->x : 0) + p->x, (box ? box->y : 0) + p->y);
	if (p->surface) {
		seatkit_surface_set_frame(p->surface, p->x, p->y, width, height);
	}
}

void osk_arrange_panels(struct kiosk *k) {
	struct panel *p;
	wl_list_for_each(p, &k->panels, link) {
		if (p->layer_surface->current.exclusive_zone == 0) {
			int before[4] = { p->x, p->y, p->width, p->height };
			arrange(p, false);
			if (p->surface && (before[0] != p->x || before[1] != p->y || before[2] != p->width || before[3] != p->height)) {
				say("panel %s at %d,%d %dx%d", p->layer_surface->namespace, p->x, p->y, p->width, p->height);
			}
		}
	}
}

/* The SeatKit output the panel is on (its output's; the screen's if that has none). */
static struct seatkit_output *panel_seatkit_output(struct panel *p) {
	struct seatkit_output *output = kiosk_seatkit_output(p->kiosk, p->layer_surface->output);
	return output ? output : p->kiosk->output;
}

/* Into its output's SeatKit tree: above the apps there, or below them. */
static void panel_attach(struct panel *p) {
	struct seatkit_surface *root = seatkit_output_get_root(panel_seatkit_output(p));
	if (above_apps(p)) {
		seatkit_surface_add_child(root, p->surface);
	} else {
		seatkit_surface_insert_child(root, p->surface, 0);
	}
}

void osk_output_destroyed(struct kiosk *k, struct wlr_output *output) {
	struct panel *p, *tmp;
	wl_list_for_each_safe(p, tmp, &k->panels, link) {
		if (p->layer_surface->output == output) {
			p->layer_surface->output = NULL;
			wlr_layer_surface_v1_destroy(p->layer_surface); /* closed; panel_destroy frees p */
		}
	}
}

void osk_screen_changed(struct kiosk *k) {
	struct panel *p;
	wl_list_for_each(p, &k->panels, link) {
		/* --outputs extend: a panel stays on its output while that is there (one going
		 * closes its panels first, osk_output_destroyed); otherwise panels are the screen's. */
		if (!k->extend || !kiosk_seatkit_output(k, p->layer_surface->output)) {
			p->layer_surface->output = k->wlr_output;
		}
		arrange(p, true);
		if (p->surface) {
			panel_attach(p);
		}
	}
	osk_raise(k);
}

void osk_raise(struct kiosk *k) {
	struct panel *p;
	wl_list_for_each(p, &k->panels, link) {
		if (above_apps(p)) {
			wlr_scene_node_raise_to_top(p->node);
			if (p->surface) {
				seatkit_surface_raise_to_top(p->surface);
			}
		} else {
			wlr_scene_node_lower_to_bottom(p->node);
		}
	}
	/* The dim overlay and a lock screen stay above the panels. */
	idle_raise(k);
	lock_raise(k);
}

static void panel_commit(struct wl_listener *listener, void *data) {
	struct panel *p = wl_container_of(listener, p, commit);
	uint32_t changed = p->layer_surface->current.committed;
	if (changed & (WLR_LAYER_SURFACE_V1_STATE_DESIRED_SIZE | WLR_LAYER_SURFACE_V1_STATE_ANCHOR |
			WLR_LAYER_SURFACE_V1_STATE_MARGIN | WLR_LAYER_SURFACE_V1_STATE_LAYER)) {
		arrange(p, true);
		osk_raise(p->kiosk);
	}
	if (p->surface && (changed & (WLR_LAYER_SURFACE_V1_STATE_EXCLUSIVE_ZONE | WLR_LAYER_SURFACE_V1_STATE_ANCHOR |
			WLR_LAYER_SURFACE_V1_STATE_MARGIN))) {
		kiosk_arrange_apps(p->kiosk);
	}
}

static void panel_map(struct wl_listener *listener, void *data) {
	struct panel *p = wl_container_of(listener, p, map);
	struct kiosk *k = p->kiosk;
	if (!k->output) {
		return;
	}
	p->surface = seatkit_surface_create(k->router, p->layer_surface->namespace, p->x, p->y, p->width, p->height);
	/* focusable false: its responder can never become first responder. */
	seatkit_wlr_seat_attach_surface(k->seat, p->surface, p->layer_surface->surface, 0);
	panel_attach(p);
	set_panel_shown(k, p, k->osk_shown);
	osk_raise(k);
	say("panel mapped %s at %d,%d %dx%d on %s", p->layer_surface->namespace, p->x, p->y, p->width, p->height,
		p->layer_surface->output ? p->layer_surface->output->name : "(none)");
	kiosk_arrange_apps(k); /* its exclusive zone */
}

static void panel_unmap(struct wl_listener *listener, void *data) {
	struct panel *p = wl_container_of(listener, p, unmap);
	if (p->surface) {
		seatkit_surface_destroy(p->surface);
		p->surface = NULL;
		if (!p->kiosk->ending) {
			kiosk_arrange_apps(p->kiosk); /* its exclusive zone is free again */
		}
	}
}

static void panel_destroy(struct wl_listener *listener, void *data) {
	struct panel *p = wl_container_of(listener, p, destroy);
	wl_list_remove(&p->link);
	wl_list_remove(&p->map.link);
	wl_list_remove(&p->unmap.link);
	wl_list_remove(&p->destroy.link);
	wl_list_remove(&p->commit.link);
	free(p);
}

static void new_layer_surface(struct wl_listener *listener, void *data) {
	struct kiosk *k = wl_container_of(listener, k, new_layer_surface);
	struct wlr_layer_surface_v1 *layer_surface = data;
	if (!k->wlr_output) {
		wlr_layer_surface_v1_destroy(layer_surface);
		return;
	}
	/* The output it asked for, with --outputs extend (every output is used); otherwise, or
	 * if it asked for none or one the kiosk does not use, the screen. */
	if (!k->extend || !layer_surface->output || !kiosk_seatkit_output(k, layer_surface->output)) {
		layer_surface->output = k->wlr_output;
	}
	struct panel *p = calloc(1, sizeof *p);
	p->kiosk = k;
	p->layer_surface = layer_surface;
	p->node = wlr_scene_subsurface_tree_create(&k->scene->node, layer_surface->surface);
	p->map.notify = panel_map;
	wl_signal_add(&layer_surface->events.map, &p->map);
	p->unmap.notify = panel_unmap;
	wl_signal_add(&layer_surface->events.unmap, &p->unmap);
	p->destroy.notify = panel_destroy;
	wl_signal_add(&layer_surface->events.destroy, &p->destroy);
	p->commit.notify = panel_commit;
	wl_signal_add(&layer_surface->surface->events.commit, &p->commit);
	wl_list_insert(&k->panels, &p->link);
	/* wlroots 0.15 announces the surface at its first commit: configure it now. */
	arrange(p, true);
}

/* ---- The relay: input-method-v2 <-> text-input-v3 ---- */

struct osk_relay {
	struct kiosk *kiosk;
	struct wlr_input_method_v2 *input_method; /* one at a time */
	struct wl_list text_inputs; /* struct text_input.link */
	struct wl_listener new_text_input, new_input_method, focus_change;
	struct wl_listener im_commit, im_destroy;
};

struct text_input {
	struct wl_list link;
	struct osk_relay *relay;
	struct wlr_text_input_v3 *input;
	struct wl_listener enable, commit, disable, destroy;
};

/* The enabled text input of the surface with keyboard focus, if any. */
static struct text_input *focused_text_input(struct osk_relay *relay) {
	struct text_input *t;
	wl_list_for_each(t, &relay->text_inputs, link) {
		if (t->input->focused_surface && t->input->current_enabled) {
			return t;
		}
	}
	return NULL;
}

/* What the app told its text input, passed on to the input method. */
static void send_state(struct osk_relay *relay, struct wlr_text_input_v3 *input) {
	struct wlr_input_method_v2 *im = relay->input_method;
	if (input->active_features & WLR_TEXT_INPUT_V3_FEATURE_SURROUNDING_TEXT) {
		wlr_input_method_v2_send_surrounding_text(im, input->current.surrounding.text,
			input->current.surrounding.cursor, input->current.surrounding.anchor);
	}
	wlr_input_method_v2_send_text_change_cause(im, input->current.text_change_cause);
	if (input->active_features & WLR_TEXT_INPUT_V3_FEATURE_CONTENT_TYPE) {
		wlr_input_method_v2_send_content_type(im, input->current.content_type.hint,
			input->current.content_type.purpose);
	}
	wlr_input_method_v2_send_done(im);
}

static void text_input_enable(struct wl_listener *listener, void *data) {
	struct text_input *t = wl_container_of(listener, t, enable);
	struct kiosk *k = t->relay->kiosk;
	say("text input enabled%s", k->osk_auto && !k->last_input_touch ? " (not after touch: no osk)" : "");
	if (k->osk_auto && !k->last_input_touch) {
		return;
	}
	set_osk_shown(k, true);
	if (t->relay->input_method) {
		wlr_input_method_v2_send_activate(t->relay->input_method);
		send_state(t->relay, t->input);
	}
}

static void text_input_commit(struct wl_listener *listener, void *data) {
	struct text_input *t = wl_container_of(listener, t, commit);
	struct kiosk *k = t->relay->kiosk;
	/* --osk auto: a text field that already had focus, tapped (GTK enables it again on a
	 * tap, which wlroots reports as a commit): the keyboard comes. */
	if (k->osk_auto && !k->osk_shown && k->last_input_touch && t->input->current_enabled) {
		say("text input tapped");
		set_osk_shown(k, true);
		if (t->relay->input_method) {
			wlr_input_method_v2_send_activate(t->relay->input_method);
		}
	}
	if (t->relay->input_method && t->input->current_enabled && (!k->osk_auto || k->osk_shown)) {
		send_state(t->relay, t->input);
	}
}

static void deactivate(struct osk_relay *relay) {
	set_osk_shown(relay->kiosk, false);
	if (relay->input_method) {
		wlr_input_method_v2_send_deactivate(relay->input_method);
		wlr_input_method_v2_send_done(relay->input_method);
	}
}

static void text_input_disable(struct wl_listener *listener, void *data) {
	struct text_input *t = wl_container_of(listener, t, disable);
	say("text input disabled");
	deactivate(t->relay);
}

static void text_input_destroy(struct wl_listener *listener, void *data) {
	struct text_input *t = wl_container_of(listener, t, destroy);
	if (t->input->current_enabled) {
		deactivate(t->relay);
	}
	wl_list_remove(&t->link);
	wl_list_remove(&t->enable.link);
	wl_list_remove(&t->commit.link);
	wl_list_remove(&t->disable.link);
	wl_list_remove(&t->destroy.link);
	free(t);
}

static void new_text_input(struct wl_listener *listener, void *data) {
	struct osk_relay *relay = wl_container_of(listener, relay, new_text_input);
	struct wlr_text_input_v3 *input = data;
	struct text_input *t = calloc(1, sizeof *t);
	t->relay = relay;
	t->input = input;
	t->enable.notify = text_input_enable;
	wl_signal_add(&input->events.enable, &t->enable);
	t->commit.notify = text_input_commit;
	wl_signal_add(&input->events.commit, &t->commit);
	t->disable.notify = text_input_disable;
	wl_signal_add(&input->events.disable, &t->disable);
	t->destroy.notify = text_input_destroy;
	wl_signal_add(&input->events.destroy, &t->destroy);
	wl_list_insert(&relay->text_inputs, &t->link);
	/* Created while its client has keyboard focus: it enters at once. */
	struct wlr_surface *focused = relay->kiosk->wlr_seat->keyboard_state.focused_surface;
	if (focused && wl_resource_get_client(focused->resource) == wl_resource_get_client(input->resource)) {
		wlr_text_input_v3_send_enter(input, focused);
	}
}

/* Keyboard focus moved (SeatKit's first responder, through the bridge): text inputs follow. */
static void focus_change(struct wl_listener *listener, void *data) {
	struct osk_relay *relay = wl_container_of(listener, relay, focus_change);
	struct wlr_seat_keyboard_focus_change_event *event = data;
	struct text_input *t;
	wl_list_for_each(t, &relay->text_inputs, link) {
		if (t->input->focused_surface && t->input->focused_surface != event->new_surface) {
			if (t->input->current_enabled) {
				deactivate(relay);
			}
			wlr_text_input_v3_send_leave(t->input);
		}
		if (event->new_surface && !t->input->focused_surface &&
				wl_resource_get_client(event->new_surface->resource) == wl_resource_get_client(t->input->resource)) {
			wlr_text_input_v3_send_enter(t->input, event->new_surface);
		}
	}
}

/* The input method's text goes to the focused text input. */
static void im_commit(struct wl_listener *listener, void *data) {
	struct osk_relay *relay = wl_container_of(listener, relay, im_commit);
	struct wlr_input_method_v2 *im = relay->input_method;
	struct text_input *t = focused_text_input(relay);
	if (!t) {
		return;
	}
	if (im->current.preedit.text) {
		wlr_text_input_v3_send_preedit_string(t->input, im->current.preedit.text,
			im->current.preedit.cursor_begin, im->current.preedit.cursor_end);
	}
	if (im->current.commit_text) {
		wlr_text_input_v3_send_commit_string(t->input, im->current.commit_text);
		say("input method text %s", im->current.commit_text);
	}
	if (im->current.delete.before_length || im->current.delete.after_length) {
		wlr_text_input_v3_send_delete_surrounding_text(t->input, im->current.delete.before_length,
			im->current.delete.after_length);
	}
	wlr_text_input_v3_send_done(t->input);
}

static void im_destroy(struct wl_listener *listener, void *data) {
	struct osk_relay *relay = wl_container_of(listener, relay, im_destroy);
	wl_list_remove(&relay->im_commit.link);
	wl_list_remove(&relay->im_destroy.link);
	relay->input_method = NULL;
}

static void new_input_method(struct wl_listener *listener, void *data) {
	struct osk_relay *relay = wl_container_of(listener, relay, new_input_method);
	struct wlr_input_method_v2 *im = data;
	if (relay->input_method) {
		wlr_input_method_v2_send_unavailable(im); /* one input method at a time */
		return;
	}
	relay->input_method = im;
	relay->im_commit.notify = im_commit;
	wl_signal_add(&im->events.commit, &relay->im_commit);
	relay->im_destroy.notify = im_destroy;
	wl_signal_add(&im->events.destroy, &relay->im_destroy);
	say("input method");
	kiosk_arrange_apps(relay->kiosk); /* its panel is a keyboard: its exclusive zone is not kept */
	struct text_input *t = focused_text_input(relay);
	if (t && (!relay->kiosk->osk_auto || relay->kiosk->osk_shown)) {
		wlr_input_method_v2_send_activate(im);
		send_state(relay, t->input);
	}
}

static struct wlr_input_method_v2 *osk_input_method(struct kiosk *k) {
	return k->relay ? k->relay->input_method : NULL;
}

void osk_init(struct kiosk *k) {
	wl_list_init(&k->panels);
	struct wlr_layer_shell_v1 *layer_shell = wlr_layer_shell_v1_create(k->display);
	k->new_layer_surface.notify = new_layer_surface;
	wl_signal_add(&layer_shell->events.new_surface, &k->new_layer_surface);

	struct osk_relay *relay = calloc(1, sizeof *relay);
	relay->kiosk = k;
	wl_list_init(&relay->text_inputs);
	struct wlr_text_input_manager_v3 *text_inputs = wlr_text_input_manager_v3_create(k->display);
	relay->new_text_input.notify = new_text_input;
	wl_signal_add(&text_inputs->events.text_input, &relay->new_text_input);
	struct wlr_input_method_manager_v2 *input_methods = wlr_input_method_manager_v2_create(k->display);
	relay->new_input_method.notify = new_input_method;
	wl_signal_add(&input_methods->events.input_method, &relay->new_input_method);
	relay->focus_change.notify = focus_change;
	wl_signal_add(&k->wlr_seat->keyboard_state.events.focus_change, &relay->focus_change);
	k->relay = relay;
	if (k->osk_auto) {
		/* The kinds it tells apart, no other: never a touch motion or frame. */
		seatkit_router_add_spy_for_kinds(k->router, SEATKIT_INPUT_KIND(SEATKIT_INPUT_TOUCH_DOWN)
			| SEATKIT_INPUT_KIND(SEATKIT_INPUT_POINTER_BUTTON) | SEATKIT_INPUT_KIND(SEATKIT_INPUT_KEY), input_kind_seen, k);
	}
}

void osk_fini(struct kiosk *k) {
	free(k->relay); /* its listeners' signals went with the display */
	k->relay = NULL;
}
