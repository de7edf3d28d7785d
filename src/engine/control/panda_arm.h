// Franka Emika Panda arm (7 revolute joints) built in code for the differential IK, its tests
// and scenes that want a realistic redundant arm.
//
// Kinematics: Franka's published Craig (modified DH) parameters; link i's frame is DH frame i
// and joint i's placement in link i−1 is X_PJ = Rx(α_{i−1}) Tx(a_{i−1}) Tz(d_i) with axis z
// (Rz(θ_i) commutes with Tz(d_i)). The flange is Tz(0.107) in link 7. At q = 0 the flange is at
// (0.088, 0, 0.926) m in the base frame, pointing down.
// Limits: Franka's datasheet. Inertias: the identified set of Gaz et al. (RA-L 2019), rounded;
// plausible for simulation, not a certified model.
#pragma once

#include <Eigen/Geometry>
#include <array>
#include <string>
#include <vector>

#include "engine/multibody/multibody.h"

namespace contactlab {

struct PandaArmOptions {
  std::string name_prefix = "panda_";  // bodies are <prefix>link1 … <prefix>link7
  int parent = -1;                     // body the base is mounted on; -1 = world
  Eigen::Isometry3d X_PBase = Eigen::Isometry3d::Identity();  // base (link 0) in the parent
  double joint_damping = 0.0;                                 // N·m·s/rad, every joint
};

struct PandaArm {
  static constexpr int kNumJoints = 7;
  // rad, rad, rad/s (Franka datasheet).
  static constexpr std::array<double, kNumJoints> kPositionLower = {
      -2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973};
  static constexpr std::array<double, kNumJoints> kPositionUpper = {2.8973, 1.7628, 2.8973, -0.0698,
                                                                    2.8973, 3.7525, 2.8973};
  static constexpr std::array<double, kNumJoints> kVelocityLimit = {2.175, 2.175, 2.175, 2.175,
                                                                    2.61,  2.61,  2.61};
  static constexpr std::array<double, kNumJoints> kAccelerationLimit = {
      15.0, 7.5, 10.0, 12.5, 15.0, 20.0, 20.0};  // rad/s²
  // A comfortable mid-range configuration (Franka's "ready" pose), rad.
  static constexpr std::array<double, kNumJoints> kReadyPositions = {
      0.0, -0.785398, 0.0, -2.356194, 0.0, 1.570796, 0.785398};

  std::array<int, kNumJoints> link_bodies{};  // body indices of link 1 … link 7
  int flange_body = -1;                       // = link 7 (the flange is a frame on it)
  Eigen::Isometry3d X_L7Flange = Eigen::Isometry3d::Identity();  // Tz(0.107 m)

  // Valid after Multibody::Finalize: the joints' indices in v and in q.
  std::vector<int> VelocityIndices(const Multibody& model) const;
  std::vector<int> PositionIndices(const Multibody& model) const;
  static Eigen::VectorXd LowerLimits();
  static Eigen::VectorXd UpperLimits();
  static Eigen::VectorXd VelocityLimits();
  static Eigen::VectorXd AccelerationLimits();
  static Eigen::VectorXd ReadyPositions();
};

// Adds the seven links (before Finalize). Throws std::invalid_argument from AddBody on a bad
// parent.
PandaArm AddPandaArm(Multibody* model, const PandaArmOptions& options = {});

}  // namespace contactlab
