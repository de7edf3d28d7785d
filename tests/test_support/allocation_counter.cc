// The allocation counter's globals, the malloc interposition and the replaced operator new
// (see allocation_counter.h). Linked once into each test executable that counts allocations.
// glibc exports __libc_malloc & co. for exactly this; the aligned allocators forward to
// __libc_memalign. operator new allocates through the interposed malloc / aligned_alloc, so
// it is counted twice over: in the malloc-level count and in the operator-new count.
#include "test_support/allocation_counter.h"

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CONTACTLAB_COUNT_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define CONTACTLAB_COUNT_MALLOC 0
#endif
#endif
#if !defined(CONTACTLAB_COUNT_MALLOC) && defined(__GLIBC__)
#define CONTACTLAB_COUNT_MALLOC 1
#endif
#ifndef CONTACTLAB_COUNT_MALLOC
#define CONTACTLAB_COUNT_MALLOC 0
#endif

namespace contactlab::testing {
const bool kAllocationCountingAvailable = CONTACTLAB_COUNT_MALLOC != 0;
std::atomic<bool> g_count_allocations{false};
std::atomic<long> g_num_allocations{0};
std::atomic<long> g_num_new_allocations{0};
}  // namespace contactlab::testing

#if CONTACTLAB_COUNT_MALLOC
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t n, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);

static void CountAllocation() {
  if (contactlab::testing::g_count_allocations.load(std::memory_order_relaxed)) {
    contactlab::testing::g_num_allocations.fetch_add(1, std::memory_order_relaxed);
  }
}
void* malloc(std::size_t size) {
  CountAllocation();
  return __libc_malloc(size);
}
void* calloc(std::size_t n, std::size_t size) {
  CountAllocation();
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t size) {
  CountAllocation();
  return __libc_realloc(p, size);
}
void* memalign(std::size_t alignment, std::size_t size) {
  CountAllocation();
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) {
  CountAllocation();
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  CountAllocation();
  void* p = __libc_memalign(alignment, size);
  if (p == nullptr && size != 0) return ENOMEM;
  *out = p;
  return 0;
}
}

namespace {
void CountNew() {
  if (contactlab::testing::g_count_allocations.load(std::memory_order_relaxed)) {
    contactlab::testing::g_num_new_allocations.fetch_add(1, std::memory_order_relaxed);
  }
}
void* CountedNew(std::size_t size) {
  CountNew();
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* CountedAlignedNew(std::size_t size, std::align_val_t align) {
  CountNew();
  const std::size_t a = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(a, ((size + a - 1) / a) * a)) return p;
  throw std::bad_alloc();
}
}  // namespace

// GCC flags the free() of memory from a replaced operator new once it inlines both (it is
// malloc'ed here, so the pairing is right).
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) { return CountedNew(size); }
void* operator new[](std::size_t size) { return CountedNew(size); }
void* operator new(std::size_t size, std::align_val_t a) { return CountedAlignedNew(size, a); }
void* operator new[](std::size_t size, std::align_val_t a) { return CountedAlignedNew(size, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
#endif
