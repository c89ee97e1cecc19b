#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
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

static enum seatkit_log_importance log_verbosity = SEATKIT_ERROR;
static seatkit_log_func_t log_callback = log_stderr;

void seatkit_log_init(enum seatkit_log_importance verbosity, seatkit_log_func_t callback) {
	log_callback = callback ? callback : log_stderr;
	if ((unsigned)verbosity >= SEATKIT_LOG_IMPORTANCE_LAST) {
		log_verbosity = SEATKIT_DEBUG;
		seatkit_support_log(SEATKIT_ERROR,
			"seatkit_log_init: verbosity out of range; using SEATKIT_DEBUG");
		return;
	}
	log_verbosity = verbosity;
}

enum seatkit_log_importance seatkit_log_get_verbosity(void) {
	return log_verbosity;
}

static void call_with_args(enum seatkit_log_importance importance, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	log_callback(importance, fmt, args);
	va_end(args);
}

void seatkit_support_log(enum seatkit_log_importance importance, const char *message) {
	if (importance == SEATKIT_SILENT || importance > log_verbosity) {
		return;
	}
	call_with_args(importance, "%s", message);
}

const char *seatkit_support_library_path(void) {
	Dl_info info;
	if (dladdr((void *)seatkit_support_library_path, &info) == 0) {
		return NULL;
	}
	return info.dli_fname;
}
