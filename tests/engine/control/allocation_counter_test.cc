// Interposes malloc/calloc/realloc for the engine_control_test binary so tests can count heap
// allocations (see allocation_counter.h). glibc exports __libc_malloc & co. for exactly this.
#include "allocation_counter.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cstddef>
#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CONTACTLAB_COUNT_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
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
}  // namespace contactlab::testing

#if CONTACTLAB_COUNT_MALLOC
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t n, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);

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
}
#endif

namespace contactlab::testing {
namespace {

// The counter sees both operator new and Eigen's allocations (otherwise the no-allocation tests
// would pass vacuously).
TEST(AllocationCounter, CountsNewAndEigenAllocations) {
  if (!kAllocationCountingAvailable) GTEST_SKIP() << "malloc is owned by a sanitizer";
  long with_new = 0, with_eigen = 0;
  {
    ScopedAllocationCount counter;
    int* volatile p = new int[100];
    delete[] p;
    with_new = counter.count();
  }
  {
    ScopedAllocationCount counter;
    Eigen::VectorXd v = Eigen::VectorXd::Ones(100);
    volatile double sum = v.sum();
    (void)sum;
    with_eigen = counter.count();
  }
  EXPECT_GE(with_new, 1);
  EXPECT_GE(with_eigen, 1);
}

}  // namespace
}  // namespace contactlab::testing
