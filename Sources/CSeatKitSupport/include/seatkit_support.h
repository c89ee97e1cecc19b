/* Internal to libseatkit (not installed): what Swift cannot write itself. */
#ifndef SEATKIT_SUPPORT_H
#define SEATKIT_SUPPORT_H
#include <stdint.h>
#include "seatkit/seatkit.h"

/* Logs `message` through the callback of seatkit_log_init (format "%s"), if `importance`
 * is within the verbosity. seatkit_log_init and seatkit_log_get_verbosity live in C
 * because a callback taking a va_list cannot cross into Swift. */
void seatkit_support_log(enum seatkit_log_importance importance, const char *message);
/* This thread's state of the C API (NULL until set), and setting it with the function that
 * releases it when the thread exits (the same function for every thread).
 *
 * Read inline by every API call (the per-event calls included), so the variable is declared
 * here: hidden (libseatkit's own; the Swift side reads it through this function, compiled
 * into its module) and initial-exec, which makes the read one load from the thread's block
 * (%fs) instead of a call to __tls_get_addr (~17 instructions a read through the function
 * this replaced). Initial-exec takes a few bytes of the static TLS block glibc reserves:
 * always there for a library linked into the program, and from the surplus glibc keeps for
 * libraries loaded later with dlopen (~1.6 KB; libseatkit takes 16 bytes). */
extern __attribute__((visibility("hidden"), tls_model("initial-exec"))) _Thread_local void *seatkit_support_thread_state_value;
static inline void *seatkit_support_thread_state(void) {
	return seatkit_support_thread_state_value;
}
void seatkit_support_set_thread_state(void *state, void (*release)(void *));
/* The calling thread's token: unique for the process's life (never reused, unlike pthread_t),
 * never 0. */
uint64_t seatkit_support_thread_token(void);
/* Calls gone(data) when `loop` is destroyed (while it is still whole: sources can be removed
 * then). NULL if out of memory. Freed, and no longer watching, by seatkit_support_unwatch_loop,
 * before or after the loop's end. */
struct wl_event_loop;
struct seatkit_support_loop_watch;
struct seatkit_support_loop_watch *seatkit_support_watch_loop(struct wl_event_loop *loop,
	void (*gone)(void *data), void *data);
void seatkit_support_unwatch_loop(struct seatkit_support_loop_watch *watch);
#endif
