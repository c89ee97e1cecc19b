#ifndef SEATKIT_WLROOTS_SCENE_H
#define SEATKIT_WLROOTS_SCENE_H
#include <stdint.h>
#include "SceneGenerator.h"

// The wlroots 0.15 side of the hit-testing benchmark: a wlr_scene built from a
// scene_description, one wlr_scene_rect per rectangle, nested as described.

typedef struct wlroots_scene wlroots_scene;

wlroots_scene *wlroots_scene_build(const scene_description *description);
void wlroots_scene_destroy(wlroots_scene *scene);

/// wlr_scene_node_at on the scene root at an output-space point: the index of the hit
/// rectangle, or -1.
int32_t wlroots_scene_hit(wlroots_scene *scene, double x, double y);

/// Runs wlr_scene_node_at for `count` points (x, y interleaved), cycling through them
/// `rounds` times; returns a checksum of the hit indices so the work cannot be skipped.
int64_t wlroots_scene_hit_all(wlroots_scene *scene, const double *xy, int32_t count, int32_t rounds);

#endif
