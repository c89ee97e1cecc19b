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
#endif
