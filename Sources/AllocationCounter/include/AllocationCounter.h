#ifndef CASCADE_ALLOCATION_COUNTER_H
#define CASCADE_ALLOCATION_COUNTER_H

/// Heap allocations (malloc, calloc, realloc, memalign and friends) made by this process since
/// it started, or -1 when counting is not available (Apple platforms, sanitizer builds).
long cascade_allocation_count(void);

#endif
