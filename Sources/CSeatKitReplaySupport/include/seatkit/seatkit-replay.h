/*
 * SeatKit's replayed recordings from C: libseatkit-replay, for test programs (pkg-config
 * seatkit-replay; meson dependency('seatkit-replay')). A `libinput record` file runs through
 * real libinput under umockdev, and its events play into a router at their recorded pace.
 *
 * Not for production compositors: this library loads libumockdev and glib, and carries the
 * replay worker's entry (a constructor that runs a program as a replay worker instead of its
 * main when SEATKIT_REPLAY_WORKER_MODE=1 is in its environment). libseatkit itself has none
 * of this. Needs at run time: umockdev (libumockdev-preload.so.0), and the preload shim
 * scripts/install.sh puts beside this library (libseatkit-umockdev-shim.so).
 *
 * The same conventions as seatkit.h (handles, logging, threads). Versioned with libseatkit:
 * use the libseatkit-replay of the same release as libseatkit.
 */
#ifndef SEATKIT_SEATKIT_REPLAY_H
#define SEATKIT_SEATKIT_REPLAY_H

#include <seatkit/seatkit.h>

#ifdef __cplusplus
extern "C" {
#endif

struct seatkit_replay;

/* Runs a `libinput record` file through real libinput now (under umockdev, no root and no
 * uinput; a replay worker process does the libinput side) and keeps the events libinput
 * reported, to play into `router` later. `worker`: the `seatkit` executable to run as the
 * worker; NULL takes $SEATKIT_REPLAY_WORKER, else `seatkit` in the bin directory beside the
 * lib directory libseatkit-replay.so was loaded from (scripts/install.sh puts it there),
 * else this very program (which links this library, so it can be its own worker). NULL on
 * failure (a malformed recording names its file and line), logged. */
struct seatkit_replay *seatkit_replay_create(struct seatkit_router *router, const char *path,
	const char *worker);

/* Announces the recording's devices to the router now (notify_device_added for each), so
 * capabilities are known before playing. Touch devices map to the first output. */
void seatkit_replay_add_devices(struct seatkit_replay *replay);

typedef void (*seatkit_replay_finished_func_t)(void *data, struct seatkit_replay *replay);

/* Plays the input events into the router through the notify door at their recorded pace,
 * on the router's clock (event-loop timers, or seatkit_router_advance_clock): an event
 * recorded t µs after the first one is injected t µs after this call, stamped with the
 * router's time then. Positions of absolute devices map to the first output (layout
 * space). `finished` (optional) is called after the last event. */
void seatkit_replay_play(struct seatkit_replay *replay, seatkit_replay_finished_func_t finished,
	void *data);

/* The number of input events (device announcements excepted) libinput reported. */
size_t seatkit_replay_get_event_count(struct seatkit_replay *replay);

/* Stops playing and ends the handle. Destroyed with its router too. */
void seatkit_replay_destroy(struct seatkit_replay *replay);

#ifdef __cplusplus
}
#endif

#endif
