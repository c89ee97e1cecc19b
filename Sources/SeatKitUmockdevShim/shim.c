/* SeatKit's umockdev preload shim: loaded with LD_PRELOAD (before libumockdev-preload.so.0)
   into replay workers only, never linked into a program. What each part does, and why, is
   told in Sources/SeatKitReplay/PreloadShim.swift. Built by SwiftPM as the dynamic product
   SeatKitUmockdevShim (warnings as errors; the sanitizer builds compile it too);
   scripts/install.sh installs it as PREFIX/lib/libseatkit-umockdev-shim.so. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include "seatkit_umockdev_shim.h"

struct udev_device;
int udev_device_get_is_initialized(struct udev_device *device) { (void)device; return 1; }

/* Unix98 PTY slaves have majors 136..143. */
static int pty_index(dev_t rdev)
{
    unsigned maj = major(rdev);
    if (maj < 136 || maj > 143)
        return -1;
    return (int)((maj - 136) * 256 + minor(rdev));
}

static void report_emulated_device(int fd, struct stat *st)
{
    const char *root = getenv("UMOCKDEV_DIR");
    char self[64], target[256], map[4096], number[64];
    unsigned maj, min;
    ssize_t n;
    int saved = errno;
    if (root == NULL || !S_ISCHR(st->st_mode) || pty_index(st->st_rdev) < 0)
        goto done;
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    n = readlink(self, target, sizeof target - 1);
    if (n <= 0)
        goto done;
    target[n] = '\0';
    for (char *p = target; *p; p++)
        if (*p == '/')
            *p = '_';
    snprintf(map, sizeof map, "%s/dev/.ptymap/%s", root, target);
    n = readlink(map, number, sizeof number - 1);
    if (n <= 0)
        goto done;
    number[n] = '\0';
    if (sscanf(number, "%u:%u", &maj, &min) == 2)
        st->st_rdev = makedev(maj, min);
done:
    errno = saved;
}

int fstat(int fd, struct stat *st)
{
    static int (*next)(int, struct stat *);
    if (next == NULL)
        next = (int (*)(int, struct stat *))dlsym(RTLD_NEXT, "fstat");
    int r = next(fd, st);
    if (r == 0)
        report_emulated_device(fd, st);
    return r;
}

int fstat64(int fd, struct stat64 *st)
{
    static int (*next)(int, struct stat64 *);
    if (next == NULL)
        next = (int (*)(int, struct stat64 *))dlsym(RTLD_NEXT, "fstat64");
    int r = next(fd, st);
    if (r == 0)
        report_emulated_device(fd, (struct stat *)st);
    return r;
}

static const char *redirected(const char *path)
{
    const char *quirks = getenv("SEATKIT_REPLAY_QUIRKS");
    if (quirks != NULL && path != NULL && strcmp(path, "/etc/libinput/local-overrides.quirks") == 0)
        return quirks;
    return path;
}

/* udev's database of device properties. umockdev 0.17.16 does not redirect it into the
   testbed, so libudev looks for the emulated devices' entries in the real
   /run/udev/data: hundreds of failed opens per device added (libudev tries again on
   every property look-up), each through umockdev's path translation, and on a machine
   with udev, another device's real entry. Under a testbed there is none: say so at once. */
static int udev_database(const char *path)
{
    return path != NULL && strncmp(path, "/run/udev/data/", 15) == 0 && getenv("UMOCKDEV_DIR") != NULL;
}

/* libudev reads a device's database entry with fopen() and, finding none, tries again
   on every property look-up (about 340 times per replay, each with two getenv() in
   libudev and one here). An empty entry is read once: it adds no property, tag or link,
   and libudev then calls the device initialised, which udev_device_get_is_initialized()
   above answers anyway. */
static FILE *empty_udev_entry(void)
{
    int fd = (int)syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY | O_CLOEXEC);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
    if (f == NULL && fd >= 0)
        syscall(SYS_close, fd);
    return f;
}

/* libinput's system quirks files, served from memory while the worker has handed them
   over (SystemQuirks.swift): each file's text with the sections that cannot apply under
   the replay's DMI left out, so that a new context parses, and every quirk look-up
   matches, only the others. Copies: the caller's buffers may go. A count of 0 stops it. */
