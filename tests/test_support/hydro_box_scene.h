// The built-in hydro_box scene (assets/scenes/hydro_box.yaml) built in code, for tests that do
// not load YAML: a compliant box (10 × 10 × 5 cm, 1 kg, E_h = 1e5 Pa, 1 cm mesh) resting on a
// rigid ground through one pressure-field patch over its whole bottom face, a point-contact
// ball beside it and one (0.3 kg) on top of it.
#pragma once

#include <cmath>

#include "engine/world/scene_spec.h"

namespace contactlab::testing {

inline constexpr double kHydroBoxMass_kg = 1.0;
inline constexpr double kHydroBoxTopBallMass_kg = 0.3;
inline constexpr double kHydroBoxBottomArea_m2 = 0.1 * 0.1;

// box_hydroelastic = false: the same scene with point contact only (no patch).
inline SceneSpec HydroBoxScene(bool box_hydroelastic = true) {
  SceneSpec s;
  s.name = "hydro_box";
  s.dt_s = 1e-3;
  s.approximation = ContactApproximation::kLagged;
  ContactProperties contact;
  contact.stiffness_N_per_m = 1e6;
  contact.hunt_crossley_s_per_m = 50;
  contact.relaxation_time_s = 0.1;
  contact.friction = 0.5;

  SceneBody ground;
  ground.kind = SceneBody::Kind::kStatic;
  ground.body.name = "ground";
  GeometrySpec plane;
  plane.name = "ground";
  plane.shape = Shape::HalfSpace();
  plane.contact = contact;
  plane.contact.stiffness_N_per_m = INFINITY;
  ground.geometries.push_back(plane);
  s.bodies.push_back(ground);

  auto add = [&](const char* name, const GeometrySpec& g, double mass_kg, double z_m, double x_m) {
    SceneBody b;
    b.body.name = name;
    b.geometries.push_back(g);
    b.body.inertia.mass_kg = mass_kg;
    b.body.inertia.inertia_about_com_B = SolidInertia(g.shape, mass_kg);
    b.initial_pose.translation() = Eigen::Vector3d(x_m, 0, z_m);
    b.initial_velocity = Eigen::VectorXd::Zero(6);
    s.bodies.push_back(b);
  };
  GeometrySpec box;
  box.name = "box";
  box.shape = Shape::Box(Eigen::Vector3d(0.05, 0.05, 0.025));
  box.contact = contact;
  if (box_hydroelastic) {
    box.hydroelastic.model = ContactModel::kHydroelasticCompliant;
    box.hydroelastic.modulus_Pa = 1e5;
    box.hydroelastic.resolution_m = 0.01;
  }
  add("box", box, kHydroBoxMass_kg, 0.026, 0);
  GeometrySpec ball;
  ball.name = "ball";
  ball.shape = Shape::Sphere(0.02);
  ball.contact = contact;
  add("ball", ball, 0.2, 0.02, 0.3);
  ball.name = "top";
  add("top", ball, kHydroBoxTopBallMass_kg, 0.071, 0);
  return s;
}

}  // namespace contactlab::testing
