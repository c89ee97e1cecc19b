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
/* send(2) of size bytes on the stream socket sock (never blocking, never raising SIGPIPE), with
   the count descriptors in fds passed along (SCM_RIGHTS) when count > 0: they arrive with
   the first byte. Bytes sent, or -1 with errno. */
ssize_t seatkit_replay_send_with_fds(int sock, const void *buffer, size_t size, const int *fds, int count);
/* recvmsg(2) as a system call on the stream socket sock: up to size bytes, and the
   descriptors that came with them (close-on-exec) into fds, at most capacity (*received of
   them; any beyond capacity are closed). Bytes read, 0 at the end, or -1 with errno. */
ssize_t seatkit_replay_receive(int sock, void *buffer, size_t size, int *fds, int capacity, int *received);
/* The absolute path of the file this code was loaded from: the program that links SeatKitReplay
   statically, or libseatkit-replay.so. The preload shim is looked for beside it. NULL if
   unknown. */
const char *seatkit_replay_image_path(void);
#endif
