#ifndef SEATKIT_PROCESS_COUNTERS_H
#define SEATKIT_PROCESS_COUNTERS_H
#include <stddef.h>
#include <stdint.h>

/// Bytes the process has allocated and not freed, as glibc's allocator counts them
/// (mallinfo2().uordblks): for "bytes per surface" and "no growth" measurements.
size_t heap_bytes_in_use(void);

/// Opens a counter of user-space instructions retired by this thread (perf_event_open);
/// returns -1 where the kernel or container does not allow it. Instruction counts barely
/// move with machine load, unlike time, so they complement the timings on a busy machine.
int instruction_counter_open(void);
/// Instructions counted so far, or 0 on a closed counter.
uint64_t instruction_counter_read(int counter);

/// Brackets a measured region for `valgrind --tool=callgrind --instr-atstart=no`: starts
/// instrumentation and zeroes the counts; `callgrind_end` dumps them under `name` and stops.
/// Without valgrind (or its headers at build time) both do nothing.
void callgrind_begin(void);
void callgrind_end(const char *name);
/// True when the process runs under valgrind.
int running_under_valgrind(void);

#endif
