/* Not installed: libseatkit's private entry points that libseatkit-replay calls (the two
 * libraries of one release only; no compatibility promise), and the public seatkit_replay_*
 * functions as Swift sees them (seatkit-replay.h includes seatkit.h, which this module
 * cannot reach). */
#ifndef SEATKIT_REPLAY_PRIVATE_H
#define SEATKIT_REPLAY_PRIVATE_H
#include <stddef.h>
#include <stdint.h>

struct seatkit_router;
struct seatkit_replay;
typedef void (*seatkit_replay_finished_func_t)(void *data, struct seatkit_replay *replay);

/* libseatkit (CSeatKit, PlayerAPI.swift): a player of device events in SeatKitLibinput's
 * binary form (DeviceEvent.encode), on the router's clock, behind a seatkit_replay handle in
 * libseatkit's handle table. Creating one checks the router and the thread; NULL, logged, on
 * a bad router or malformed events. */
struct seatkit_replay *seatkit__player_create(struct seatkit_router *router, const uint8_t *events,
	size_t length);
void seatkit__player_add_devices(struct seatkit_replay *replay);
void seatkit__player_play(struct seatkit_replay *replay, seatkit_replay_finished_func_t finished,
	void *data);
size_t seatkit__player_get_event_count(struct seatkit_replay *replay);
void seatkit__player_destroy(struct seatkit_replay *replay);
/* Whether `router` is a live router handle usable on this thread (logs nothing). */
int seatkit__router_is_live(struct seatkit_router *router);
/* Logs `message` through libseatkit's log callback (importance: enum seatkit_log_importance). */
void seatkit__log(int importance, const char *message);

/* libseatkit-replay's public functions (seatkit-replay.h). */
void seatkit_replay_add_devices(struct seatkit_replay *replay);
void seatkit_replay_play(struct seatkit_replay *replay, seatkit_replay_finished_func_t finished,
	void *data);
size_t seatkit_replay_get_event_count(struct seatkit_replay *replay);
void seatkit_replay_destroy(struct seatkit_replay *replay);
#endif
