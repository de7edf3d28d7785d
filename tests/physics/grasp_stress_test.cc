// The ICF grasp stress test (the ICF paper §XII-B; assets/scenes/grasp_stress.yaml): the Panda
// holds a bronze rod (0.525 kg) with 5 N per pad (μ = 1) while its tool point follows a 3 cm
// horizontal circle (input/circle_device.h); app/headless/grasp_failure.h says when the rod is
// lost. Short runs at δt = 1 ms (0.1–0.7 s each in Release); the 20 s runs, the 0.2 ms
// Lagged-vs-Similar comparison and the frequency sweep are the study studies/grasp_stress's.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "app/headless/grasp_failure.h"
#include "app/teleop/teleop_program.h"
#include "physics_test_util.h"

namespace contactlab {
namespace {

struct GraspStressRig {
  GraspStressRig(double frequency_Hz, ContactApproximation model, double hunt_crossley)
      : scene(MakeScene(frequency_Hz, model, hunt_crossley)),
        world(scene),
        teleop(world, *FindTeleopConfig(scene)),
        circle(MakeCircleDevice(scene)),
        grasp(MakeGraspFailureDetector(world, *scene.held_object)) {}
  static SceneSpec MakeScene(double frequency_Hz, ContactApproximation model, double d) {
    SceneSpec s = testing::LoadBuiltinScene("grasp_stress");
    EXPECT_EQ(SetCircleFrequency(frequency_Hz, &s), "");
    ContactOverrides o;
    o.approximation = model;
    o.hunt_crossley_s_per_m = d;
    ApplyOverrides(o, &s.contact_settings);
    return s;
  }
  // Runs until `duration_s` or the failure; false on a failed step.
  bool Run(double duration_s) {
    const long steps = std::lround(duration_s / world.dt());
    for (long i = 0; i < steps && !grasp.failed(); ++i) {
      teleop.Update(circle->Poll(world.time()), &world);
      if (!world.Step()) return false;
      grasp.Observe(world.time(), world.BodyPose(scene.held_object->hand),
                    world.BodyPose(scene.held_object->body));
    }
    return true;
  }
  const GraspFailureDetector& detector() const { return grasp; }
  SceneSpec scene;
  World world;
  TeleopController teleop;
  std::shared_ptr<CircleDevice> circle;
  GraspFailureDetector grasp;
};

// The rod's weight over the pads' friction, r = m g / (2 μ F).
double LoadRatio(const SceneSpec& scene) {
  const double m = scene.bodies[scene.FindBody("rod")].body.inertia.mass_kg;
  return m * 9.81 / (2 * 1.0 * *scene.teleop.grip_force_N);
}

TEST(GraspStressScene, IsTheRodTheCircleAndTheGripOfTheIssue) {
  const SceneSpec scene = testing::LoadBuiltinScene("grasp_stress");
  const int rod = scene.FindBody("rod");
  ASSERT_GE(rod, 0);
  EXPECT_NEAR(scene.bodies[rod].body.inertia.mass_kg, 8800 * M_PI * 0.01 * 0.01 * 0.19,
              1e-9);  // bronze
  ASSERT_TRUE(scene.held_object.has_value());
  EXPECT_EQ(scene.held_object->body, rod);
  EXPECT_EQ(scene.held_object->hand, scene.FindBody("panda_hand"));
  EXPECT_EQ(scene.teleop.circle_radius_m, 0.03);
  EXPECT_EQ(scene.teleop.circle_frequency_Hz, 1.0);
  EXPECT_EQ(FindTeleopConfig(scene)->grip_force_N, 5.0);
  EXPECT_EQ(scene.contact_settings.approximation, ContactApproximation::kLagged);
}

// Held still, the rod creeps down where the pads' soft-norm friction (§2.3) carries its weight:
// 2μF·v/sqrt(v² + v_s²) = m g, v = v_s·r/sqrt(1 − r²) = 60.1 µm/s (measured 59.0: the rod also
// turns at 0.5 mrad/s about the grasp, so the faces away from it slip a little sideways too).
TEST(GraspStress, HeldStillTheRodCreepsAtTheSoftNormsSpeed) {
  GraspStressRig rig(0.0, ContactApproximation::kLagged, 0.0);
  ASSERT_TRUE(rig.Run(1.0));
  const int rod = rig.scene.held_object->body;
  double sum = 0;
  int samples = 0;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(rig.Run(rig.world.dt()));
    sum += rig.world.BodyVelocity(rod)[5];  // v_z of the rod's centre (below the grasp point)
    ++samples;
  }
  const double r = LoadRatio(rig.scene);
  const double expected =
      rig.scene.contact_settings.stiction_tolerance_m_per_s * r / std::sqrt(1 - r * r);
  EXPECT_NEAR(-sum / samples, expected, 0.03 * expected);
  EXPECT_FALSE(rig.detector().failed());
}

// At 0.5 Hz (a third of the pendulum's 1.47 Hz) the rod holds: 5 s of the 20 s run (the sweep
// runs all 20 s) with the grasp point's slip within 1.25 × the held-still creep.
TEST(GraspStress, AtHalfAHertzTheRodHolds) {
  GraspStressRig rig(0.5, ContactApproximation::kLagged, 0.0);
  ASSERT_TRUE(rig.Run(5.0));
  EXPECT_FALSE(rig.detector().failed());
  const double r = LoadRatio(rig.scene);
  const double creep_speed = 1e-4 * r / std::sqrt(1 - r * r);
  EXPECT_LT(rig.detector().max_slip_m(), 1.25 * creep_speed * 5.0);
  EXPECT_LT(rig.detector().max_rock_rad(), 0.01) << "it hardly rocks";
}

// Near the pendulum's frequency (1.6 Hz) the rod rocks, slides and is lost within 5 s.
TEST(GraspStress, NearResonanceTheRodIsLost) {
  GraspStressRig rig(1.6, ContactApproximation::kLagged, 0.0);
  ASSERT_TRUE(rig.Run(5.0));
  EXPECT_TRUE(rig.detector().failed());
  EXPECT_GT(rig.detector().max_rock_rad(), 0.3) << "it rocked before it slid";
  EXPECT_GT(rig.detector().time_to_failure(), 1.0) << "not at the start: after the ramp";
}

}  // namespace
}  // namespace contactlab
