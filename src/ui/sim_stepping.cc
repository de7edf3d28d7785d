#include "ui/sim_stepping.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>

namespace contactlab {

double StepsPerFrame(double frame_period_s, double realtime_factor, double dt_s) {
  return frame_period_s * std::max(realtime_factor, 0.0) / dt_s;
}

uint64_t StepsAfterFrames(int k, double steps_per_frame) {
  return static_cast<uint64_t>(std::floor(k * steps_per_frame + 1e-9));
}

bool WaitWithoutStall(const std::function<bool()>& done,
                      const std::function<uint64_t()>& position) {
  using Clock = std::chrono::steady_clock;
  uint64_t reached = position();
  Clock::time_point progress = Clock::now();
  while (!done()) {
    if (const uint64_t now = position(); now != reached) {
      reached = now;
      progress = Clock::now();
    } else if (std::chrono::duration<double>(Clock::now() - progress).count() > kStallLimit_s) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

void PauseSim(SimRuntime& runtime) {
  runtime.Post(command::Pause{});
  // The position stays put: the pause must show within the limit, whatever the steps do.
  if (!WaitWithoutStall([&] { return runtime.Latest()->paused; }, [] { return uint64_t{0}; })) {
    throw std::runtime_error("the simulation did not pause for stepped frames");
  }
}

void StepSimTo(SimRuntime& runtime, uint64_t step, const std::function<bool()>& stop) {
  const auto sim_step = [&] { return runtime.Latest()->step_index; };
  for (uint64_t s = sim_step(); s < step; ++s) runtime.Post(command::StepOnce{});
  if (!WaitWithoutStall([&] { return stop() || sim_step() >= step; }, sim_step)) {
    throw std::runtime_error("the simulation stalled at step " + std::to_string(sim_step()));
  }
}

void StepSimToTime(SimRuntime& runtime, double end_time_s, const std::function<bool()>& stop) {
  for (;;) {
    const std::shared_ptr<const Snapshot> s = runtime.Latest();
    const double rest_s = end_time_s - s->time_s;
    if (!(rest_s > 1e-9) || stop()) return;
    const double steps = std::ceil(rest_s / s->contact_settings.dt_s);
    StepSimTo(runtime, s->step_index + static_cast<uint64_t>(std::max(steps, 1.0)), stop);
  }
}

bool WaitForGhost(const SimRuntime& runtime, const Snapshot& main) {
  const double last_step_start_s = main.time_s - main.stats.dt_s;
  const auto ghost = [&] { return runtime.LatestGhost(); };
  return WaitWithoutStall(
      [&] {
        const std::shared_ptr<const Snapshot> g = ghost();
        return g && g->time_s > last_step_start_s;
      },
      [&]() -> uint64_t {
        const std::shared_ptr<const Snapshot> g = ghost();
        return g ? g->step_index : 0;
      });
}

}  // namespace contactlab
