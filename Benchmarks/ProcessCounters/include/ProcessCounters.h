#ifndef SEATKIT_HEAP_STATISTICS_H
#define SEATKIT_HEAP_STATISTICS_H
#include <stddef.h>

/// Bytes the process has allocated and not freed, as glibc's allocator counts them
/// (mallinfo2().uordblks): for "bytes per surface" and "no growth" measurements.
size_t heap_bytes_in_use(void);

#endif