struct served_file { char *name; char *text; size_t length; };
static struct served_file *served_files;
static int served_count;
static char served_directory[256];

void seatkit_shim_serve_quirks(const char *directory, int count, const char *const *names,
                               const char *const *texts, const size_t *lengths)
{
    for (int i = 0; i < served_count; i++) {
        free(served_files[i].name);
        free(served_files[i].text);
    }
    free(served_files);
    served_files = NULL;
    served_count = 0;
    if (directory == NULL || count <= 0 || strlen(directory) >= sizeof served_directory)
        return;
    struct served_file *files = calloc((size_t)count, sizeof *files);
    if (files == NULL)
        return;
    for (int i = 0; i < count; i++) {
        files[i].name = strdup(names[i]);
        files[i].text = lengths[i] > 0 ? malloc(lengths[i]) : NULL;
        if (files[i].name == NULL || files[i].text == NULL) {
            for (int j = 0; j <= i; j++) {
                free(files[j].name);
                free(files[j].text);
            }
            free(files);
            return;
        }
        memcpy(files[i].text, texts[i], lengths[i]);
        files[i].length = lengths[i];
    }
    strcpy(served_directory, directory);
    served_files = files;
    served_count = count;
}

static FILE *served_quirks(const char *path, const char *mode)
{
    if (served_count == 0 || path == NULL || mode == NULL || mode[0] != 'r' || strchr(mode, '+') != NULL)
        return NULL;
    size_t n = strlen(served_directory);
    if (strncmp(path, served_directory, n) != 0 || path[n] != '/')
        return NULL;
    for (int i = 0; i < served_count; i++)
        if (strcmp(path + n + 1, served_files[i].name) == 0)
            return fmemopen(served_files[i].text, served_files[i].length, "r");
    return NULL;
}

/* fopen() and fopen64() (two symbols, one behaviour): the served quirks files, the udev
   database, the recorded quirks; anything else as `next` opens it. */
static FILE *open_stream(const char *path, const char *mode, FILE *(*next)(const char *, const char *))
{
    FILE *served = served_quirks(path, mode);
    if (served != NULL)
        return served;
    if (udev_database(path)) {
        if (mode != NULL && mode[0] == 'r' && strchr(mode, '+') == NULL)
            return empty_udev_entry();
        errno = ENOENT;
        return NULL;
    }
    return next(redirected(path), mode);
}

FILE *fopen(const char *path, const char *mode)
{
    static FILE *(*next)(const char *, const char *);
    if (next == NULL)
        next = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
    return open_stream(path, mode, next);
}

FILE *fopen64(const char *path, const char *mode)
{
    static FILE *(*next)(const char *, const char *);
    if (next == NULL)
        next = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen64");
    return open_stream(path, mode, next);
}

/* A name relative to a directory the caller holds open (not the working directory):
   what libudev's sysfs walk (systemd's chase_symlinks) does for each part of a path,
   after umockdev has put its first, absolute part ("/sys") into the testbed. The kernel
   resolves such a name inside that directory, so it needs no translation; umockdev's
   wrappers would take their lock (two rt_sigprocmask calls) and resolve the name against
   the *working* directory with realpath (getcwd and a readlink) to find it does not
   start with /dev, /sys or /proc, and then make the same call: four of the seven system
   calls of each step. "sys" and "dev" (umockdev's case of a directory that is "/") and
   anything else still go to umockdev. */
static int below_directory(int dirfd, const char *path)
{
    if (dirfd < 0 || path == NULL || path[0] == '/' || getenv("UMOCKDEV_DIR") == NULL)
        return 0;
    if ((strncmp(path, "sys", 3) == 0 || strncmp(path, "dev", 3) == 0) && (path[3] == '/' || path[3] == '\0'))
        return 0;
    return 1;
}

/* The path to use for a call that umockdev would only translate, or NULL to leave the
   call to umockdev. Besides the names below a directory (above): "/sys" and below
   become the testbed's, and "sys" and below in the directory "/" (how libudev's walk
   starts) too, as umockdev translates them (SeatKit never disables a testbed, so
   umockdev's check for that, one access() per call, always finds it enabled); other
   absolute paths but /dev, /proc and /run/udev stay as they are, as they do in
   umockdev. Without its lock and check each of these is one system call instead of
   four. */
