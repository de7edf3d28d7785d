#include "ui/state/frame_timer.h"

#include <time.h>

#include <algorithm>

namespace contactlab {

void FrameTimer::BeginFrame() {
  const Clock::time_point now = Clock::now();
  if (started_) {
    period_ms_[periods_ % kWindow] =
        std::chrono::duration<double, std::milli>(now - frame_start_).count();
    ++periods_;
  }
  frame_start_ = now;
  started_ = true;
}

void FrameTimer::EndWork(double work_cpu_ms) {
  if (!started_) return;
  work_ms_[works_ % kWindow] = work_cpu_ms;
  ++works_;
}

FrameTimer::Stats FrameTimer::stats() const {
  Stats s;
  s.frames = works_;
  const size_t np = std::min(periods_, kWindow), nw = std::min(works_, kWindow);
  for (size_t i = 0; i < np; ++i) {
    s.mean_frame_ms += period_ms_[i];
    s.max_frame_ms = std::max(s.max_frame_ms, period_ms_[i]);
  }
  if (np > 0) s.mean_frame_ms /= static_cast<double>(np);
  for (size_t i = 0; i < nw; ++i) {
    s.mean_work_ms += work_ms_[i];
    s.max_work_ms = std::max(s.max_work_ms, work_ms_[i]);
  }
  if (nw > 0) s.mean_work_ms /= static_cast<double>(nw);
  s.fps = s.mean_frame_ms > 0 ? 1000.0 / s.mean_frame_ms : 0.0;
  return s;
}

double ThreadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}

}  // namespace contactlab
