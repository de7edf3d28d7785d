// A horizontal-axis pendulum built in code: one link on a revolute joint about +y, a point-like
// bob (mass m, 1e-6 kg·m² about its centre) at distance l along the link's x, starting
// horizontal and at rest; δt = 1 ms.
#pragma once

#include "engine/world/scene_spec.h"

namespace contactlab::testing {

inline SceneSpec PendulumScene(double mass_kg, double length_m) {
  SceneSpec s;
  s.name = "pendulum";
  s.contact_settings.dt_s = 1e-3;
  SceneBody link;
  link.body.name = "link";
  link.body.joint = JointType::kRevolute;
  link.body.axis = Eigen::Vector3d::UnitY();
  link.body.inertia.mass_kg = mass_kg;
  link.body.inertia.com_B = Eigen::Vector3d(length_m, 0, 0);
  link.body.inertia.inertia_about_com_B = 1e-6 * Eigen::Matrix3d::Identity();
  link.initial_velocity = Eigen::VectorXd::Zero(1);
  s.bodies.push_back(link);
  return s;
}

}  // namespace contactlab::testing
