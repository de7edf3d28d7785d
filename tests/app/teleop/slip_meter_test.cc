// The slip meter (app/teleop/slip_meter.h) against answers known without it: a body in free
// flight measured in the world frame moves at its own velocity (the step's displacement under
// semi-implicit Euler is δt times the velocity at the step's end), and the default scene's peg is
// held by both fingers from the first step until the hand opens.
#include "app/teleop/slip_meter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "app/teleop/teleop_controller.h"
#include "io/scene_loader.h"

namespace contactlab {
namespace {

// assets/scenes/falling_sphere.yaml: the sphere leaves at U0 = 2 m/s along x with no spin, 5 cm
// above the ground (it lands at t = 0.101 s); δt = 0.5 ms; gravity 9.81 m/s² down. In flight,
// v_k = (U0, 0, −g k δt) and p_k = p_(k−1) + δt v_k, so the meter in the world frame reads v_k.
TEST(SlipMeter, InTheWorldFrameAFreeFlightReadsTheBodysVelocity) {
  World world(LoadSceneFile(ResolveScenePath("falling_sphere")));
  const int sphere = world.scene().FindBody("sphere");
  SlipMeter meter(world, sphere, -1);
  EXPECT_FALSE(meter.reading().has_slip);
  constexpr double kU0 = 2.0, kG = 9.81, kDt = 5e-4;
  ASSERT_EQ(world.dt(), kDt);
  for (int k = 1; k <= 150; ++k) {  // 75 ms: still in flight
    ASSERT_TRUE(world.Step());
    meter.Observe(world);
    const SlipReading& r = meter.reading();
    ASSERT_TRUE(r.has_slip);
    // p changes by ~1e-3 m a step at ~0.07 m: rounding leaves ~1e-17 / 5e-4 s ≈ 1e-13 m/s.
    EXPECT_NEAR(r.v_slip_H.x(), kU0, 1e-10) << k;
    EXPECT_NEAR(r.v_slip_H.y(), 0, 1e-10) << k;
    EXPECT_NEAR(r.v_slip_H.z(), -kG * k * kDt, 1e-10) << k;
    EXPECT_EQ(r.w_slip_rad_per_s, 0) << k;
    EXPECT_FALSE(r.held);  // nothing holds it: the world frame has no hand bodies
  }
  EXPECT_EQ(meter.reading().creep_path_m, 0);
  EXPECT_THROW(SlipMeter(world, 99, -1), std::invalid_argument);
  EXPECT_THROW(SlipMeter(world, sphere, -2), std::invalid_argument);
}

// The default scene starts with the fingers closed on the peg: after the first step both press
// (the grasp closes at t = δt); from the second step on every step is held and adds its
// displacement in the hand frame to the creep. Opened, the fingers let go; the creep is kept.
TEST(SlipMeter, ThePegIsHeldByBothFingersUntilTheHandOpens) {
  World world(LoadSceneFile(ResolveScenePath("peg_in_hole")));
  const SceneSpec& scene = world.scene();
  const int peg = scene.FindBody("peg"), hand = scene.FindBody("panda_hand");
  EXPECT_EQ(DefaultSlipHand(scene), hand);  // the scene's held_object
  SlipMeter meter(world, peg, hand);
  EXPECT_FALSE(meter.reading().held) << "no contact solved before the first step";
  auto p_HB = [&] {
    return Eigen::Vector3d(world.BodyPose(hand).inverse(Eigen::Isometry) *
                           world.BodyPose(peg).translation());
  };
  Eigen::Vector3d previous = p_HB();
  double path = 0;
  for (int k = 1; k <= 100; ++k) {
    ASSERT_TRUE(world.Step());
    meter.Observe(world);
    const SlipReading& r = meter.reading();
    ASSERT_TRUE(r.held) << k;
    EXPECT_EQ(r.hand_bodies_touching, 2) << k;  // the two fingers (the palm does not touch)
    EXPECT_EQ(r.held_since_s, world.dt()) << k;
    EXPECT_EQ(r.held_through_step, k > 1) << k;
    if (k > 1) path += (p_HB() - previous).norm();
    previous = p_HB();
    EXPECT_NEAR(r.creep_path_m, path, 1e-15 + 1e-12 * path) << k;
  }
  EXPECT_GT(path, 0);
  const std::optional<TeleopConfig> teleop = FindTeleopConfig(scene);
  ASSERT_TRUE(teleop.has_value());
  world.SetPdTarget(teleop->finger_bodies.front(), teleop->finger_open_m, 0);
  int steps = 0;
  while (meter.reading().held && steps < 300) {
    ASSERT_TRUE(world.Step());
    meter.Observe(world);
    ++steps;
  }
  ASSERT_FALSE(meter.reading().held) << "released within 0.3 s";
  EXPECT_EQ(meter.reading().held_since_s, -1);
  EXPECT_GE(meter.reading().creep_path_m, path) << "the last grasp's creep is kept";
  world.Reset();
  meter.Restart(world);
  EXPECT_FALSE(meter.reading().has_slip);
  EXPECT_EQ(meter.reading().creep_path_m, 0);
}

}  // namespace
}  // namespace contactlab
