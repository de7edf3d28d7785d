// Runs a scene without a window: steps for a duration, writes the per-step CSV log and the
// run summary JSON (docs/architecture.md, "Log CSV" and "Summary JSON").
#pragma once

#include <string>

#include "app/teleop/teleop_controller.h"
#include "engine/world/world.h"
#include "input/input_device.h"
#include "input/recorder.h"

namespace contactlab {

struct HeadlessOptions {
  double duration_s = 1.0;
  std::string log_path;          // empty: no log
  std::string contact_log_path;  // --log-contacts; empty: none
  // --log-solver and --log-newton (app/headless/solver_log.h); empty: none. hessian_condition
  // (--hessian-condition) fills the solver log's condition-number column.
  std::string solver_log_path, newton_log_path;
  bool hessian_condition = false;
  std::string summary_path;      // empty: no summary
  double realtime_factor = 0;    // 0: unpaced
  // Teleoperation (optional, not owned; both or neither): before every step the runner polls
  // input->Poll(world->time()) and applies the command with teleop->Update(command, world).
  // The summary then gets a "teleop" object (device, IK failures, tracking error).
  TeleopController* teleop = nullptr;
  InputDevice* input = nullptr;
  // Optional (not owned, with teleop): every applied command, in world axes, for a replay.
  Recorder* recorder = nullptr;
  // End the run at the step after which the task monitor reports a failure (TaskMonitor::Failed:
  // a held object's time to failure, app/headless/grasp_failure.h); the summary is written then.
  bool stop_on_failure = false;
};

struct HeadlessResult {
  long long steps = 0;
  long long nonconverged_steps = 0;
  bool failed = false;  // a step failed unrecoverably (non-finite state)
  double wall_time_s = 0;
};

// A headless run's step budget (≈ 11.6 days of simulated time at δt = 1 ms): a longer
// --duration is a typo, and is refused before anything is allocated or stepped.
inline constexpr long long kMaxHeadlessSteps = 1'000'000'000;

// The steps a run of duration_s takes at dt_s (at least 1), or −1 when that is more than
// kMaxHeadlessSteps (or the duration is not a finite positive number).
long long HeadlessStepCount(double duration_s, double dt_s);

// Throws std::runtime_error if a log or summary file cannot be written, std::invalid_argument
// if only one of options.teleop and options.input is given or the duration is over the budget.
HeadlessResult RunHeadless(World* world, const HeadlessOptions& options);

}  // namespace contactlab
