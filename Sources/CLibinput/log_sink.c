#include "CLibinput.h"
#include <stdarg.h>
#include <stdio.h>

static void seatkit_log_handler(struct libinput *libinput, enum libinput_log_priority priority,
                                const char *format, va_list args)
{
    seatkit_log_sink sink = (seatkit_log_sink)libinput_get_user_data(libinput);
    char message[1024];
    vsnprintf(message, sizeof message, format, args);
    if (sink)
        sink(libinput, (int)priority, message);
}

void seatkit_libinput_set_log_sink(struct libinput *libinput, seatkit_log_sink sink)
{
    (void)sink;
    libinput_log_set_handler(libinput, seatkit_log_handler);
}
