#ifndef SEATKIT_CLIBINPUT_SHIM_H
#define SEATKIT_CLIBINPUT_SHIM_H
#include <libinput.h>
#include <libudev.h>
#include <linux/input-event-codes.h>
#include <fcntl.h>
#include <unistd.h>
#include <poll.h>

/* libinput's log handler takes a va_list, which Swift cannot receive: the backend installs
   this handler, which formats the message and hands it to a plain callback. */
typedef void (*seatkit_log_sink)(struct libinput *libinput, int priority, const char *message);
void seatkit_libinput_set_log_sink(struct libinput *libinput, seatkit_log_sink sink);
#endif