static const char *direct_path(int dirfd, const char *path, char *buffer, size_t size)
{
    if (below_directory(dirfd, path))
        return path;
    if (path == NULL)
        return NULL;
    const char *root = getenv("UMOCKDEV_DIR");
    if (root == NULL)
        return NULL;
    int slash = 0; /* whether the testbed's path needs a '/' before path */
    if (path[0] == '/') {
        if (strncmp(path, "/sys", 4) == 0 && (path[4] == '/' || path[4] == '\0'))
            slash = 0;
        else if (strncmp(path, "/dev", 4) == 0 || strncmp(path, "/proc", 5) == 0 || strncmp(path, "/run/udev", 9) == 0)
            return NULL;
        else
            return path;
    } else if (dirfd >= 0 && strncmp(path, "sys", 3) == 0 && (path[3] == '/' || path[3] == '\0')) {
        char self[64], target[4];
        snprintf(self, sizeof self, "/proc/self/fd/%d", dirfd);
        if (syscall(SYS_readlink, self, target, sizeof target) != 1 || target[0] != '/')
            return NULL;
        slash = 1;
    } else {
        return NULL;
    }
    size_t n = strlen(root);
    if (n + (size_t)slash + strlen(path) + 1 > size)
        return NULL;
    memcpy(buffer, root, n);
    if (slash)
        buffer[n] = '/';
    strcpy(buffer + n + (size_t)slash, path);
    return buffer;
}

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
    static int (*next)(int, const char *, struct stat *, int);
    if (next == NULL)
        next = (int (*)(int, const char *, struct stat *, int))dlsym(RTLD_NEXT, "fstatat");
    char buffer[4096];
    const char *direct = direct_path(dirfd, path, buffer, sizeof buffer);
    if (direct != NULL)
        return (int)syscall(SYS_newfstatat, dirfd, direct, st, flags);
    return next(dirfd, path, st, flags);
}

int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
    static int (*next)(int, const char *, struct stat64 *, int);
    if (next == NULL)
        next = (int (*)(int, const char *, struct stat64 *, int))dlsym(RTLD_NEXT, "fstatat64");
    char buffer[4096];
    const char *direct = direct_path(dirfd, path, buffer, sizeof buffer);
    if (direct != NULL)
        return (int)syscall(SYS_newfstatat, dirfd, direct, st, flags);
    return next(dirfd, path, st, flags);
}

ssize_t readlinkat(int dirfd, const char *path, char *buffer, size_t size)
{
    static ssize_t (*next)(int, const char *, char *, size_t);
    if (next == NULL)
        next = (ssize_t (*)(int, const char *, char *, size_t))dlsym(RTLD_NEXT, "readlinkat");
    char translated[4096];
    const char *direct = direct_path(dirfd, path, translated, sizeof translated);
    if (direct != NULL)
        return (ssize_t)syscall(SYS_readlinkat, dirfd, direct, buffer, size);
    return next(dirfd, path, buffer, size);
}

#define OPEN_WRAPPER(name) \
    int name(const char *path, int flags, ...) \
    { \
        static int (*next)(const char *, int, ...); \
        if (next == NULL) \
            next = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name); \
        mode_t mode = 0; \
        if (flags & (O_CREAT | O_TMPFILE)) { \
            va_list ap; \
            va_start(ap, flags); \
            mode = (mode_t)va_arg(ap, int); \
            va_end(ap); \
        } \
        if (udev_database(path)) { \
            errno = ENOENT; \
            return -1; \
        } \
        char buffer[4096]; \
        const char *direct = path[0] == '/' ? direct_path(AT_FDCWD, path, buffer, sizeof buffer) : NULL; \
        if (direct != NULL) \
            return (int)syscall(SYS_openat, AT_FDCWD, direct, flags, mode); \
        return next(path, flags, mode); \
    }
