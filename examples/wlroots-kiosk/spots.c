/*
 * --touch-spots: a circle drawn under each finger on the screen (Ubuntu Frame's touch spots,
 * for remote support: whoever watches a screencast or a grim screenshot sees where the
 * panel is touched).
 *
 * A spy on SeatKit's router (seatkit_router_add_spy) sees every touch as it enters the
 * router, in layout space, whoever it is routed to (an app, a panel, a grab, or the wake
 * filter that swallows it): down shows a spot there, motion moves it, up and cancel take it
 * away. The spot is a wlr_scene_buffer node of one shared buffer (a grey disc with a white
 * ring, ARGB8888 drawn once at start), so wlroots' renderer draws it (pixman here, GLES2
 * on a panel), it is part of what wlr-screencopy captures, and the scene damages only where
 * it was and where it is. The spots sit above everything (apps, panels, the dim overlay, a
 * lock screen). They take no input: the scene is drawn, SeatKit's tree decides the input.
 */
#include <drm_fourcc.h>
#include <stdlib.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>
#include "kiosk.h"

#define SPOT_RADIUS 28 /* logical units: about a fingertip on a 96 dpi panel */
#define SPOT_COUNT 10

struct kiosk_spots {
	struct wlr_buffer buffer; /* the disc, shared by every spot */
	uint32_t *pixels;
	struct wlr_scene_tree *tree;
	struct spot {
		bool active;
		uint32_t device;
		int32_t id;
		struct wlr_scene_buffer *node;
	} spots[SPOT_COUNT];
};

static void disc_destroy(struct wlr_buffer *buffer) {
	struct kiosk_spots *s = wl_container_of(buffer, s, buffer);
	free(s->pixels);
	free(s);
}

static bool disc_begin_access(struct wlr_buffer *buffer, uint32_t flags, void **data, uint32_t *format, size_t *stride) {
	struct kiosk_spots *s = wl_container_of(buffer, s, buffer);
	if (flags & WLR_BUFFER_DATA_PTR_ACCESS_WRITE) {
		return false; /* drawn once */
	}
	*data = s->pixels;
	*format = DRM_FORMAT_ARGB8888;
	*stride = (size_t)buffer->width * 4;
	return true;
}

static void disc_end_access(struct wlr_buffer *buffer) {
	(void)buffer;
}

static const struct wlr_buffer_impl disc_impl = {
	.destroy = disc_destroy,
	.begin_data_ptr_access = disc_begin_access,
	.end_data_ptr_access = disc_end_access,
};

/* Premultiplied ARGB: a 60% grey disc with a 3-unit opaque white ring, so it shows on a
 * white app and on a black one. */
static void draw_disc(uint32_t *pixels, int size) {
	double r = size / 2.0;
	for (int y = 0; y < size; y++) {
		for (int x = 0; x < size; x++) {
			double dx = x + 0.5 - r, dy = y + 0.5 - r;
			double d = dx * dx + dy * dy;
			uint32_t pixel = 0;
			if (d <= r * r) {
				pixel = d >= (r - 3) * (r - 3) ? 0xffffffffu : 0x994d4d4du; /* alpha 0.6, grey 128 premultiplied */
			}
			pixels[y * size + x] = pixel;
		}
	}
}

static struct spot *find_spot(struct kiosk_spots *s, uint32_t device, int32_t id) {
	for (int i = 0; i < SPOT_COUNT; i++) {
		if (s->spots[i].active && s->spots[i].device == device && s->spots[i].id == id) {
			return &s->spots[i];
		}
	}
	return NULL;
}

static void hide_spot(struct spot *spot) {
	spot->active = false;
	wlr_scene_node_set_enabled(&spot->node->node, false);
}

static void touch_seen(void *data, const struct seatkit_input_event *event, bool consumed) {
	(void)consumed;
	struct kiosk *k = data;
	struct kiosk_spots *s = k->spots;
	struct spot *spot;
	switch (event->type) {
	case SEATKIT_INPUT_TOUCH_DOWN:
		spot = NULL;
		for (int i = 0; i < SPOT_COUNT && !spot; i++) {
			if (!s->spots[i].active) {
				spot = &s->spots[i];
			}
		}
		if (!spot) {
			return; /* an eleventh finger: no spot */
		}
		if (!spot->node) {
			spot->node = wlr_scene_buffer_create(&s->tree->node, &s->buffer);
			if (!spot->node) {
				return;
			}
		}
		*spot = (struct spot){ .active = true, .device = event->device, .id = event->touch_id, .node = spot->node };
		wlr_scene_node_set_position(&spot->node->node, (int)event->x - SPOT_RADIUS, (int)event->y - SPOT_RADIUS);
		wlr_scene_node_set_enabled(&spot->node->node, true);
		wlr_scene_node_raise_to_top(&s->tree->node);
		say("touch spot at %.0f,%.0f", event->x, event->y);
		break;
	case SEATKIT_INPUT_TOUCH_MOTION:
		if ((spot = find_spot(s, event->device, event->touch_id))) {
			wlr_scene_node_set_position(&spot->node->node, (int)event->x - SPOT_RADIUS, (int)event->y - SPOT_RADIUS);
		}
		break;
	case SEATKIT_INPUT_TOUCH_UP:
		if ((spot = find_spot(s, event->device, event->touch_id))) {
			hide_spot(spot);
			say("touch spot lifted");
		}
		break;
	case SEATKIT_INPUT_TOUCH_CANCEL:
		/* The device's touches are all cancelled. */
		for (int i = 0; i < SPOT_COUNT; i++) {
			if (s->spots[i].active && s->spots[i].device == event->device) {
				hide_spot(&s->spots[i]);
				say("touch spot lifted");
			}
		}
		break;
	default:
		break;
	}
}

void spots_init(struct kiosk *k) {
	if (!k->touch_spots) {
		return;
	}
	const int size = 2 * SPOT_RADIUS;
	struct kiosk_spots *s = calloc(1, sizeof *s);
	uint32_t *pixels = s ? calloc((size_t)size * size, sizeof *pixels) : NULL;
	struct wlr_scene_tree *tree = pixels ? wlr_scene_tree_create(&k->scene->node) : NULL;
	if (!tree) {
		free(pixels);
		free(s);
		wlr_log(WLR_ERROR, "--touch-spots: out of memory; no touch spots");
		return;
	}
	s->pixels = pixels;
	s->tree = tree;
	draw_disc(pixels, size);
	wlr_buffer_init(&s->buffer, &disc_impl, size, size);
	k->spots = s;
	/* The touches, frames aside: it follows every finger, so motions take the longer path. */
	seatkit_router_add_spy_for_kinds(k->router, SEATKIT_INPUT_KIND(SEATKIT_INPUT_TOUCH_DOWN)
		| SEATKIT_INPUT_KIND(SEATKIT_INPUT_TOUCH_MOTION) | SEATKIT_INPUT_KIND(SEATKIT_INPUT_TOUCH_UP)
		| SEATKIT_INPUT_KIND(SEATKIT_INPUT_TOUCH_CANCEL), touch_seen, k);
}

void spots_fini(struct kiosk *k) {
	if (k->spots) {
		/* The scene (and its nodes' locks on the buffer) went first: this frees it. */
		wlr_buffer_drop(&k->spots->buffer);
		k->spots = NULL;
	}
}
