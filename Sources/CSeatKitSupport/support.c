#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <wayland-server-core.h>
#include "seatkit_support.h"

static void log_stderr(enum seatkit_log_importance importance, const char *fmt, va_list args) {
	static const char *const prefixes[] = { "", "[ERROR] ", "[INFO] ", "[DEBUG] " };
	fputs("[seatkit] ", stderr);
	if (importance > SEATKIT_SILENT && importance < SEATKIT_LOG_IMPORTANCE_LAST) {
		fputs(prefixes[importance], stderr);
	}
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
}

/* One for the process, read from every router's thread: atomics, so that a thread that logs
 * while another calls seatkit_log_init reads one whole value or the other. */
static enum seatkit_log_importance log_verbosity = SEATKIT_ERROR;
static seatkit_log_func_t log_callback = log_stderr;

void seatkit_log_init(enum seatkit_log_importance verbosity, seatkit_log_func_t callback) {
	__atomic_store_n(&log_callback, callback ? callback : log_stderr, __ATOMIC_RELEASE);
	if ((unsigned)verbosity >= SEATKIT_LOG_IMPORTANCE_LAST) {
		__atomic_store_n(&log_verbosity, SEATKIT_DEBUG, __ATOMIC_RELEASE);
		seatkit_support_log(SEATKIT_ERROR,
			"seatkit_log_init: verbosity out of range; using SEATKIT_DEBUG");
		return;
	}
	__atomic_store_n(&log_verbosity, verbosity, __ATOMIC_RELEASE);
}

enum seatkit_log_importance seatkit_log_get_verbosity(void) {
	return __atomic_load_n(&log_verbosity, __ATOMIC_ACQUIRE);
}

static void call_with_args(enum seatkit_log_importance importance, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	__atomic_load_n(&log_callback, __ATOMIC_ACQUIRE)(importance, fmt, args);
	va_end(args);
}

void seatkit_support_log(enum seatkit_log_importance importance, const char *message) {
	if (importance == SEATKIT_SILENT || importance > seatkit_log_get_verbosity()) {
		return;
	}
	call_with_args(importance, "%s", message);
}

/* This thread's state of the C API: set once per thread by the Swift side, released by its
 * function when the thread exits. The _Thread_local copy is the fast read (inline, in
 * seatkit_support.h); the key only runs the release. */
__attribute__((visibility("hidden"), tls_model("initial-exec"))) _Thread_local void *seatkit_support_thread_state_value;
static pthread_key_t thread_state_key;
static pthread_once_t thread_state_once = PTHREAD_ONCE_INIT;
/* Set by every thread's first call (always the same function), read when a thread exits:
 * atomic, since threads set it at once. */
static void (*_Atomic thread_state_release)(void *);

static void release_thread_state(void *state) {
	seatkit_support_thread_state_value = NULL;
	void (*release)(void *) = atomic_load(&thread_state_release);
	if (release != NULL) {
		release(state);
	}
}

static void make_thread_state_key(void) {
	pthread_key_create(&thread_state_key, release_thread_state);
}

/* This thread's token: never 0, never given to another thread, even after this one exits
 * (pthread_t values are reused: a thread made after another ended often gets its value). */
static _Atomic uint64_t last_thread_token;
static _Thread_local uint64_t thread_token;

uint64_t seatkit_support_thread_token(void) {
	if (thread_token == 0) {
		thread_token = atomic_fetch_add(&last_thread_token, 1) + 1;
	}
	return thread_token;
}

void seatkit_support_set_thread_state(void *state, void (*release)(void *)) {
	pthread_once(&thread_state_once, make_thread_state_key);
	atomic_store(&thread_state_release, release);
	seatkit_support_thread_state_value = state;
	pthread_setspecific(thread_state_key, state);
}

/* Watching an event loop's end (wl_event_loop_add_destroy_listener), for the router's
 * sources on a loop the compositor destroyed first (wl_display_destroy before
 * seatkit_router_destroy): `gone` runs while the loop is still whole, so it can remove its
 * sources; the watch is the caller's to free with seatkit_support_unwatch_loop, after the
 * loop's end as before it. */
struct seatkit_support_loop_watch {
	struct wl_listener destroy;
	void (*gone)(void *data);
	void *data;
};

static void loop_destroyed(struct wl_listener *listener, void *loop) {
	(void)loop;
	struct seatkit_support_loop_watch *watch = wl_container_of(listener, watch, destroy);
	wl_list_remove(&watch->destroy.link);
	wl_list_init(&watch->destroy.link);
	watch->gone(watch->data);
}

struct seatkit_support_loop_watch *seatkit_support_watch_loop(struct wl_event_loop *loop,
		void (*gone)(void *data), void *data) {
	struct seatkit_support_loop_watch *watch = calloc(1, sizeof *watch);
	if (!watch) {
		return NULL;
	}
	watch->gone = gone;
	watch->data = data;
	watch->destroy.notify = loop_destroyed;
	wl_event_loop_add_destroy_listener(loop, &watch->destroy);
	return watch;
}

void seatkit_support_unwatch_loop(struct seatkit_support_loop_watch *watch) {
	if (watch) {
		wl_list_remove(&watch->destroy.link);
		free(watch);
	}
}
