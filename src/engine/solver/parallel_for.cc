#include "engine/solver/parallel_for.h"

#include <chrono>

namespace contactlab {
namespace {

// How long a helper waits for the next loop before it sleeps: longer than a time step's work
// between two loops, so that a running simulation never pays the wake-up (a futex round trip
// of tens of microseconds on a virtual machine), short enough that a paused one idles.
constexpr std::chrono::microseconds kSpin{500};

inline void Relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

ParallelFor::ParallelFor(int num_threads) {
  for (int t = 1; t < num_threads; ++t) helpers_.emplace_back([this, t] { HelperLoop(t); });
}

ParallelFor::~ParallelFor() {
  {
    std::lock_guard<std::mutex> lock(sleep_mutex_);
    stop_.store(true, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  for (std::thread& t : helpers_) t.join();
}

void ParallelFor::RunErased(int n, Function function, void* context) {
  if (helpers_.empty() || n <= 1) {
    for (int i = 0; i < n; ++i) function(context, i, 0);
    return;
  }
  function_ = function;
  context_ = context;
  n_ = n;
  next_.store(0, std::memory_order_relaxed);
  helpers_done_.store(0, std::memory_order_relaxed);
  error_ = nullptr;
  {
    // Under the mutex so that a helper deciding to sleep cannot miss the new generation.
    std::lock_guard<std::mutex> lock(sleep_mutex_);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  Work(0);
  const int helpers = static_cast<int>(helpers_.size());
  for (int spins = 0; helpers_done_.load(std::memory_order_acquire) < helpers; ++spins) {
    if (spins < 4096) {
      Relax();
    } else {
      std::this_thread::yield();  // a helper was descheduled: give it the core
    }
  }
  if (error_) std::rethrow_exception(error_);
}

void ParallelFor::Work(int thread) {
  for (int i = next_.fetch_add(1, std::memory_order_relaxed); i < n_;
       i = next_.fetch_add(1, std::memory_order_relaxed)) {
    try {
      function_(context_, i, thread);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }
}

void ParallelFor::HelperLoop(int thread) {
  uint64_t seen = 0;
  for (;;) {
    // Spin for the next loop, then sleep until one is published.
    const auto spin_end = std::chrono::steady_clock::now() + kSpin;
    int spins = 0;
    while (generation_.load(std::memory_order_acquire) == seen) {
      Relax();
      if (++spins % 64 == 0 && std::chrono::steady_clock::now() > spin_end) {
        std::unique_lock<std::mutex> lock(sleep_mutex_);
        wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
        break;
      }
    }
    seen = generation_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_relaxed)) return;  // ordered by the generation's acquire
    Work(thread);
    helpers_done_.fetch_add(1, std::memory_order_acq_rel);
  }
}

}  // namespace contactlab
