// Counts heap allocations per thread by wrapping glibc's allocator. The test executable
// defines malloc and friends, so every library in the process (the Swift runtime included)
// calls these; each forwards to glibc's __libc_* entry point after bumping a thread-local
// counter. Thread-local, so tests running in parallel on other threads do not disturb a
// measurement.
#define _GNU_SOURCE
#include "AllocationCounter.h"
#include <stddef.h>
#include <errno.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static __thread uint64_t allocations;

uint64_t seatkit_thread_allocations(void) { return allocations; }

#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#    define SEATKIT_SANITIZED 1
#  endif
#endif

// Under a sanitizer, the sanitizer owns malloc: defining it here as well crashes the
// process. Nothing is counted then (the plain and optimized runs check the counts).
#ifdef SEATKIT_SANITIZED
int seatkit_allocations_are_counted(void) { return 0; }
#else
int seatkit_allocations_are_counted(void) { return 1; }

void *malloc(size_t size) { allocations++; return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { allocations++; return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { allocations++; return __libc_realloc(p, size); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t alignment, size_t size) { allocations++; return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { allocations++; return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    allocations++;
    void *p = __libc_memalign(alignment, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
#endif
