#include "engine/control/panda_arm.h"

#include <cmath>
#include <numbers>

namespace contactlab {

namespace {

// Craig convention, per joint i = 1…7: a_{i−1}, d_i, α_{i−1} (m, m, rad).
constexpr double kPi = std::numbers::pi;
constexpr std::array<double, 7> kDhA = {0.0, 0.0, 0.0, 0.0825, -0.0825, 0.0, 0.088};
constexpr std::array<double, 7> kDhD = {0.333, 0.0, 0.316, 0.0, 0.384, 0.0, 0.0};
constexpr std::array<double, 7> kDhAlpha = {0.0,      -kPi / 2, kPi / 2, kPi / 2,
                                            -kPi / 2, kPi / 2,  kPi / 2};
constexpr double kFlangeD = 0.107;

struct LinkInertia {
  double mass_kg;
  std::array<double, 3> com;      // m, link frame
  std::array<double, 6> inertia;  // kg·m² about the CoM: xx yy zz xy xz yz
};

// Gaz, Cognetti, Oliva, Robuffo Giordano, De Luca, "Dynamic Identification of the Franka Emika
// Panda Robot With Retrieval of Feasible Parameters Using Penalty-Based Optimization", RA-L
// 2019 (rounded). Link 7 carries no hand.
constexpr std::array<LinkInertia, 7> kLinks = {{
    {4.970684,
     {0.003875, 0.002081, -0.04762},
     {0.70337, 0.70661, 0.009117, -0.000139, 0.006772, 0.019169}},
    {0.646926,
     {-0.003141, -0.02872, 0.003495},
     {0.007962, 0.02811, 0.025995, -0.003925, 0.010254, 0.000704}},
    {3.228604,
     {0.027518, 0.039252, -0.066502},
     {0.037242, 0.036155, 0.01083, -0.004761, -0.011396, -0.012805}},
    {3.587895,
     {-0.05317, 0.104419, 0.027454},
     {0.025853, 0.019552, 0.028323, 0.007796, -0.001332, 0.008641}},
    {1.225946,
     {-0.011953, 0.041065, -0.038437},
     {0.035549, 0.029474, 0.008627, -0.002117, -0.004037, 0.000229}},
    {1.666555,
     {0.060149, -0.014117, -0.010517},
     {0.001964, 0.004354, 0.005433, 0.000109, -0.001158, 0.000341}},
    {0.735522,
     {0.010517, -0.004252, 0.061597},
     {0.012516, 0.010027, 0.004815, -0.000428, -0.001196, -0.000741}},
}};

Eigen::VectorXd ToVector(const std::array<double, 7>& a) {
  return Eigen::Map<const Eigen::VectorXd>(a.data(), 7);
}

}  // namespace

PandaArm AddPandaArm(Multibody* model, const PandaArmOptions& options) {
  PandaArm arm;
  int parent = options.parent;
  for (int i = 0; i < PandaArm::kNumJoints; ++i) {
    BodySpec spec;
    spec.name = options.name_prefix + "link" + std::to_string(i + 1);
    spec.parent = parent;
    spec.joint = JointType::kRevolute;
    spec.axis = Eigen::Vector3d::UnitZ();
    Eigen::Isometry3d X_PJ = Eigen::Isometry3d::Identity();
    X_PJ.rotate(Eigen::AngleAxisd(kDhAlpha[i], Eigen::Vector3d::UnitX()));
    X_PJ.translate(Eigen::Vector3d(kDhA[i], 0.0, kDhD[i]));
    spec.X_PJ = i == 0 ? options.X_PBase * X_PJ : X_PJ;
    spec.damping = options.joint_damping;
    const LinkInertia& link = kLinks[i];
    spec.inertia.mass_kg = link.mass_kg;
    spec.inertia.com_B = Eigen::Vector3d(link.com[0], link.com[1], link.com[2]);
    const auto& I = link.inertia;
    spec.inertia.inertia_about_com_B << I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2];
    parent = model->AddBody(spec);
    arm.link_bodies[i] = parent;
  }
  arm.flange_body = arm.link_bodies.back();
  arm.X_L7Flange = Eigen::Isometry3d::Identity();
  arm.X_L7Flange.translation() = Eigen::Vector3d(0.0, 0.0, kFlangeD);
  return arm;
}

std::vector<int> PandaArm::VelocityIndices(const Multibody& model) const {
  std::vector<int> indices;
  for (int b : link_bodies) indices.push_back(model.velocity_start(b));
  return indices;
}

std::vector<int> PandaArm::PositionIndices(const Multibody& model) const {
  std::vector<int> indices;
  for (int b : link_bodies) indices.push_back(model.position_start(b));
  return indices;
}

Eigen::VectorXd PandaArm::LowerLimits() { return ToVector(kPositionLower); }
Eigen::VectorXd PandaArm::UpperLimits() { return ToVector(kPositionUpper); }
Eigen::VectorXd PandaArm::VelocityLimits() { return ToVector(kVelocityLimit); }
Eigen::VectorXd PandaArm::AccelerationLimits() { return ToVector(kAccelerationLimit); }
Eigen::VectorXd PandaArm::ReadyPositions() { return ToVector(kReadyPositions); }

}  // namespace contactlab
