/*
 * kiosk_calloc() (examples/kiosk-calloc/kiosk_calloc.c, which says why) as the process's calloc:
 * defined in the executable, it is the calloc of every library in the process (libwayland's
 * closures and send buffers, libinput's events); the memory stays glibc's, freed by glibc's
 * free(). Only with glibc before 2.41, which does this itself from 2.41 on, and not under a
 * sanitizer: ASan, TSan and MSan bring their own calloc, which this would hide.
 */
#include <features.h>
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define KIOSK_CALLOC_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define KIOSK_CALLOC_SANITIZED 1
#endif
#if defined(__GLIBC__) && __GLIBC__ == 2 && __GLIBC_MINOR__ < 41 && !defined(KIOSK_CALLOC_SANITIZED)
#include "kiosk_calloc.h"

void *calloc(size_t count, size_t size) {
	return kiosk_calloc(count, size);
}
#endif