#define OPENAT_WRAPPER(name) \
    int name(int dirfd, const char *path, int flags, ...) \
    { \
        static int (*next)(int, const char *, int, ...); \
        if (next == NULL) \
            next = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, #name); \
        mode_t mode = 0; \
        if (flags & (O_CREAT | O_TMPFILE)) { \
            va_list ap; \
            va_start(ap, flags); \
            mode = (mode_t)va_arg(ap, int); \
            va_end(ap); \
        } \
        if (udev_database(path)) { \
            errno = ENOENT; \
            return -1; \
        } \
        char buffer[4096]; \
        const char *direct = direct_path(dirfd, path, buffer, sizeof buffer); \
        if (direct != NULL) \
            return (int)syscall(SYS_openat, dirfd, direct, flags, mode); \
        return next(dirfd, path, flags, mode); \
    }
OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)
OPENAT_WRAPPER(openat)
OPENAT_WRAPPER(openat64)

static uint64_t *read_counters;
static int read_counters_state; /* 0 not tried, 1 mapped, -1 none */

static uint64_t *counters(void)
{
    if (read_counters_state == 0) {
        const char *path = getenv("SEATKIT_REPLAY_ACK");
        int (*real_open)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
        int fd = path ? real_open(path, O_RDWR | O_CLOEXEC) : -1;
        read_counters_state = -1;
        if (fd >= 0) {
            void *m = mmap(NULL, 4096 * sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            close(fd);
            if (m != MAP_FAILED) {
                read_counters = (uint64_t *)m;
                read_counters_state = 1;
            }
        }
    }
    return read_counters;
}

/* The PTY index of an emulated node open as fd, known from the ioctls answered on it
   (libevdev asks its ioctls right after the open, before the first read), or -1: then an
   fstat tells. The entry goes when the fd is closed (close() below), so a number used
   again is asked afresh. */
static int known_node(int fd);

/* The size of struct input_event on 64-bit Linux. */
#define INPUT_EVENT_SIZE 24

ssize_t read(int fd, void *buffer, size_t size)
{
    static ssize_t (*next)(int, void *, size_t);
    if (next == NULL)
        next = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    /* An emulated evdev node is a PTY that umockdev has nothing to answer for: read it
       with the system call itself, not through umockdev's read(), which asks the
       testbed's thread over a socket on every call. */
    struct stat st;
    uint64_t *c = counters();
    int index = -1;
    if (c != NULL && (index = known_node(fd)) < 0 && syscall(SYS_fstat, fd, &st) == 0 && S_ISCHR(st.st_mode))
        index = pty_index(st.st_rdev);
    if (index < 0 || index >= 4096)
        return next(fd, buffer, size);
    ssize_t r = syscall(SYS_read, fd, buffer, size);
    if (r > 0) {
        int saved = errno;
        /* The writer only ever writes whole events, but the PTY may hand them over in
           pieces (its buffers split at about 2 KiB). libevdev drops the device on a read
           that is not a whole number of events, so finish the event here: the rest is
           on its way. */
        while (r % INPUT_EVENT_SIZE != 0 && (size_t)r < size) {
            size_t want = INPUT_EVENT_SIZE - (size_t)r % INPUT_EVENT_SIZE;
            struct pollfd p = { .fd = fd, .events = POLLIN };
            if (poll(&p, 1, 10000) <= 0)
                break;
            ssize_t more = syscall(SYS_read, fd, (char *)buffer + r, want);
            if (more > 0)
                r += more;
            else if (more == 0 || (errno != EAGAIN && errno != EINTR))
                break;
        }
        __atomic_add_fetch(&c[index], (uint64_t)r, __ATOMIC_SEQ_CST);
        errno = saved;
    }
    return r;
}

/* evdev ioctls answered here, from the answers the replay wrote for each emulated node
   ($SEATKIT_REPLAY_IOCTLS/pty<N>, N the node's PTY index), instead of by umockdev's
   testbed thread over a socket (one round trip between threads per ioctl, about 40 per
   device). The answers follow the kernel's rules: variable-length requests (name,
   bitmaps) copy at most the caller's size and return the bytes copied. A request the file
   has no answer for goes on to umockdev. File: records of
   { u8 nr; u8 pad[3]; i32 result; u32 length; u8 payload[length]; } (little-endian);
   a negative result is an errno. */
#define ANSWER_FDS 1024
struct answers { int pty; unsigned size; unsigned char *bytes; };
static struct answers fd_answers[ANSWER_FDS];

static int known_node(int fd)
{
    return fd >= 0 && fd < ANSWER_FDS && fd_answers[fd].bytes != NULL ? fd_answers[fd].pty : -1;
}

static void forget_answers(int fd)
{
    if (fd >= 0 && fd < ANSWER_FDS && fd_answers[fd].bytes != NULL) {
        free(fd_answers[fd].bytes);
        fd_answers[fd].bytes = NULL;
        fd_answers[fd].size = 0;
    }
}

static struct answers *answers_for(int fd, int pty)
{
    if (fd < 0 || fd >= ANSWER_FDS)
        return NULL;
    struct answers *a = &fd_answers[fd];
    if (a->bytes != NULL && a->pty == pty)
        return a;
    forget_answers(fd);
    const char *dir = getenv("SEATKIT_REPLAY_IOCTLS");
    if (dir == NULL)
        return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/pty%d", dir, pty);
    int f = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
    if (f < 0)
        return NULL;
    struct stat st;
    unsigned char *bytes = NULL;
    if (syscall(SYS_fstat, f, &st) == 0 && st.st_size > 0 && st.st_size < (1 << 20))
        bytes = malloc((size_t)st.st_size);
    size_t got = 0;
    while (bytes != NULL && got < (size_t)st.st_size) {
        ssize_t n = syscall(SYS_read, f, bytes + got, (size_t)st.st_size - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    syscall(SYS_close, f);
    if (bytes == NULL || got != (size_t)st.st_size) {
        free(bytes);
        return NULL;
    }
    a->pty = pty;
    a->size = (unsigned)got;
    a->bytes = bytes;
    return a;
}

static int32_t le32_at(const unsigned char *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* 1 when answered (result in *out, errno set for -1), 0 when umockdev should answer. */
static int answer_evdev_ioctl(int fd, unsigned long request, void *arg, int *out)
{
    unsigned type = (request >> 8) & 0xff, nr = request & 0xff;
    unsigned size = (request >> 16) & 0x3fff, dir = (unsigned)(request >> 30) & 3;
    if (type != 'E')
        return 0;
    struct answers *a = known_node(fd) >= 0 ? &fd_answers[fd] : NULL;
    if (a == NULL) {
        struct stat st;
        if (getenv("SEATKIT_REPLAY_IOCTLS") == NULL || syscall(SYS_fstat, fd, &st) != 0 || !S_ISCHR(st.st_mode))
            return 0;
        int pty = pty_index(st.st_rdev);
        a = pty < 0 ? NULL : answers_for(fd, pty);
    }
    if (a == NULL)
        return 0;
    if (nr == 0xa0 && dir == 1) {
        /* EVIOCSCLOCKID (libevdev_set_clock_id, once per device): umockdev 0.17 has no
           answer for it and fails it with ENOENT, over a socket round trip to its thread
           in the replaying process. The same answer, here. */
        errno = ENOENT;
        *out = -1;
        return 1;
    }
    unsigned offset = 0;
    while (offset + 12 <= a->size) {
        const unsigned char *r = a->bytes + offset;
        int32_t result = le32_at(r + 4);
        uint32_t length = (uint32_t)le32_at(r + 8);
        const unsigned char *payload = r + 12;
        if (length > a->size - offset - 12)
            break;
        offset += 12 + length;
        if (r[0] != nr)
            continue;
        if (result < 0) {
            errno = -result;
            *out = -1;
            return 1;
        }
        if (nr == 0x0a) {
            /* EVIOCGMTSLOTS: { code, values[] }; payload holds (code, value) pairs. */
            int32_t *values = (int32_t *)arg;
            if (arg == NULL || size < 4)
                break;
            for (uint32_t i = 0; i + 8 <= length; i += 8) {
                if (le32_at(payload + i) != values[0])
                    continue;
                int32_t v = le32_at(payload + i + 4);
                for (unsigned s = 1; s < size / 4; s++)
                    values[s] = v;
                *out = 0;
                return 1;
            }
            errno = EINVAL;
            *out = -1;
            return 1;
        }
        if (!(dir & 2) || arg == NULL)
            return 0;
        unsigned n = length < size ? length : size;
        memcpy(arg, payload, n);
        /* Variable-length requests return the bytes copied; fixed ones their result. */
        int variable = (nr >= 0x06 && nr <= 0x09) || (nr >= 0x18 && nr <= 0x1b) || (nr >= 0x20 && nr < 0x40);
        *out = variable ? (int)(n < (unsigned)result ? n : (unsigned)result) : result;
        return 1;
    }
    return 0;
}

int ioctl(int fd, unsigned long request, ...)
{
    static int (*next)(int, unsigned long, ...);
    if (next == NULL)
        next = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    int saved = errno, result;
    if (answer_evdev_ioctl(fd, request, arg, &result)) {
        if (result >= 0)
            errno = saved;
        return result;
    }
    errno = saved;
    return next(fd, request, arg);
}

int close(int fd)
{
    static int (*next)(int);
    if (next == NULL)
        next = (int (*)(int))dlsym(RTLD_NEXT, "close");
    forget_answers(fd);
    return next(fd);
}

/* fnmatch() for libinput's quirks. Every quirk look-up (about 18 for each device libinput
   adds) matches the device's name and the DMI modalias against every MatchName and
   MatchDMIModalias pattern of the quirks files (about 220) with fnmatch(), whose general
   matcher was 44 % of the worker's instructions in a short replay. libinput passes flags 0,
   and its patterns are literals, '*' and a few '?': those are matched here in linear time
   with the same answer. With flags 0 a '*' matches any bytes ('/' and '.' too) and '?' any
   one character, which is one byte in a single-byte locale (the worker's, "C"); a literal
   byte matches itself in any locale (UTF-8 never matches inside a character). Anything
   else ('[', '\\', flags, '?' in a multibyte locale) goes to the C library. Returns -1
   for those, else 0 or FNM_NOMATCH; exported for the test that compares it with the C
   library's. */
static inline int segment_matches(const char *s, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != s[i] && p[i] != '?')
            return 0;
    return 1;
}

int seatkit_star_fnmatch(const char *pattern, const char *string, int flags)
{
    if (flags != 0 || pattern == NULL || string == NULL)
        return -1;
    for (const char *q = pattern; *q != '\0'; q++)
        if (*q == '[' || *q == '\\' || (*q == '?' && MB_CUR_MAX != 1))
            return -1;
    const char *p = pattern, *s = string;
    size_t left = strlen(s);
    /* What comes before the first '*': at the start. */
    size_t n = strcspn(p, "*");
    if (p[n] == '\0')
        return n == left && segment_matches(s, p, n) ? 0 : FNM_NOMATCH;
    if (n > left || !segment_matches(s, p, n))
        return FNM_NOMATCH;
    s += n;
    left -= n;
    p += n;
    for (;;) {
        while (*p == '*')
            p++;
        if (*p == '\0')
            return 0;
        n = strcspn(p, "*");
        if (p[n] == '\0')
            /* After the last '*': at the end. */
            return n <= left && segment_matches(s + left - n, p, n) ? 0 : FNM_NOMATCH;
        /* Between stars: the leftmost place leaves the most for the rest (every part
           has a fixed length). */
        size_t i = 0;
        if (p[0] == '?') {
            while (i + n <= left && !segment_matches(s + i, p, n))
                i++;
            if (i + n > left)
                return FNM_NOMATCH;
        } else {
            /* Candidates start with the part's first byte: memchr finds them. */
            for (;;) {
                const char *f = i + n <= left ? memchr(s + i, p[0], left - n + 1 - i) : NULL;
                if (f == NULL)
                    return FNM_NOMATCH;
                i = (size_t)(f - s);
                if (segment_matches(f + 1, p + 1, n - 1))
                    break;
                i++;
            }
        }
        s += i + n;
        left -= i + n;
        p += n;
    }
}

/* The answers already given, by pattern and string. libinput matches the same patterns
   (its quirks, parsed once per context) against the same device name and DMI modalias
   about 18 times for each device it adds, and a warm session adds the same devices to
   the same contexts again and again: about 2,900 calls in a round-robin replay, 510
   instructions each. Entries are kept in sets of 4 by the pattern's address (each
   context has its own copy of the patterns, and it matches them against its few
   devices' names and its DMI modalias). An entry is used only if the pattern and the
   string are still the texts it was made for (libinput frees and allocates the name
   for every look-up, and a freed pattern's memory may hold another one later) and, for
   a '?', the locale is still single-byte. The worker is one thread. Exported for the
   test that changes the texts behind the pointers. */
#define MEMO_SETS 1024
#define MEMO_WAYS 4
#define MEMO_TEXT 480
struct memo_entry {
    const char *pattern;
    int result, question;
    size_t plen;
    char text[MEMO_TEXT]; /* the pattern, NUL, the string, NUL */
};
static struct memo_entry memo[MEMO_SETS][MEMO_WAYS];
static unsigned char memo_next[MEMO_SETS];

int seatkit_memo_fnmatch(const char *pattern, const char *string, int flags)
{
    if (flags != 0 || pattern == NULL || string == NULL)
        return -1;
    size_t set = (size_t)(((uint64_t)(uintptr_t)pattern * 0x9E3779B97F4A7C15ull) >> 32) % MEMO_SETS;
    for (int w = 0; w < MEMO_WAYS; w++) {
        /* Entries of one address may be for different patterns: each is checked. */
        struct memo_entry *e = &memo[set][w];
        if (e->pattern == pattern && e->text[e->plen + 1] == string[0] && strcmp(e->text, pattern) == 0
            && strcmp(e->text + e->plen + 1, string) == 0 && (!e->question || MB_CUR_MAX == 1))
            return e->result;
    }
    int r = seatkit_star_fnmatch(pattern, string, flags);
    if (r < 0)
        return r;
    size_t plen = strlen(pattern), slen = strlen(string);
    if (plen + slen + 2 <= MEMO_TEXT) {
        struct memo_entry *e = &memo[set][memo_next[set]++ % MEMO_WAYS];
        e->pattern = pattern;
        e->result = r;
        e->question = strchr(pattern, '?') != NULL;
        e->plen = plen;
        memcpy(e->text, pattern, plen + 1);
        memcpy(e->text + plen + 1, string, slen + 1);
    }
    return r;
}

int fnmatch(const char *pattern, const char *string, int flags)
{
    static int (*next)(const char *, const char *, int);
    int r = seatkit_memo_fnmatch(pattern, string, flags);
    if (r >= 0)
        return r;
    if (next == NULL)
        next = (int (*)(const char *, const char *, int))dlsym(RTLD_NEXT, "fnmatch");
    return next(pattern, string, flags);
}

/* Virtual time. With SEATKIT_REPLAY_CLOCK naming a file, CLOCK_MONOTONIC reads the
   microseconds the replay stored there, and timerfds never fire on their own: libinput
   runs its due timers with each event's time before processing it, and the replay
   ends with an event later than every timer. So nothing libinput does depends on the
   wall clock or on how fast the machine is. */
static volatile int64_t *virtual_clock;
static int virtual_clock_state; /* 0 not tried, 1 mapped, -1 none */

static volatile int64_t *clock_page(void)
{
    if (virtual_clock_state == 0) {
        const char *path = getenv("SEATKIT_REPLAY_CLOCK");
        int (*real_open)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
        int fd = path ? real_open(path, O_RDONLY | O_CLOEXEC) : -1;
        virtual_clock_state = -1;
        if (fd >= 0) {
            void *m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
            close(fd);
            if (m != MAP_FAILED) {
                virtual_clock = (volatile int64_t *)m;
                virtual_clock_state = 1;
            }
        }
    }
    return virtual_clock;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    static int (*next)(clockid_t, struct timespec *);
    if (next == NULL)
        next = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    volatile int64_t *v = (id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_COARSE) ? clock_page() : NULL;
    if (v != NULL) { /* ts is nonnull, as in the C library */
        int64_t us = __atomic_load_n(v, __ATOMIC_SEQ_CST);
        ts->tv_sec = us / 1000000;
        ts->tv_nsec = (us % 1000000) * 1000;
        return 0;
    }
    return next(id, ts);
}

int timerfd_settime(int fd, int flags, const struct itimerspec *value, struct itimerspec *old)
{
    static int (*next)(int, int, const struct itimerspec *, struct itimerspec *);
    if (next == NULL)
        next = (int (*)(int, int, const struct itimerspec *, struct itimerspec *))dlsym(RTLD_NEXT, "timerfd_settime");
    if (clock_page() != NULL) {
        struct itimerspec disarmed;
        memset(&disarmed, 0, sizeof disarmed);
        return next(fd, flags, &disarmed, old);
    }
    return next(fd, flags, value, old);
}
