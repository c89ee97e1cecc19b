#ifndef SEATKIT_CREPLAYWORKERENTRY_H
#define SEATKIT_CREPLAYWORKERENTRY_H
/* The environment variable that makes any program linking SeatKitReplay run as a replay
   worker instead of itself (see entry.c). */
#define SEATKIT_REPLAY_WORKER_MODE "SEATKIT_REPLAY_WORKER_MODE"
/* Forces this object into the link of every program that uses SeatKitReplay. */
int seatkit_replay_worker_entry_linked(void);
#endif
