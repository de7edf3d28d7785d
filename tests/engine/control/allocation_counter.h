// Heap-allocation counter shared by the tests of this folder: the control hot paths (BoxQpSolver
// ::Solve, DifferentialIk::Solve) must not allocate. malloc is interposed in
// allocation_counter_test.cc (Eigen allocates with malloc, not operator new, so counting
// operator new alone would miss it); counting is off except inside a ScopedAllocationCount.
// Under sanitizers (which own malloc) counting is unavailable and those tests skip.
#pragma once

#include <atomic>

namespace contactlab::testing {

extern const bool kAllocationCountingAvailable;
extern std::atomic<bool> g_count_allocations;
extern std::atomic<long> g_num_allocations;

class ScopedAllocationCount {
 public:
  ScopedAllocationCount() {
    g_num_allocations = 0;
    g_count_allocations = true;
  }
  ~ScopedAllocationCount() { g_count_allocations = false; }
  long count() const { return g_num_allocations.load(); }
};

}  // namespace contactlab::testing
