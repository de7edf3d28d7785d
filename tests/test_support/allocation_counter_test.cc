// The allocation counter sees every way a hot path could reach the heap — operator new
// (plain and over-aligned), Eigen, malloc / calloc / realloc and the aligned C allocators —
// tells operator new apart, and counts nothing outside its scope (otherwise the no-allocation
// tests would pass vacuously).
#include "test_support/allocation_counter.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cstdlib>
#include <new>
#include <vector>

namespace contactlab::testing {
namespace {

struct alignas(64) OverAligned {
  double x[8];
};

template <typename F>
long CountIn(F&& f) {
  ScopedAllocationCount counter;
  f();
  return counter.count();
}

TEST(AllocationCounter, CountsEveryAllocator) {
  if (!kAllocationCountingAvailable) GTEST_SKIP() << "malloc is owned by a sanitizer";
  EXPECT_EQ(CountIn([] {
              int* volatile p = new int[100];
              delete[] p;
            }),
            1);
  EXPECT_EQ(CountIn([] {
              OverAligned* volatile p = new OverAligned;
              delete p;
            }),
            1);
  EXPECT_GE(CountIn([] {
              Eigen::VectorXd v = Eigen::VectorXd::Ones(100);
              volatile double sum = v.sum();
              (void)sum;
            }),
            1);
  EXPECT_EQ(CountIn([] {
              void* volatile p = std::malloc(10);
              p = std::realloc(p, 1000);
              std::free(p);
              p = std::calloc(10, 10);
              std::free(p);
            }),
            3);
  EXPECT_EQ(CountIn([] {
              void* volatile p = std::aligned_alloc(64, 128);
              std::free(p);
              void* q = nullptr;
              ASSERT_EQ(posix_memalign(&q, 64, 128), 0);
              std::free(q);
            }),
            2);
  EXPECT_EQ(CountIn([] {}), 0);
}

TEST(AllocationCounter, TellsOperatorNewApart) {
  if (!kAllocationCountingAvailable) GTEST_SKIP() << "malloc is owned by a sanitizer";
  long all = 0, through_new = 0;
  {
    ScopedAllocationCount counter;
    int* volatile p = new int[100];
    delete[] p;
    OverAligned* volatile q = new OverAligned;
    delete q;
    Eigen::VectorXd v = Eigen::VectorXd::Ones(100);
    volatile double sum = v.sum();
    (void)sum;
    all = counter.count();
    through_new = counter.new_count();
  }
  EXPECT_EQ(through_new, 2);
  EXPECT_EQ(all, 3);
}

TEST(AllocationCounter, CountsOnlyInsideItsScope) {
  if (!kAllocationCountingAvailable) GTEST_SKIP() << "malloc is owned by a sanitizer";
  long count = 0;
  {
    ScopedAllocationCount counter;
    count = counter.count();
  }
  std::vector<int> outside(1000, 1);
  EXPECT_EQ(count, 0);
  EXPECT_EQ(g_num_allocations.load(), 0) << "counted after the scope ended";
  EXPECT_EQ(outside.size(), 1000u);
}

}  // namespace
}  // namespace contactlab::testing
