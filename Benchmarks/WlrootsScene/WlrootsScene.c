#ifndef WLR_USE_UNSTABLE
#define WLR_USE_UNSTABLE
#endif
#include "WlrootsScene.h"
#include <stdlib.h>
#include <wlr/types/wlr_scene.h>

struct wlroots_scene {
    struct wlr_scene *scene;
    struct wlr_scene_rect **rects;
    int32_t count;
};

wlroots_scene *wlroots_scene_build(const scene_description *description) {
    static const float color[4] = { 0.2f, 0.4f, 0.6f, 1.0f };
    wlroots_scene *s = calloc(1, sizeof(*s));
    s->scene = wlr_scene_create();
    s->count = description->count;
    s->rects = calloc((size_t)description->count, sizeof(*s->rects));
    for (int32_t i = 0; i < description->count; i++) {
        const scene_rect *r = &description->rects[i];
        // wlroots 0.15: any node can parent others; a rect with children is hit-tested
        // after them, as a SeatKit surface is.
        struct wlr_scene_node *parent = r->parent < 0 ? &s->scene->node : &s->rects[r->parent]->node;
        struct wlr_scene_rect *rect = wlr_scene_rect_create(parent, r->width, r->height, color);
        wlr_scene_node_set_position(&rect->node, r->x, r->y);
        rect->node.data = (void *)(intptr_t)i;
        s->rects[i] = rect;
    }
    return s;
}

void wlroots_scene_destroy(wlroots_scene *s) {
    wlr_scene_node_destroy(&s->scene->node);
    free(s->rects);
    free(s);
}

int32_t wlroots_scene_hit(wlroots_scene *s, double x, double y) {
    double sx, sy;
    struct wlr_scene_node *node = wlr_scene_node_at(&s->scene->node, x, y, &sx, &sy);
    return node && node != &s->scene->node ? (int32_t)(intptr_t)node->data : -1;
}

int64_t wlroots_scene_hit_all(wlroots_scene *s, const double *xy, int32_t count, int32_t rounds) {
    int64_t sum = 0;
    for (int32_t round = 0; round < rounds; round++)
        for (int32_t i = 0; i < count; i++) sum += wlroots_scene_hit(s, xy[2 * i], xy[2 * i + 1]);
    return sum;
}
