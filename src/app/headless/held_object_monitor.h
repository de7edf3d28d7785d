// The held object's part of the summary's "task" object (issue 36; docs/architecture.md §7,
// Summary JSON): for a scene that declares `held_object`, the creep of the body in its hand over
// the run's held phase, measured by the slip meter (app/teleop/slip_meter.h), and whether and
// when it was lost (app/headless/grasp_failure.h: held_body, failed, time_to_failure, ...).
#pragma once

#include <memory>
#include <string>

#include "app/headless/grasp_failure.h"
#include "app/headless/task_monitor.h"
#include "app/teleop/slip_meter.h"

namespace contactlab {

// The scene's own monitor, with a "held_object" object added to its report. The held phase is
// every step held at both of its ends (SlipReading::held_through_step); its creep rate is the
// path length of the body's origin in the hand frame over those steps divided by their time,
// the mean slip speed of the held phase.
class HeldObjectMonitor : public TaskMonitor {
 public:
  HeldObjectMonitor(const World& world, std::unique_ptr<TaskMonitor> scene_monitor);
  void Observe(const World& world) override;
  void Report(JsonWriter* json) const override;
  // The held object lost (grasp_failure.h), or the scene's own task failed.
  bool Failed() const override { return grasp_.failed() || scene_monitor_->Failed(); }
  const GraspFailureDetector& grasp_failure() const { return grasp_; }

 private:
  std::unique_ptr<TaskMonitor> scene_monitor_;
  SlipMeter meter_;
  GraspFailureDetector grasp_;
  std::string body_name_, hand_name_;
  double held_time_s_ = 0, creep_path_m_ = 0, creep_angle_rad_ = 0;
  double max_slip_speed_m_per_s_ = 0;
  double max_drift_m_ = 0;  // the largest SlipReading::drift_m after a step
  long long held_steps_ = 0, grasps_ = 0;
};

}  // namespace contactlab
