#include "CLibinput.h"
#include <stdarg.h>
#include <stdio.h>

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

void seatkit_libinput_set_log_sink(struct libinput *libinput, seatkit_log_sink sink)
{
    __atomic_store_n(&current_sink, sink, __ATOMIC_RELEASE);
    libinput_log_set_handler(libinput, seatkit_log_handler);
}
