// A scene shared by engine and runtime tests: a rigid floor with spheres and boxes stacked
// above it, slightly rotated and with some initial sliding speed, built in code.
#pragma once

#include <cmath>
#include <string>

#include "engine/world/scene_spec.h"

namespace contactlab::testing {

inline SceneSpec PileScene(int n, double dt_s,
                           ContactApproximation model = ContactApproximation::kLagged) {
  SceneSpec s;
  s.name = "pile";
  s.contact_settings.dt_s = dt_s;
  s.contact_settings.approximation = model;
  SceneBody ground;
  ground.kind = SceneBody::Kind::kStatic;
  ground.body.name = "ground";
  GeometrySpec plane;
  plane.shape = Shape::HalfSpace();
  plane.contact.stiffness_N_per_m = INFINITY;
  ground.geometries.push_back(plane);
  s.bodies.push_back(ground);
  for (int i = 0; i < n; ++i) {
    SceneBody b;
    b.body.name = "b" + std::to_string(i);
    GeometrySpec g;
    g.shape = i % 2 ? Shape::Box(Eigen::Vector3d(0.05, 0.04, 0.03)) : Shape::Sphere(0.05);
    g.contact.stiffness_N_per_m = 1e6;
    g.contact.friction = 0.8;
    b.geometries.push_back(g);
    b.body.inertia.mass_kg = 0.5 + 0.1 * i;
    b.body.inertia.inertia_about_com_B = SolidInertia(g.shape, b.body.inertia.mass_kg);
    b.initial_pose.translation() = Eigen::Vector3d(0.03 * (i % 3), 0.02 * (i % 2), 0.05 + 0.09 * i);
    b.initial_pose.linear() =
        Eigen::AngleAxisd(0.3 * i, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
    b.initial_velocity = Eigen::VectorXd::Zero(6);
    b.initial_velocity[3] = 0.2 * ((i % 3) - 1);
    s.bodies.push_back(b);
  }
  return s;
}

}  // namespace contactlab::testing
