// The sim thread stepped from the render loop (Application::RunSteppedFrames and screenshots,
// docs/architecture.md §10): paused, it takes exactly the steps the application posts, so that
// what a frame shows depends on the frame count alone, however slow the machine. Only these
// runs wait for the sim thread; a free-running frame never does. A wait ends when its condition
// holds; a sim thread that takes no step for kStallLimit_s has stalled (on a loaded machine a
// thread at a lower priority takes a while, but each step it takes restarts the clock).
#pragma once

#include <cstdint>
#include <functional>

#include "app/runtime/sim_runtime.h"

namespace contactlab {

inline constexpr double kStallLimit_s = 120.0;

// The simulated steps a frame shows: frame_period_s × realtime_factor (≥ 0) over δt.
double StepsPerFrame(double frame_period_s, double realtime_factor, double dt_s);
// The steps frame k (1-based) of a stepped run shows: whole steps, rounded down (a product that
// lands a rounding error below a whole number counts as that number).
uint64_t StepsAfterFrames(int k, double steps_per_frame);

// Polls until done() holds; false once position() (a step index) has not changed for
// kStallLimit_s.
bool WaitWithoutStall(const std::function<bool()>& done, const std::function<uint64_t()>& position);

// Pauses a running sim thread and waits until the pause shows (no step under way). Throws
// std::runtime_error when it does not show within kStallLimit_s.
void PauseSim(SimRuntime& runtime);
// Posts single steps until the (paused) sim thread has published step `step`. Returns early
// when stop() holds (an error to show; the frame goes on); throws std::runtime_error when no
// step came for kStallLimit_s.
void StepSimTo(SimRuntime& runtime, uint64_t step, const std::function<bool()>& stop);
// Error control's steps vary (docs/contact-model.md §1.2): posts steps until the (paused) sim
// thread's time reaches end_time_s (1 ns short counts; steps are never cut, so within one step
// of δt_max past it), ceil(rest / δt_max) at a time. Stops and stalls as StepSimTo.
void StepSimToTime(SimRuntime& runtime, double end_time_s, const std::function<bool()>& stop);
// Until the ghost run has taken every input the main run fed it up to `main` (its time past the
// start of main's last step: under the same integrator, main's step; under another, as far as
// it can go, docs/architecture.md §4, Ghost); false when it took no step for kStallLimit_s.
bool WaitForGhost(const SimRuntime& runtime, const Snapshot& main);

}  // namespace contactlab
