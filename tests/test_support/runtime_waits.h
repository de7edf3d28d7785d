// Waiting on a SimRuntime from a test thread: polling a condition with a timeout, and taking
// steps one StepOnce at a time while paused (deterministic runs).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <thread>

#include "app/runtime/sim_runtime.h"

namespace contactlab::testing {

// Polls `done` until it holds or `timeout_s` passes; returns whether it held.
inline bool WaitFor(const std::function<bool()>& done, double timeout_s) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point t0 = Clock::now();
  while (!done()) {
    if (std::chrono::duration<double>(Clock::now() - t0).count() > timeout_s) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

// Posts `steps` StepOnce to a paused runtime and waits until they are taken.
inline void StepAndWait(SimRuntime* rt, int steps, double timeout_s) {
  const uint64_t target = rt->Latest()->step_index + steps;
  for (int i = 0; i < steps; ++i) rt->Post(command::StepOnce{});
  ASSERT_TRUE(WaitFor([&] { return rt->Latest()->step_index == target; }, timeout_s));
}

}  // namespace contactlab::testing
