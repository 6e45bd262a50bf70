// Counts the process's heap allocations for the benchmark tables' "mallocs/req" column.
//
// On glibc this file defines malloc and its relatives, which every library of the process then
// calls instead of glibc's (the executable's definitions come first); each forwards to glibc's own
// implementation (`__libc_malloc`, ...) after one increment of a counter that belongs to the
// calling thread's slot, so counting costs a few nanoseconds and no cache line is shared between
// threads. Elsewhere the counter reads 0 and the column is left out.
//
// The main package's allocation-budget test (Tests/AllocationBudgetTests) builds this same file
// as its target `NetMallocCounter`. A sanitizer intercepts malloc itself, so under ASan or TSan
// nothing is defined here and the counter reads 0 (the budget suite is not in the sanitizer runs).
#include "MallocCounter.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define NETKIT_MALLOC_COUNTER_SANITIZED 1
#endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(NETKIT_MALLOC_COUNTER_SANITIZED)
#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

enum { slotCount = 128 };

/// One counter per slot, each on a cache line of its own.
static struct {
    uint64_t count;
    char padding[64 - sizeof(uint64_t)];
} counters[slotCount] __attribute__((aligned(64)));

static unsigned nextSlot;
static __thread int threadSlot = -1;

static inline void countOne(void) {
    if (threadSlot < 0) threadSlot = (int)(__atomic_fetch_add(&nextSlot, 1, __ATOMIC_RELAXED) % slotCount);
    __atomic_fetch_add(&counters[threadSlot].count, 1, __ATOMIC_RELAXED);
}

uint64_t netkit_bench_allocations(void) {
    uint64_t total = 0;
    for (int slot = 0; slot < slotCount; slot++) total += __atomic_load_n(&counters[slot].count, __ATOMIC_RELAXED);
    return total;
}

void *malloc(size_t size) {
    countOne();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    countOne();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    countOne();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
    countOne();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    countOne();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    countOne();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}
#else
uint64_t netkit_bench_allocations(void) { return 0; }
#endif
