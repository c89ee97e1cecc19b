#include "ProcessCounters.h"
#include <linux/perf_event.h>
#include <malloc.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif

size_t heap_bytes_in_use(void) {
    return mallinfo2().uordblks;
}

int instruction_counter_open(void) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

uint64_t instruction_counter_read(int counter) {
    uint64_t value = 0;
    if (counter < 0 || read(counter, &value, sizeof value) != sizeof value) return 0;
    return value;
}

void callgrind_begin(void) {
#ifdef HAVE_CALLGRIND
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
#endif
}

void callgrind_end(const char *name) {
#ifdef HAVE_CALLGRIND
    CALLGRIND_DUMP_STATS_AT(name);
    CALLGRIND_STOP_INSTRUMENTATION;
#else
    (void)name;
#endif
}

int running_under_valgrind(void) {
#ifdef HAVE_CALLGRIND
    return RUNNING_ON_VALGRIND;
#else
    return 0;
#endif
}
