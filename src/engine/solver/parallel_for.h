// A team of threads for loops whose iterations are independent (a step's islands,
// docs/contact-model.md §4.2): the calling thread and num_threads − 1 helpers, created once and
// reused step after step, take the iterations through one atomic counter. Between loops a helper
// spins for a short while (the loops come once per time step, a fraction of a millisecond apart)
// and then sleeps, so an idle simulation costs no CPU.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace contactlab {

class ParallelFor {
 public:
  // num_threads ≥ 1 threads in all, the caller included.
  explicit ParallelFor(int num_threads);
  ~ParallelFor();
  ParallelFor(const ParallelFor&) = delete;
  ParallelFor& operator=(const ParallelFor&) = delete;

  int num_threads() const { return static_cast<int>(helpers_.size()) + 1; }

  // Calls body(i, thread) once for every i in [0, n), on any of the threads (thread: 0 the
  // caller, 1… the helpers; for per-thread scratch), and returns when every call has returned;
  // an exception thrown by a call is rethrown here (the first one). One loop at a time.
  template <typename Body>
  void Run(int n, Body& body) {
    RunErased(
        n, [](void* b, int i, int thread) { (*static_cast<Body*>(b))(i, thread); }, &body);
  }

 private:
  using Function = void (*)(void*, int, int);
  void RunErased(int n, Function function, void* context);
  void HelperLoop(int thread);
  // Takes iterations until none is left.
  void Work(int thread);

  // The loop being run; written before generation_ is advanced, read after it is seen.
  Function function_ = nullptr;
  void* context_ = nullptr;
  int n_ = 0;
  std::atomic<int> next_{0};
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> helpers_done_{0};
  std::exception_ptr error_;
  std::mutex error_mutex_;

  std::mutex sleep_mutex_;
  std::condition_variable wake_;
  std::atomic<bool> stop_{false};  // set before the destructor's generation
  std::vector<std::thread> helpers_;
};

}  // namespace contactlab
