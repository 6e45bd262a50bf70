#ifndef NETKIT_BENCH_MALLOC_COUNTER_H
#define NETKIT_BENCH_MALLOC_COUNTER_H

#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, the aligned kinds) made by this process so far, by
/// every thread and library; 0 where the counter is not installed (not glibc).
uint64_t netkit_bench_allocations(void);

#endif
