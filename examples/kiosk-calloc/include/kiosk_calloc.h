#ifndef KIOSK_CALLOC_H
#define KIOSK_CALLOC_H

#include <stddef.h>

/* glibc's largest tcache size on 64-bit: requests up to 1,032 bytes (chunks of 1,040). */
#define KIOSK_CALLOC_TCACHE_MAX_REQUEST 1032

/* calloc through malloc's thread cache (kiosk_calloc.c says why): zeroed memory for `count`
 * elements of `size` bytes, freed with free(); NULL with errno ENOMEM when count * size
 * overflows. At most KIOSK_CALLOC_TCACHE_MAX_REQUEST bytes: malloc() and memset(); more:
 * glibc's own calloc, which skips clearing memory fresh from the kernel. */
void *kiosk_calloc(size_t count, size_t size);

#endif
