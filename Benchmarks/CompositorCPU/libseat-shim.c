/* A seat for a wlroots compositor (cage) whose input devices are emulated by umockdev.
 *
 * libseat 0.7's "noop" backend never enables the seat and its "builtin" backend refuses a
 * PTY node, so wlroots' libinput backend would wait for a session forever. Preloaded before
 * libseat, these definitions stand in for libseat's API: the seat is enabled on the first
 * dispatch, and devices are opened with open(2), which umockdev's own preload redirects to
 * the testbed. For benchmarks and tests only: there is no session switching, no VT and no
 * access control. Build: cc -shared -fPIC -O2 -o libseat-shim.so libseat-shim.c */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct libseat;
struct libseat_seat_listener {
    void (*enable_seat)(struct libseat *seat, void *userdata);
    void (*disable_seat)(struct libseat *seat, void *userdata);
};

struct shim_seat {
    const struct libseat_seat_listener *listener;
    void *userdata;
    int fd;
    int enabled;
};

struct libseat *libseat_open_seat(const struct libseat_seat_listener *listener, void *userdata)
{
    struct shim_seat *seat = calloc(1, sizeof *seat);
    if (seat == NULL)
        return NULL;
    seat->listener = listener;
    seat->userdata = userdata;
    /* Readable until the first dispatch, which enables the seat. */
    seat->fd = eventfd(1, EFD_CLOEXEC | EFD_NONBLOCK);
    return (struct libseat *)seat;
}

int libseat_dispatch(struct libseat *handle, int timeout)
{
    (void)timeout;
    struct shim_seat *seat = (struct shim_seat *)handle;
    uint64_t value;
    if (read(seat->fd, &value, sizeof value) < 0) { /* nothing pending */ }
    if (!seat->enabled) {
        seat->enabled = 1;
        seat->listener->enable_seat(handle, seat->userdata);
        return 1;
    }
    return 0;
}

int libseat_get_fd(struct libseat *handle) { return ((struct shim_seat *)handle)->fd; }
const char *libseat_seat_name(struct libseat *handle) { (void)handle; return "seat0"; }
int libseat_disable_seat(struct libseat *handle) { (void)handle; return 0; }
int libseat_switch_session(struct libseat *handle, int session) { (void)handle; (void)session; return -1; }

int libseat_close_seat(struct libseat *handle)
{
    struct shim_seat *seat = (struct shim_seat *)handle;
    close(seat->fd);
    free(seat);
    return 0;
}

/* The device id is the fd itself. */
int libseat_open_device(struct libseat *handle, const char *path, int *fd)
{
    (void)handle;
    int f = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (f < 0)
        return -1;
    *fd = f;
    return f;
}

int libseat_close_device(struct libseat *handle, int device_id)
{
    (void)handle;
    (void)device_id; /* the caller closes the fd */
    return 0;
}

typedef void (*libseat_log_func)(int level, const char *format, va_list args);
void libseat_set_log_handler(libseat_log_func handler) { (void)handler; }
void libseat_set_log_level(int level) { (void)level; }
