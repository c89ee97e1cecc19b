#ifndef SEATKIT_ALLOCATION_COUNTER_H
#define SEATKIT_ALLOCATION_COUNTER_H
#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, aligned allocations) made by the calling
/// thread since the process started. Linked into the test executable, whose definitions of
/// the allocator functions take precedence over libc's for the whole process.
uint64_t seatkit_thread_allocations(void);

#endif
