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
 * kiosk_calloc() is that calloc, under its own name so that tests can call it without replacing
 * the test process's calloc; examples/kiosk-calloc-override/calloc.c makes it the process's
 * calloc. Both kiosks build these two files: the Swift kiosk as the C targets CKioskCalloc and
 * CKioskCallocOverride (Swift cannot define a C library function without underscored
 * attributes), the wlroots kiosk from its meson.build.
 */
#include "kiosk_calloc.h"

#include <errno.h>
#include <string.h>

#if defined(__GLIBC__)
/* glibc's own entry points, exported under these names for allocators that wrap glibc's (the
 * same functions as malloc and calloc: valgrind's memcheck replaces them too). malloc() by its
 * own name would not do: compilers turn malloc() then memset() to zero back into calloc(),
 * which is this function once it replaces calloc. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
#define KIOSK_MALLOC __libc_malloc
#define KIOSK_CALLOC __libc_calloc
#else
#include <stdlib.h>
#define KIOSK_MALLOC malloc
#define KIOSK_CALLOC calloc
#endif

void *kiosk_calloc(size_t count, size_t size) {
	size_t bytes;
	if (__builtin_mul_overflow(count, size, &bytes)) {
		errno = ENOMEM;
		return NULL;
	}
	if (bytes > KIOSK_CALLOC_TCACHE_MAX_REQUEST) {
		return KIOSK_CALLOC(count, size);
	}
	void *memory = KIOSK_MALLOC(bytes);
	if (!memory) {
		return NULL;
	}
	/* memset returns `memory`: a tail call, with nothing of this frame kept across it (three
	 * instructions a call fewer than memset then return; libwayland calls this twice a
	 * message). */
	return memset(memory, 0, bytes);
}
