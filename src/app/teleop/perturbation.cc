#include "app/teleop/perturbation.h"

#include <spdlog/fmt/fmt.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace contactlab {

double PerturbedMass(const World& world, int scene_body) {
  const Multibody& mb = world.multibody();
  const int root = world.multibody_index(scene_body);
  double mass_kg = 0;
  // Parents precede children in the multibody, so the subtree of `root` lies after it.
  for (int b = root; b < mb.num_bodies(); ++b) {
    int a = b;
    while (a > root) a = mb.body(a).parent;
    if (a == root) mass_kg += mb.body(b).inertia.mass_kg;
  }
  return mass_kg;
}

ExternalForce PerturbationForce(const World& world, const Perturbation& perturbation) {
  const int body = perturbation.scene_body;
  if (body < 0 || body >= static_cast<int>(world.scene().bodies.size()) ||
      world.multibody_index(body) < 0) {
    throw std::invalid_argument(fmt::format("body {} cannot be pushed: not a dynamic body", body));
  }
  if (!perturbation.p_BoQ_B.allFinite() || !perturbation.target_W.allFinite()) {
    throw std::invalid_argument("the perturbation's points must be finite");
  }
  const Eigen::Isometry3d X_WB = world.BodyPose(body);
  const Eigen::Matrix<double, 6, 1> V_WB = world.BodyVelocity(body);  // [ω, v_Bo]
  const Eigen::Vector3d p_WQ = X_WB * perturbation.p_BoQ_B;
  const Eigen::Vector3d v_WQ = V_WB.tail<3>() + V_WB.head<3>().cross(p_WQ - X_WB.translation());
  const double m = PerturbedMass(world, body);
  const double w = 2 * std::numbers::pi * kPerturbationFrequency_Hz;
  Eigen::Vector3d f_W =
      m * (w * w * (perturbation.target_W - p_WQ) - 2 * kPerturbationDampingRatio * w * v_WQ);
  const double f_max = m * kPerturbationMaxAcceleration_m_per_s2;
  if (f_W.norm() > f_max) f_W *= f_max / f_W.norm();
  return {body, perturbation.p_BoQ_B, f_W};
}

}  // namespace contactlab
