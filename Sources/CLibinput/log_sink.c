#include "CLibinput.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static seatkit_log_sink current_sink;

static void seatkit_log_handler(struct libinput *libinput, enum libinput_log_priority priority,
                                const char *format, va_list args)
{
    char message[1024];
    seatkit_log_sink sink = __atomic_load_n(&current_sink, __ATOMIC_ACQUIRE);
    if (!sink)
        return;
    vsnprintf(message, sizeof message, format, args);
    sink(libinput, (int)priority, message);
}

/* The line sink of the contexts made while it was pending (one function for the process),
 * and the one pending on this thread. */
static seatkit_log_line_sink current_line_sink;
static _Thread_local seatkit_log_line_sink pending_line_sink;

#define SEATKIT_LINE_PREFIX "libinput: "

static void seatkit_log_line_handler(struct libinput *libinput, enum libinput_log_priority priority,
                                     const char *format, va_list args)
{
    (void)libinput;
    /* The prefix, then the message as seatkit_log_handler formats it (1,023 bytes at most). */
    char line[sizeof SEATKIT_LINE_PREFIX - 1 + 1024];
    size_t prefix = sizeof SEATKIT_LINE_PREFIX - 1;
    seatkit_log_line_sink sink = __atomic_load_n(&current_line_sink, __ATOMIC_ACQUIRE);
    if (!sink)
        return;
    memcpy(line, SEATKIT_LINE_PREFIX, prefix);
    int written = vsnprintf(line + prefix, sizeof line - prefix, format, args);
    size_t length = prefix;
    if (written > 0)
        length += (size_t)written < sizeof line - prefix ? (size_t)written : sizeof line - prefix - 1;
    /* Its newlines trimmed from the end, as a Swift String's removeLast() of a "\n" or "\r\n". */
    while (length > 0 && line[length - 1] == '\n') {
        length--;
        if (length > 0 && line[length - 1] == '\r')
            length--;
    }
    line[length] = '\0';
    sink((int)priority, line);
}

void seatkit_libinput_set_log_sink(struct libinput *libinput, seatkit_log_sink sink)
{
    seatkit_log_line_sink line_sink = pending_line_sink;
    if (line_sink) {
        __atomic_store_n(&current_line_sink, line_sink, __ATOMIC_RELEASE);
        libinput_log_set_handler(libinput, seatkit_log_line_handler);
        return;
    }
    __atomic_store_n(&current_sink, sink, __ATOMIC_RELEASE);
    libinput_log_set_handler(libinput, seatkit_log_handler);
}

void seatkit_libinput_set_pending_log_line_sink(seatkit_log_line_sink sink)
{
    pending_line_sink = sink;
}
