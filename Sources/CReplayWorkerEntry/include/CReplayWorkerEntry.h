#ifndef SEATKIT_CREPLAYWORKERENTRY_H
#define SEATKIT_CREPLAYWORKERENTRY_H
/* The environment variable that makes any program linking SeatKitReplay run as a replay
   worker instead of itself (see entry.c). */
#define SEATKIT_REPLAY_WORKER_MODE "SEATKIT_REPLAY_WORKER_MODE"
/* Forces this object into the link of every program that uses SeatKitReplay. */
int seatkit_replay_worker_entry_linked(void);
/* Opens a new raw PTY master (close-on-exec, non-blocking) for an emulated evdev node; sets
   *index to its /dev/pts number. -1 with errno on failure. (posix_openpt and friends are not
   visible to Swift through Glibc.) */
int seatkit_replay_open_pty(int *index);
#endif
