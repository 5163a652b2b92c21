// The benchmark's allocation counter, for glibc only: the executable defines the C allocator's
// entry points, which the dynamic linker then resolves for every library in the process
// (the Swift runtime included), counts the call and forwards to glibc's own implementation.
// Counting is opt-in (CASCADE_COUNT_ALLOCATIONS, set by Package.swift on Linux only) and off in
// sanitizer builds, which bring their own allocator.
#include "AllocationCounter.h"

#include <errno.h>  // any C library header: defines __GLIBC__ on glibc
#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define CASCADE_NO_COUNTING 1
#endif
#endif

#if defined(CASCADE_COUNT_ALLOCATIONS) && defined(__linux__) && defined(__GLIBC__) \
  && !defined(CASCADE_NO_COUNTING)
#include <stdatomic.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_long allocations;

static inline void counted(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

__attribute__((visibility("default"))) void *malloc(size_t size) {
  counted();
  return __libc_malloc(size);
}

__attribute__((visibility("default"))) void *calloc(size_t count, size_t size) {
  counted();
  return __libc_calloc(count, size);
}

__attribute__((visibility("default"))) void *realloc(void *pointer, size_t size) {
  counted();
  return __libc_realloc(pointer, size);
}

__attribute__((visibility("default"))) void *memalign(size_t alignment, size_t size) {
  counted();
  return __libc_memalign(alignment, size);
}

__attribute__((visibility("default"))) void *aligned_alloc(size_t alignment, size_t size) {
  counted();
  return __libc_memalign(alignment, size);
}

__attribute__((visibility("default"))) int posix_memalign(void **result, size_t alignment, size_t size) {
  // As glibc: the alignment must be a power of two and a multiple of sizeof(void *).
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment % sizeof(void *) != 0)
    return EINVAL;
  counted();
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) return ENOMEM;
  *result = pointer;
  return 0;
}

long cascade_allocation_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
#else
long cascade_allocation_count(void) { return -1; }
#endif
