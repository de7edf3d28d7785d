#include "app/headless/held_object_monitor.h"

#include <algorithm>
#include <utility>

namespace contactlab {

HeldObjectMonitor::HeldObjectMonitor(const World& world, std::unique_ptr<TaskMonitor> scene_monitor)
    : scene_monitor_(std::move(scene_monitor)),
      meter_(world, world.scene().held_object->body, world.scene().held_object->hand),
      grasp_(MakeGraspFailureDetector(world, *world.scene().held_object)) {
  const SceneSpec& scene = world.scene();
  body_name_ = scene.bodies[meter_.reading().body].body.name;
  hand_name_ = meter_.reading().hand >= 0 ? scene.bodies[meter_.reading().hand].body.name : "world";
}

void HeldObjectMonitor::Observe(const World& world) {
  scene_monitor_->Observe(world);
  grasp_.Observe(world.time(), world.BodyPose(meter_.reading().hand),
                 world.BodyPose(meter_.reading().body));
  const bool was_held = meter_.reading().held;
  meter_.Observe(world);
  const SlipReading& r = meter_.reading();
  max_drift_m_ = std::max(max_drift_m_, r.drift_m);
  if (r.held && !was_held) ++grasps_;
  if (!r.held_through_step) return;
  ++held_steps_;
  held_time_s_ += r.step_s;
  creep_path_m_ += r.slip_speed_m_per_s() * r.step_s;
  creep_angle_rad_ += r.w_slip_rad_per_s * r.step_s;
  max_slip_speed_m_per_s_ = std::max(max_slip_speed_m_per_s_, r.slip_speed_m_per_s());
}

void HeldObjectMonitor::Report(JsonWriter* json) const {
  scene_monitor_->Report(json);
  json->String("held_body", body_name_)
      .Bool("failed", grasp_.failed())
      .Number("time_to_failure", grasp_.time_to_failure())
      .Number("max_grasp_slip", grasp_.max_slip_m())
      .Number("final_grasp_slip", grasp_.slip_m())
      .Number("max_rock_angle", grasp_.max_rock_rad());
  const SlipReading& r = meter_.reading();
  json->BeginObject("held_object")
      .String("body", body_name_)
      .String("hand", hand_name_)
      .Integer("grasps", grasps_)
      .Integer("held_steps", held_steps_)
      .Number("held_time_s", held_time_s_)
      .Number("creep_path_length_m", creep_path_m_)
      .Number("creep_angle_rad", creep_angle_rad_)
      .Number("mean_creep_rate_m_per_s", held_time_s_ > 0 ? creep_path_m_ / held_time_s_ : 0)
      .Number("max_slip_speed_m_per_s", max_slip_speed_m_per_s_)
      .Bool("held_at_end", r.held)
      .Number("final_relative_displacement_m", r.creep_displacement_m)
      .Number("final_drift_m", r.drift_m)
      .Number("max_drift_m", max_drift_m_)
      .EndObject();
}

}  // namespace contactlab
