// Heap-allocation counter for the tests that check a hot path does not allocate (solver,
// multibody, control, hydroelastic queries, world steps). It counts at the malloc level:
// allocation_counter.cc interposes malloc, calloc, realloc and the aligned allocators
// (aligned_alloc, posix_memalign, memalign) and forwards them to glibc, so it sees operator new
// (which allocates through malloc), Eigen (which calls malloc directly) and C libraries such as
// CHOLMOD alike. It also replaces operator new, so that new_count() tells the allocations made
// through operator new apart (containers, make_shared, … but not Eigen). Counting is off
// except inside a ScopedAllocationCount; it counts every thread's allocations while on.
//
// A test executable that includes this header must link allocation_counter.cc once:
// contactlab_add_test_folder(... ALLOCATION_COUNTER) in tests/CMakeLists.txt. Under sanitizers
// (which own malloc) or without glibc, counting is unavailable: kAllocationCountingAvailable is
// false and the tests skip.
//
//   if (!testing::kAllocationCountingAvailable) GTEST_SKIP() << "no allocation counting";
//   testing::ScopedAllocationCount counter;
//   solver.Solve(...);
//   EXPECT_EQ(counter.count(), 0);
#pragma once

#include <atomic>

namespace contactlab::testing {

extern const bool kAllocationCountingAvailable;
extern std::atomic<bool> g_count_allocations;
extern std::atomic<long> g_num_allocations;
extern std::atomic<long> g_num_new_allocations;

// Counts the allocations from its construction until its destruction (or the last count()).
// Not nestable.
class ScopedAllocationCount {
 public:
  ScopedAllocationCount() {
    g_num_allocations = 0;
    g_num_new_allocations = 0;
    g_count_allocations = true;
  }
  ~ScopedAllocationCount() { g_count_allocations = false; }
  ScopedAllocationCount(const ScopedAllocationCount&) = delete;
  ScopedAllocationCount& operator=(const ScopedAllocationCount&) = delete;
  // Heap allocations so far in this scope, whatever made them.
  long count() const { return g_num_allocations.load(); }
  // Those of them made through operator new.
  long new_count() const { return g_num_new_allocations.load(); }
};

}  // namespace contactlab::testing
