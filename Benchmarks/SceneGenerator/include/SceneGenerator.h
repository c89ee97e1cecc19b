#ifndef SEATKIT_SCENE_GENERATOR_H
#define SEATKIT_SCENE_GENERATOR_H
#include <stdint.h>

// Generates the rectangle trees and query points of the hit-testing benchmarks. Both the
// wlroots side (C) and the SeatKit side (Swift) build their trees from the same
// `scene_description`, so the two trees are identical by construction.

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny PRNG whose output is fixed by the seed on
/// every platform.
typedef struct { uint64_t state; } splitmix64;
uint64_t splitmix64_next(splitmix64 *rng);
/// Uniform in [0, bound), for bound > 0.
uint32_t splitmix64_below(splitmix64 *rng, uint32_t bound);

typedef enum { SCENE_FLAT = 0, SCENE_NESTED = 1 } scene_shape;
typedef enum { POINTS_HIT = 0, POINTS_MISS = 1, POINTS_RANDOM = 2 } point_kind;

/// One rectangle, in creation order: a parent always comes before its children, and
/// children of one parent are stacked back to front in creation order.
typedef struct {
    /// Index of the parent rectangle, or -1 for a child of the root (a tree node that is
    /// never hit itself).
    int32_t parent;
    /// Position relative to the parent's origin (the root's origin is the output's).
    int32_t x, y;
    int32_t width, height;
    /// Position on the output, for generating points.
    int32_t absolute_x, absolute_y;
} scene_rect;

typedef struct {
    int32_t output_width, output_height;
    int32_t count;
    scene_rect *rects;
} scene_description;

/// `count` rectangles of 8–200 px on a `output_width`×`output_height` output. Flat: all are
/// children of the root. Nested: each gets a parent among the root and earlier rectangles
/// that still have fewer than 10 children, and lies near that parent (offset by -100…+size
/// of the parent), so subtrees are spatially coherent as windows and their popups are.
scene_description scene_generate(int32_t count, scene_shape shape, uint64_t seed,
                                 int32_t output_width, int32_t output_height);
void scene_free(scene_description *scene);

/// `count` points (x, y interleaved, output space) of one kind:
/// - hit: uniform inside a uniformly chosen rectangle (something is hit, maybe one above);
/// - miss: uniform over the output area no rectangle covers (pixel centres); when the
///   rectangles cover the whole output, uniform in the 64 px strip right of the output;
/// - random: uniform over the output.
/// Returns how many miss points had to come from the strip (0 for other kinds).
int32_t scene_points(const scene_description *scene, point_kind kind, uint64_t seed,
                     int32_t count, double *xy);

#endif
