// Clutter (ICF paper §VII-A): every step converges for contact stiffness from 1e4 to 1e11 N/m —
// to its residual tolerance, not merely until the cost stops changing in floating point — and
// the pile settles with a penetration that shrinks as the stiffness grows.
#include <gtest/gtest.h>

#include <cmath>

#include "physics_test_util.h"

namespace contactlab {
namespace {

struct ClutterRun {
  int nonconverged = 0;
  double worst_residual_ratio = 0;  // residual / tolerance of the steps reported converged
  double max_penetration_last_second = 0;
  double final_max_speed = 0;
};

ClutterRun RunClutter(double stiffness, ContactApproximation model, double duration) {
  SceneSpec scene = testing::LoadBuiltinScene("clutter");
  scene.contact_settings.approximation = model;
  ContactOverrides o;
  o.stiffness_N_per_m = stiffness;
  ApplyOverrides(o, &scene.contact_settings);
  World world(scene);
  ClutterRun r;
  r.nonconverged = testing::RunFor(&world, duration, [&](const World& w) {
    const ConvexSolverStats& s = w.last_solver_stats();
    if (s.converged)
      r.worst_residual_ratio = std::max(r.worst_residual_ratio, s.residual / s.tolerance);
    if (w.time() < duration - 1.0) return;
    for (const ContactResult& c : w.contacts()) {
      if (c.normal_force_W.squaredNorm() > 0) {
        r.max_penetration_last_second =
            std::max(r.max_penetration_last_second, -c.signed_distance_m);
      }
    }
  });
  for (size_t b = 0; b < scene.bodies.size(); ++b) {
    r.final_max_speed =
        std::max(r.final_max_speed, world.BodyVelocity(static_cast<int>(b)).tail<3>().norm());
  }
  return r;
}

class ClutterStiffness : public ::testing::TestWithParam<double> {};

TEST_P(ClutterStiffness, EveryStepConverges) {
  const ClutterRun r = RunClutter(GetParam(), ContactApproximation::kLagged, 3.0);
  EXPECT_EQ(r.nonconverged, 0);
  // Converged means within the tolerance, or at ∇ℓ's own round-off floor when the cost stagnates
  // (ConvexSolverParameters::stagnation_max_residual_ratio).
  EXPECT_LE(r.worst_residual_ratio, ConvexSolverParameters().stagnation_max_residual_ratio);
  EXPECT_LT(r.final_max_speed, 0.5) << "the pile did not settle";
}

INSTANTIATE_TEST_SUITE_P(Lagged, ClutterStiffness, ::testing::Values(1e4, 1e6, 1e7, 1e9, 1e11),
                         [](const auto& info) {
                           return "k1e" + std::to_string(static_cast<int>(
                                              std::lround(std::log10(info.param))));
                         });

TEST(Clutter, SteadyPenetrationShrinksWithStiffness) {
  // Resting contact carries about the weight above it: penetration ∝ 1/k.
  const ClutterRun soft = RunClutter(1e5, ContactApproximation::kLagged, 3.0);
  const ClutterRun stiff = RunClutter(1e7, ContactApproximation::kLagged, 3.0);
  EXPECT_GT(soft.max_penetration_last_second, 10 * stiff.max_penetration_last_second);
}

class ClutterModels : public ::testing::TestWithParam<ContactApproximation> {};

TEST_P(ClutterModels, EveryStepConvergesAtTheStiffnessOfSteel) {
  const ClutterRun r = RunClutter(1e7, GetParam(), 3.0);
  EXPECT_EQ(r.nonconverged, 0);
}

INSTANTIATE_TEST_SUITE_P(AllModels, ClutterModels,
                         ::testing::Values(ContactApproximation::kSap,
                                           ContactApproximation::kSimilar),
                         testing::ApproximationTestName);

}  // namespace
}  // namespace contactlab
