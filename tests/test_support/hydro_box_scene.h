// The built-in hydro_box scene (assets/scenes/hydro_box.yaml) built in code, for tests that do
// not load YAML: a compliant box (10 × 10 × 5 cm, 1 kg, E_h = 1e5 Pa, 1 cm mesh) resting on a
// rigid ground through one pressure-field patch over its whole bottom face, a point-contact
// ball beside it and one (0.3 kg) on top of it. Options give the variants tests use: the box
// alone on the ground, the box with point contact only, the ground listed last, another
// approximation or starting height.
#pragma once

#include <cmath>

#include "engine/world/scene_spec.h"

namespace contactlab::testing {

inline constexpr double kHydroBoxMass_kg = 1.0;
inline constexpr double kHydroBoxModulus_Pa = 1e5;
inline constexpr double kHydroBoxResolution_m = 0.01;
inline const Eigen::Vector3d kHydroBoxHalfSize_m(0.05, 0.05, 0.025);
inline constexpr double kHydroBoxTopBallMass_kg = 0.3;
inline constexpr double kHydroBoxBottomArea_m2 = 0.1 * 0.1;

struct HydroBoxOptions {
  ContactApproximation approximation = ContactApproximation::kLagged;
  // false: the same scene with point contact only (no patch).
  bool box_hydroelastic = true;
  // false: only the ground and the box (bodies 0 and 1, or 1 and 0 with ground_last).
  bool balls = true;
  // Lists the ground after the other bodies.
  bool ground_last = false;
  // Height of the box's centre; 0.026 m is the YAML's (1 mm above the ground). The balls keep
  // their YAML places.
  double box_z_m = 0.026;
};

inline SceneSpec HydroBoxScene(const HydroBoxOptions& options = {}) {
  SceneSpec s;
  s.name = "hydro_box";
  s.contact_settings.dt_s = 1e-3;
  s.contact_settings.approximation = options.approximation;
  ContactProperties contact;  // the YAML's default_contact
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
  if (!options.ground_last) s.bodies.push_back(ground);

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
  box.shape = Shape::Box(kHydroBoxHalfSize_m);
  box.contact = contact;
  if (options.box_hydroelastic) {
    box.hydroelastic.model = ContactModel::kHydroelasticCompliant;
    box.hydroelastic.modulus_Pa = kHydroBoxModulus_Pa;
    box.hydroelastic.resolution_m = kHydroBoxResolution_m;
  }
  add("box", box, kHydroBoxMass_kg, options.box_z_m, 0);
  if (options.balls) {
    GeometrySpec ball;
    ball.name = "ball";
    ball.shape = Shape::Sphere(0.02);
    ball.contact = contact;
    add("ball", ball, 0.2, 0.02, 0.3);
    ball.name = "top";
    add("top", ball, kHydroBoxTopBallMass_kg, 0.071, 0);
  }
  if (options.ground_last) s.bodies.push_back(ground);
  return s;
}

}  // namespace contactlab::testing
