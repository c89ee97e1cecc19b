/* seatkit_replay_* after creation: libseatkit's player does the work (its handle table, its
 * thread check, its router's clock). seatkit_replay_create is Swift (ReplayAPI.swift). */
#include "seatkit_replay_private.h"

void seatkit_replay_add_devices(struct seatkit_replay *replay)
{
	seatkit__player_add_devices(replay);
}

void seatkit_replay_play(struct seatkit_replay *replay, seatkit_replay_finished_func_t finished, void *data)
{
	seatkit__player_play(replay, finished, data);
}

size_t seatkit_replay_get_event_count(struct seatkit_replay *replay)
{
	return seatkit__player_get_event_count(replay);
}

void seatkit_replay_destroy(struct seatkit_replay *replay)
{
	seatkit__player_destroy(replay);
}
