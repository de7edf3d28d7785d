// The user's mouse spring (MuJoCo simulate's Ctrl+drag perturbation): a critically damped
// spring from a point Q fixed in a body to a target point in the world. Its stiffness is scaled
// by the mass it moves (the body and everything hanging from it), so a 50 g peg and a robot
// link both follow the mouse at the same rate instead of one flying off and the other not
// moving. The sim thread evaluates it before every step from the state; the World only sees the
// resulting ExternalForce, which is what the timeline records and the ghost replays.
#pragma once

#include <Eigen/Core>

#include "engine/world/world.h"

namespace contactlab {

struct Perturbation {
  int scene_body = -1;                                 // −1: none
  Eigen::Vector3d p_BoQ_B = Eigen::Vector3d::Zero();   // where the spring grabs the body [m]
  Eigen::Vector3d target_W = Eigen::Vector3d::Zero();  // where the mouse points [m]
};

// The spring's natural frequency with the moved mass, and its damping ratio (critical): stiff
// enough to lift a body against gravity with a sag of g/ω² ≈ 1 cm.
inline constexpr double kPerturbationFrequency_Hz = 5.0;
inline constexpr double kPerturbationDampingRatio = 1.0;
// The pull is capped at this acceleration of the moved mass (a target dragged far away must
// not launch the body).
inline constexpr double kPerturbationMaxAcceleration_m_per_s2 = 100.0;

// The mass a force on `scene_body` moves: the body and its descendants in the multibody [kg].
double PerturbedMass(const World& world, int scene_body);

// f = m (ω² (p_target − p_Q) − 2ζω v_Q), capped at m·a_max, applied at Q. Throws
// std::invalid_argument unless the body is dynamic and the points are finite.
ExternalForce PerturbationForce(const World& world, const Perturbation& perturbation);

}  // namespace contactlab
