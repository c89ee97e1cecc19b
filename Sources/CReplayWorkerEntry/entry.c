/* A replay runs libinput in a child process. That child is the very program that asked for
   the replay (a test bundle, the seatkit tool, a compositor), started again with
   SEATKIT_REPLAY_WORKER_MODE=1: this constructor runs before the program's own main, runs
   the worker and exits. So the worker is always built, from the same sources, and never
   stale, with no extra build step and no second executable to find. */
#define _GNU_SOURCE
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <termios.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include "CReplayWorkerEntry.h"

/* Defined in Swift (SeatKitReplay, ReplayWorker.swift); weak, so that this file links on its own. */
extern int seatkit_replay_worker_main(int argc, char **argv) __attribute__((weak));

int seatkit_replay_worker_entry_linked(void) { return 1; }

__attribute__((constructor)) static void seatkit_replay_worker_hook(int argc, char **argv, char **envp)
{
    (void)envp;
    const char *mode = getenv(SEATKIT_REPLAY_WORKER_MODE);
    if (mode == NULL || strcmp(mode, "1") != 0 || seatkit_replay_worker_main == NULL)
        return;
    int status = seatkit_replay_worker_main(argc, argv);
    fflush(NULL);
    _exit(status);
}

int seatkit_replay_open_pty(int *index)
{
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -1;
    char name[64];
    struct termios ios;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ptsname_r(fd, name, sizeof name) != 0
        || strncmp(name, "/dev/pts/", 9) != 0 || tcgetattr(fd, &ios) != 0) {
        close(fd);
        return -1;
    }
    /* Raw, as umockdev makes its PTYs: no echo, no line editing, no translation. */
    cfmakeraw(&ios);
    if (tcsetattr(fd, TCSANOW, &ios) != 0) {
        close(fd);
        return -1;
    }
    *index = atoi(name + 9);
    return fd;
}

ssize_t seatkit_replay_raw_read(int fd, void *buffer, size_t size)
{
    return (ssize_t)syscall(SYS_read, fd, buffer, size);
}

ssize_t seatkit_replay_raw_write(int fd, const void *buffer, size_t size)
{
    return (ssize_t)syscall(SYS_write, fd, buffer, size);
}

/* At most this many descriptors in one message: a replay's devices. */
#define SEATKIT_REPLAY_MAX_FDS 64

ssize_t seatkit_replay_send_with_fds(int sock, const void *buffer, size_t size, const int *fds, int count)
{
    if (count < 0 || count > SEATKIT_REPLAY_MAX_FDS) {
        errno = EINVAL;
        return -1;
    }
    struct iovec iov = { .iov_base = (void *)buffer, .iov_len = size };
    union { struct cmsghdr header; char space[CMSG_SPACE(sizeof(int) * SEATKIT_REPLAY_MAX_FDS)]; } control;
    struct msghdr message = { .msg_iov = &iov, .msg_iovlen = 1 };
    if (count > 0) {
        memset(&control, 0, sizeof control);
        message.msg_control = control.space;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)count);
        struct cmsghdr *c = CMSG_FIRSTHDR(&message);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)count);
        memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)count);
    }
    return (ssize_t)syscall(SYS_sendmsg, sock, &message, MSG_DONTWAIT | MSG_NOSIGNAL);
}

ssize_t seatkit_replay_receive(int sock, void *buffer, size_t size, int *fds, int capacity, int *received)
{
    struct iovec iov = { .iov_base = buffer, .iov_len = size };
    union { struct cmsghdr header; char space[CMSG_SPACE(sizeof(int) * SEATKIT_REPLAY_MAX_FDS)]; } control;
    struct msghdr message = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.space, .msg_controllen = sizeof control.space };
    *received = 0;
    ssize_t n = (ssize_t)syscall(SYS_recvmsg, sock, &message, MSG_CMSG_CLOEXEC);
    if (n < 0)
        return n;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c != NULL; c = CMSG_NXTHDR(&message, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
            if (*received < capacity)
                fds[(*received)++] = fd;
            else
                close(fd);
        }
    }
    return n;
}

const char *seatkit_replay_image_path(void)
{
    Dl_info info;
    if (dladdr((void *)seatkit_replay_image_path, &info) == 0 || info.dli_fname == NULL || info.dli_fname[0] == '\0')
        return NULL;
    /* The main program is named by how it was started (maybe a relative name): say where it is. */
    if (strchr(info.dli_fname, '/') == NULL || info.dli_fname[0] != '/') {
        static char exe[4096];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0)
            return NULL;
        exe[n] = '\0';
        return exe;
    }
    return info.dli_fname;
}
