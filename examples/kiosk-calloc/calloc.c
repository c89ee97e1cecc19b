/*
 * calloc through malloc's thread cache, as glibc 2.41 and later do themselves.
 *
 * Every Wayland message a compositor sends costs libwayland-server two calloc()s and two
 * free()s (the message's wl_closure, 208 bytes, and its serialization buffer), and every
 * libinput event one pair more. Before glibc 2.41 (commit 226e3b0a, "malloc: Add tcache
 * path for calloc"), calloc() never takes from the per-thread cache (tcache), while free()
 * fills it: once the cache holds its seven chunks of a size, every message's closure comes
 * from the arena's bins, at a price set by the heap's layout, not by the message. Measured
 * with Debian 12's glibc 2.36 (docs/BENCHMARKS.md, "Issue 25, thirteenth round: malloc and
 * free"): with a free hole below the top of the heap (a start-up's freed temporaries pinned
 * by one later allocation; any long-running process has such holes), each closure is split
 * off the hole and merged back into it when freed: two unlink_chunk, a large-bin insertion
 * and a binmap search per message. With the hole filled, the closures come from the top and
 * go back to it, and once the top is 64 KiB or more each free consolidates the fastbins
 * (malloc_consolidate, ~155 instructions a message). Which state a compositor is in comes
 * and goes with its clients; none is of its own making, and a start-up ordering only moves
 * it from one to another (that section measures both).
 *
 * Here calloc() of at most 1,032 bytes (the tcache's largest size) is malloc() and memset():
 * closures, serialization buffers and libinput's events are taken from and given back to the
 * tcache whatever the heap's layout, as glibc 2.41's calloc() does. Larger requests go to
 * glibc's own calloc, which skips clearing memory fresh from the kernel. Defined in the
 * executable, it is the calloc of every library in the process; the memory stays glibc's,
 * freed by glibc's free(). Only with glibc before 2.41: later glibc does this itself, and
 * other C libraries have other allocators.
 *
 * The Swift kiosk's (a C target of its own: Swift cannot define a C library function without
 * underscored attributes). examples/wlroots-kiosk/calloc.c is the wlroots kiosk's copy.
 */
#include <features.h>
/* Not under a sanitizer: ASan, TSan and MSan bring their own calloc, which this would hide. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define KIOSK_CALLOC_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define KIOSK_CALLOC_SANITIZED 1
#endif
#if defined(__GLIBC__) && __GLIBC__ == 2 && __GLIBC_MINOR__ < 41 && !defined(KIOSK_CALLOC_SANITIZED)
#include <errno.h>
#include <stddef.h>
#include <string.h>

/* glibc's own entry points, exported under these names for allocators that wrap glibc's (the
 * same functions as malloc and calloc: valgrind's memcheck replaces them too). malloc() by its
 * own name would not do: compilers turn malloc() then memset() to zero back into calloc(). */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);

/* glibc's largest tcache size on 64-bit: requests up to 1,032 bytes (chunks of 1,040). */
#define KIOSK_TCACHE_MAX_REQUEST 1032

void *calloc(size_t count, size_t size) {
	size_t bytes;
	if (__builtin_mul_overflow(count, size, &bytes)) {
		errno = ENOMEM;
		return NULL;
	}
	if (bytes > KIOSK_TCACHE_MAX_REQUEST) {
		return __libc_calloc(count, size);
	}
	void *memory = __libc_malloc(bytes);
	if (memory) {
		memset(memory, 0, bytes);
	}
	return memory;
}
#endif
