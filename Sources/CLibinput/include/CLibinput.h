#ifndef SEATKIT_CLIBINPUT_H
#define SEATKIT_CLIBINPUT_H
#include <libinput.h>
#include <libudev.h>
#include <fcntl.h>
#include <unistd.h>
#include <poll.h>

/* libinput's log handler takes a va_list, which Swift cannot receive: this installs a
   handler that formats the message and hands it to a plain callback (one per process). */
typedef void (*seatkit_log_sink)(struct libinput *libinput, int priority, const char *message);
void seatkit_libinput_set_log_sink(struct libinput *libinput, seatkit_log_sink sink);

/* A context's log lines without a Swift String per line: while a line sink is pending on
   the calling thread, seatkit_libinput_set_log_sink (called when a context is made) gives
   that context a handler that formats each line into a buffer on the stack as
   "libinput: MESSAGE" (MESSAGE as the sink above gets it, its trailing newlines trimmed)
   and hands it to the line sink with libinput's priority (10 debug, 20 info, 30 error).
   Contexts made while none is pending log through seatkit_log_sink as before. NULL clears
   it. One line sink for the process (the last one a context was made with). */
typedef void (*seatkit_log_line_sink)(int priority, const char *line);
void seatkit_libinput_set_pending_log_line_sink(seatkit_log_line_sink sink);
#endif
