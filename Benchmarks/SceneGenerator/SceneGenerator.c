#include "SceneGenerator.h"
#include <stdlib.h>
#include <string.h>

uint64_t splitmix64_next(splitmix64 *rng) {
    uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint32_t splitmix64_below(splitmix64 *rng, uint32_t bound) {
    // Multiply-shift: bias is below 2^-32, irrelevant for benchmark shapes.
    return (uint32_t)(((splitmix64_next(rng) >> 32) * (uint64_t)bound) >> 32);
}

static double unit_interval(splitmix64 *rng) {
    return (double)(splitmix64_next(rng) >> 11) * 0x1.0p-53;
}

static int32_t clamp(int32_t v, int32_t lo, int32_t hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

enum { MAX_CHILDREN = 10, MIN_SIZE = 8, MAX_SIZE = 200 };

scene_description scene_generate(int32_t count, scene_shape shape, uint64_t seed,
                                 int32_t output_width, int32_t output_height) {
    scene_description scene = { output_width, output_height, count, calloc((size_t)count, sizeof(scene_rect)) };
    splitmix64 rng = { seed };
    // Candidates for a parent in nested trees: -1 is the root. A full parent is swapped out.
    int32_t *open = malloc(sizeof(int32_t) * ((size_t)count + 1));
    uint8_t *children = calloc((size_t)count + 1, 1);  // index + 1; slot 0 is the root
    int32_t open_count = 0;
    open[open_count++] = -1;
    for (int32_t i = 0; i < count; i++) {
        scene_rect *r = &scene.rects[i];
        r->width = MIN_SIZE + (int32_t)splitmix64_below(&rng, MAX_SIZE - MIN_SIZE + 1);
        r->height = MIN_SIZE + (int32_t)splitmix64_below(&rng, MAX_SIZE - MIN_SIZE + 1);
        int32_t parent = -1;
        if (shape == SCENE_NESTED) {
            uint32_t slot = splitmix64_below(&rng, (uint32_t)open_count);
            parent = open[slot];
            if (++children[parent + 1] == MAX_CHILDREN) open[slot] = open[--open_count];
            open[open_count++] = i;
        }
        r->parent = parent;
        int32_t ax, ay;
        if (parent < 0) {
            ax = (int32_t)splitmix64_below(&rng, (uint32_t)(output_width - r->width + 1));
            ay = (int32_t)splitmix64_below(&rng, (uint32_t)(output_height - r->height + 1));
        } else {
            const scene_rect *p = &scene.rects[parent];
            ax = p->absolute_x - 100 + (int32_t)splitmix64_below(&rng, (uint32_t)(p->width + 101));
            ay = p->absolute_y - 100 + (int32_t)splitmix64_below(&rng, (uint32_t)(p->height + 101));
            ax = clamp(ax, 0, output_width - r->width);
            ay = clamp(ay, 0, output_height - r->height);
        }
        r->absolute_x = ax;
        r->absolute_y = ay;
        r->x = parent < 0 ? ax : ax - scene.rects[parent].absolute_x;
        r->y = parent < 0 ? ay : ay - scene.rects[parent].absolute_y;
    }
    free(open);
    free(children);
    return scene;
}

void scene_free(scene_description *scene) {
    free(scene->rects);
    scene->rects = NULL;
    scene->count = 0;
}

int32_t scene_points(const scene_description *scene, point_kind kind, uint64_t seed,
                     int32_t count, double *xy) {
    splitmix64 rng = { seed };
    const int32_t w = scene->output_width, h = scene->output_height;
    int32_t from_strip = 0;
    if (kind == POINTS_MISS) {
        // Paint coverage, then draw uniformly from the uncovered pixels.
        uint8_t *covered = calloc((size_t)w * (size_t)h, 1);
        for (int32_t i = 0; i < scene->count; i++) {
            const scene_rect *r = &scene->rects[i];
            for (int32_t y = r->absolute_y; y < r->absolute_y + r->height && y < h; y++)
                memset(covered + (size_t)y * (size_t)w + r->absolute_x, 1,
                       (size_t)(clamp(r->absolute_x + r->width, 0, w) - r->absolute_x));
        }
        size_t free_count = 0;
        for (size_t p = 0; p < (size_t)w * (size_t)h; p++) free_count += !covered[p];
        uint32_t *free_pixels = malloc(sizeof(uint32_t) * (free_count ? free_count : 1));
        size_t n = 0;
        for (size_t p = 0; p < (size_t)w * (size_t)h; p++) if (!covered[p]) free_pixels[n++] = (uint32_t)p;
        for (int32_t i = 0; i < count; i++) {
            if (free_count > 0) {
                uint32_t p = free_pixels[splitmix64_below(&rng, (uint32_t)free_count)];
                xy[2 * i] = (double)(p % (uint32_t)w) + 0.5;
                xy[2 * i + 1] = (double)(p / (uint32_t)w) + 0.5;
            } else {
                xy[2 * i] = w + unit_interval(&rng) * 64;
                xy[2 * i + 1] = unit_interval(&rng) * h;
                from_strip++;
            }
        }
        free(free_pixels);
        free(covered);
        return from_strip;
    }
    for (int32_t i = 0; i < count; i++) {
        if (kind == POINTS_HIT) {
            const scene_rect *r = &scene->rects[splitmix64_below(&rng, (uint32_t)scene->count)];
            xy[2 * i] = r->absolute_x + unit_interval(&rng) * r->width;
            xy[2 * i + 1] = r->absolute_y + unit_interval(&rng) * r->height;
        } else {
            xy[2 * i] = unit_interval(&rng) * w;
            xy[2 * i + 1] = unit_interval(&rng) * h;
        }
    }
    return 0;
}
