#ifndef SEATKIT_CREPLAYWORKERENTRY_H
#define SEATKIT_CREPLAYWORKERENTRY_H
#include <sys/types.h>
/* The environment variable that makes any program linking SeatKitReplay run as a replay
   worker instead of itself (see entry.c). */
#define SEATKIT_REPLAY_WORKER_MODE "SEATKIT_REPLAY_WORKER_MODE"
/* Forces this object into the link of every program that uses SeatKitReplay. */
int seatkit_replay_worker_entry_linked(void);
/* Opens a new raw PTY master (close-on-exec, non-blocking) for an emulated evdev node; sets
   *index to its /dev/pts number. -1 with errno on failure. (posix_openpt and friends are not
   visible to Swift through Glibc.) */
int seatkit_replay_open_pty(int *index);
/* read(2) and write(2) as system calls, for the worker's own stdin, stdout and stderr: under
   the preload, read() and write() go through umockdev's wrappers (its lock, taken with every
   signal blocked: two rt_sigprocmask per call) and the shim's read() (an fstat per call), which
   only the emulated nodes need. */
ssize_t seatkit_replay_raw_read(int fd, void *buffer, size_t size);
ssize_t seatkit_replay_raw_write(int fd, const void *buffer, size_t size);
/* The absolute path of the file this code was loaded from: the program that links SeatKitReplay
   statically, or libseatkit-replay.so. The preload shim is looked for beside it. NULL if
   unknown. */
const char *seatkit_replay_image_path(void);
#endif
