#ifndef SEATKIT_CXKBCOMMON_H
#define SEATKIT_CXKBCOMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-compose.h>

/// Receives one formatted xkbcommon log message (without its trailing newline).
/// `user_data` is the context's user data (xkb_context_set_user_data).
typedef void (*seatkit_xkb_log_sink)(void *user_data, int level, const char *message);

/// Installs a log function on `context` that formats each message (xkbcommon's log
/// function is variadic, which Swift cannot implement) and hands it to `sink` together with
/// the context's user data. Replaces the default function, which prints to stderr.
void seatkit_xkb_context_set_log_sink(struct xkb_context *context, seatkit_xkb_log_sink sink);

/// memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING): -1 with errno set when the kernel
/// or libc lacks it.
int seatkit_memfd_create_sealable(const char *name);

/// Seals a memfd against shrinking, growing, writing and further sealing. Returns 0, or -1
/// with errno set.
int seatkit_seal_read_only(int fd);

/// Whether all four seals of seatkit_seal_read_only are on the file; 0 for a file that
/// cannot be sealed.
int seatkit_is_sealed_read_only(int fd);

#endif
