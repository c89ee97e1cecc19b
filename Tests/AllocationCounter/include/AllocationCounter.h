#ifndef SEATKIT_ALLOCATION_COUNTER_H
#define SEATKIT_ALLOCATION_COUNTER_H
#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, aligned allocations) made by the calling
/// thread since the process started. Linked into the test executable, whose definitions of
/// the allocator functions take precedence over libc's for the whole process.
uint64_t seatkit_thread_allocations(void);

/// 1 when allocations are counted; 0 in a sanitizer build, where the sanitizer owns the
/// allocator and every count stays 0.
int seatkit_allocations_are_counted(void);

#endif
