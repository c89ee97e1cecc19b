// wlroots 0.15 hit-testing on its own, in C: the same trees and points as the Swift
// benchmarks (SceneGenerator), timed with CLOCK_MONOTONIC. It cross-checks that calling
// wlroots from the Swift benchmark adds nothing measurable.
//
//   make && ./wlroots-hit-test [rounds]
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "SceneGenerator.h"
#include "WlrootsScene.h"

enum { POINT_COUNT = 1024 };

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 31;
    static const int32_t sizes[] = { 10, 100, 1000, 10000 };
    static const char *shapes[] = { "flat", "nested" };
    static const char *kinds[] = { "hit", "miss", "random" };
    double *samples = malloc(sizeof(double) * (size_t)rounds);
    double xy[2 * POINT_COUNT];
    printf("| rects | tree | points | wlroots ns/query (C harness) |\n|---:|---|---|---:|\n");
    for (int s = 0; s < 4; s++) {
        for (int shape = 0; shape < 2; shape++) {
            for (int kind = 0; kind < 3; kind++) {
                // Same seeds as HitTestWorkload: 7 for the tree, 8 for the points.
                scene_description d = scene_generate(sizes[s], (scene_shape)shape, 7, 1920, 1080);
                scene_points(&d, (point_kind)kind, 8, POINT_COUNT, xy);
                wlroots_scene *scene = wlroots_scene_build(&d);
                int64_t sink = wlroots_scene_hit_all(scene, xy, POINT_COUNT, 2);
                double start = now_ns();
                sink += wlroots_scene_hit_all(scene, xy, POINT_COUNT, 1);
                int passes = (int)(1e6 / (now_ns() - start + 1)) + 1;  // about 1 ms per sample
                for (int r = 0; r < rounds; r++) {
                    start = now_ns();
                    sink += wlroots_scene_hit_all(scene, xy, POINT_COUNT, passes);
                    samples[r] = (now_ns() - start) / ((double)passes * POINT_COUNT);
                }
                qsort(samples, (size_t)rounds, sizeof(double), compare_doubles);
                printf("| %d | %s | %s | %.1f |\n", sizes[s], shapes[shape], kinds[kind], samples[rounds / 2]);
                if (sink == 42) puts("");  // keeps the work observable
                wlroots_scene_destroy(scene);
                scene_free(&d);
            }
        }
    }
    free(samples);
    return 0;
}
