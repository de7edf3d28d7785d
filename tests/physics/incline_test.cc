// Stiction (docs/contact-model.md §7): a box on a 20° incline with μ = 0.5 > tan 20° creeps no
// faster than the model's stiction bound.
#include <gtest/gtest.h>

#include <cmath>

#include "physics_test_util.h"

namespace contactlab {
namespace {

class Incline : public ::testing::TestWithParam<ContactApproximation> {};

TEST_P(Incline, CreepIsBelowTheStictionBound) {
  SceneSpec scene = testing::LoadBuiltinScene("incline");
  scene.contact_settings.approximation = GetParam();
  World world(scene);
  const int box = scene.FindBody("box");
  const Eigen::Vector3d start = world.BodyPose(box).translation();
  double speed_sum = 0;
  int samples = 0;
  const int nonconverged = testing::RunFor(&world, 2.0, [&](const World& w) {
    if (w.time() < 1.0) return;
    speed_sum += w.BodyVelocity(box).tail<3>().norm();
    ++samples;
  });
  EXPECT_EQ(nonconverged, 0);
  const double creep = speed_sum / samples;
  const double mu = 0.5, g = 9.81, theta = 20 * M_PI / 180;
  if (GetParam() == ContactApproximation::kSap) {
    // SAP's regularized stiction slips at v_t = R_t γ_t ≈ σ w_t m g sin θ δt ≤ σ μ g δt per
    // unit of the Delassus estimate; allow the factor of the rotational terms in w_t.
    EXPECT_LT(creep, 4 * scene.contact_settings.sap_sigma * mu * g * scene.contact_settings.dt_s)
        << "creep " << creep;
  } else {
    // The soft norm (§2.3) balances the tangential load when μ γ_n v/sqrt(v² + v_s²) equals
    // m g sin θ δt, i.e. at v = v_s·r/sqrt(1 − r²) with r = tan θ / μ: the model's exact
    // creep speed, which is below v_s for r < 1/√2 and above it beyond.
    const double r = std::tan(theta) / mu;
    const double expected =
        scene.contact_settings.stiction_tolerance_m_per_s * r / std::sqrt(1 - r * r);
    EXPECT_NEAR(creep, expected, 0.03 * expected);
  }
  // And the box really is held: it moved less than a millimetre in 2 s.
  EXPECT_LT((world.BodyPose(box).translation() - start).norm(), 1e-3);
  EXPECT_LT(std::tan(theta), mu);
}

INSTANTIATE_TEST_SUITE_P(AllModels, Incline, ::testing::ValuesIn(testing::kAllApproximations),
                         testing::ApproximationTestName);

TEST(InclineRegularizedLagged, CreepLiesBetweenTheCornersWidths) {
  // Regularized Lagged (docs/contact-model.md §2.3, [2] §VIII): each corner i gets the width
  // ε_i = max(v_s, σ·w_t·μ·γ_n0,i). With v_s = 1e-7 m/s the second term rules. For a corner of
  // the 10 cm, 1 kg box, W = I/m + (|r|² I − r rᵀ)/I_c with I_c = m s²/6: each diagonal entry is
  // 1 + 3 = 4 /kg, so w_t = 4 /kg. The slope's friction tips the load downhill: the two downhill
  // corners carry m g (cos θ + sin θ)/4 each, the two uphill ones m g (cos θ − sin θ)/4
  // (moments about the centre, which is half a side above the slope). A rigid creep v balances
  // Σ μ γ_n0,i v/√(v² + ε_i²) = m g sin θ δt, so v lies between ε_min and ε_max times
  // r/√(1 − r²), r = tan θ / μ — about 30× the plain Lagged creep at this v_s.
  SceneSpec scene = testing::LoadBuiltinScene("incline");
  scene.contact_settings.approximation = ContactApproximation::kRegularizedLagged;
  ContactOverrides o;
  o.stiction_tolerance_m_per_s = 1e-7;
  ApplyOverrides(o, &scene.contact_settings);
  World world(scene);
  const int box = scene.FindBody("box");
  double speed_sum = 0;
  int samples = 0;
  const int nonconverged = testing::RunFor(&world, 2.0, [&](const World& w) {
    if (w.time() < 1.0) return;
    speed_sum += w.BodyVelocity(box).tail<3>().norm();
    ++samples;
  });
  EXPECT_EQ(nonconverged, 0);
  const double creep = speed_sum / samples;
  const double m = 1, mu = 0.5, g = 9.81, theta = 20 * M_PI / 180, w_t = 4;
  const double sigma = scene.contact_settings.sap_sigma, dt = scene.contact_settings.dt_s;
  const double r = std::tan(theta) / mu, shape = r / std::sqrt(1 - r * r);
  const double eps_uphill = sigma * w_t * mu * dt * m * g * (std::cos(theta) - std::sin(theta)) / 4;
  const double eps_downhill =
      sigma * w_t * mu * dt * m * g * (std::cos(theta) + std::sin(theta)) / 4;
  ASSERT_GT(eps_uphill, 10 * 1e-7) << "the regularization must rule for this test to mean anything";
  EXPECT_GT(creep, 0.95 * eps_uphill * shape) << "creep " << creep;
  EXPECT_LT(creep, 1.05 * eps_downhill * shape) << "creep " << creep;
}

TEST(InclineSteep, BoxSlidesWhenTanThetaExceedsMu) {
  // Control for the test above: with μ = 0.2 < tan 20° the box must accelerate down the slope
  // at g (sin θ − μ cos θ).
  SceneSpec scene = testing::LoadBuiltinScene("incline");
  ContactOverrides o;
  o.friction = 0.2;
  ApplyOverrides(o, &scene.contact_settings);
  World world(scene);
  const int box = scene.FindBody("box");
  testing::RunFor(&world, 0.5);
  const double theta = 20 * M_PI / 180, g = 9.81;
  const double expected = g * (std::sin(theta) - 0.2 * std::cos(theta)) * 0.5;
  EXPECT_NEAR(world.BodyVelocity(box).tail<3>().norm(), expected, 0.05 * expected);
}

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

// A pair's own μ (scene key contact_pairs, docs/contact-model.md §6) replaces the combined one: at
// μ = 0.2 < tan 20° the box slides at g(sin θ − μ cos θ) = 1.512 m/s² where the scene's μ = 0.5
// holds it; a --friction override beats the pair's value.
TEST(InclineContactPair, APairsOwnFrictionSlidesTheBoxAtItsRate) {
  SceneSpec scene = testing::LoadBuiltinScene("incline");
  ContactPairSpec pair;
  pair.scene_body_a = scene.FindBody("ramp");
  pair.scene_body_b = scene.FindBody("box");
  pair.friction = 0.2;
  scene.contact_pairs.push_back(pair);
  World world(scene);
  const int box = scene.FindBody("box");
  ASSERT_EQ(testing::RunFor(&world, 0.5), 0);
  const double v0 = world.BodyVelocity(box).tail<3>().norm();
  ASSERT_EQ(testing::RunFor(&world, 0.5), 0);
  const double accel = (world.BodyVelocity(box).tail<3>().norm() - v0) / 0.5;
  const double theta = 20 * M_PI / 180, g = 9.81;
  EXPECT_NEAR(accel, g * (std::sin(theta) - 0.2 * std::cos(theta)), 0.01 * 1.512);
  World held(scene);
  ContactOverrides friction;
  friction.friction = 0.5;
  held.SetOverrides(friction);
  ASSERT_EQ(testing::RunFor(&held, 1.0), 0);
  EXPECT_LT(held.BodyVelocity(box).tail<3>().norm(), 1e-3);
}

}  // namespace
}  // namespace contactlab
