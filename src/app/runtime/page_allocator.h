// An allocator whose every allocation is pages of its own (mmap), given back to the system when
// freed. For the large buffers that come and go with a scene (the timeline's ring, tens of MB):
// through malloc, freeing one raises glibc's mmap threshold to its size, so the next one is
// carved from the sim thread's arena, and when that one is freed it stays resident (the soak saw
// resident memory climb by one ring per peg_in_hole/clutter cycle).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <new>

namespace contactlab {

template <class T>
struct PageAllocator {
  using value_type = T;

  PageAllocator() = default;
  template <class U>
  PageAllocator(const PageAllocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor)

  T* allocate(std::size_t n) {
    if (n == 0) return nullptr;  // mmap rejects a length of 0
    void* pages =
        ::mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) throw std::bad_alloc();
    return static_cast<T*>(pages);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (p != nullptr) ::munmap(p, n * sizeof(T));
  }

  friend bool operator==(const PageAllocator&, const PageAllocator&) { return true; }
};

}  // namespace contactlab
