#define _GNU_SOURCE
#include "CXKBCommon.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static seatkit_xkb_log_sink installed_sink;

static void seatkit_xkb_log(struct xkb_context *context, enum xkb_log_level level,
                            const char *format, va_list args) {
    char message[1024];
    int length = vsnprintf(message, sizeof message, format, args);
    if (length < 0) return;
    size_t end = (size_t)length < sizeof message ? (size_t)length : sizeof message - 1;
    while (end > 0 && message[end - 1] == '\n') message[--end] = '\0';
    seatkit_xkb_log_sink sink = __atomic_load_n(&installed_sink, __ATOMIC_ACQUIRE);
    if (sink) sink(xkb_context_get_user_data(context), (int)level, message);
}

void seatkit_xkb_context_set_log_sink(struct xkb_context *context, seatkit_xkb_log_sink sink) {
    // Swift passes the same sink every time; one global keeps the C side free of state
    // per context (the context's user data carries that). Atomic: keymaps may be compiled
    // on several threads at once (each with its own context), and one thread's store must
    // not race another's log call (ThreadSanitizer caught it).
    __atomic_store_n(&installed_sink, sink, __ATOMIC_RELEASE);
    xkb_context_set_log_fn(context, seatkit_xkb_log);
}

int seatkit_memfd_create_sealable(const char *name) {
#ifdef MFD_ALLOW_SEALING
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
#else
    errno = ENOSYS;
    return -1;
#endif
}

static const int read_only_seals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL;

int seatkit_seal_read_only(int fd) {
    return fcntl(fd, F_ADD_SEALS, read_only_seals);
}

int seatkit_is_sealed_read_only(int fd) {
    int seals = fcntl(fd, F_GET_SEALS);
    return seals >= 0 && (seals & read_only_seals) == read_only_seals;
}
