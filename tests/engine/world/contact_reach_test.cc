// Contact reach (docs/contact-model.md §4.3): point contacts whose gap cannot close in the step
// are left out of the problem and checked at its solution.
// (Which contacts may act, MayAct, is tested with the constraints it speaks for, in
// tests/engine/solver/contact_constraint_factory_test.cc.)
// - A falling pile steps to the velocities of the whole problem (every contact within the
//   margin) within the solver's tolerance, while most steps leave contacts out.
// - A box pushed from rest across a gap larger than its reach in one step: the after-check
//   puts the floor's contacts back and solves again, and the step is the whole problem's.
#include "engine/world/contact_reach.h"

#include <gtest/gtest.h>

#include "engine/world/world.h"
#include "test_support/approximations.h"
#include "test_support/pile_scene.h"

namespace contactlab {
namespace {

class ContactReachModels : public ::testing::TestWithParam<ContactApproximation> {};

TEST_P(ContactReachModels, APileStepsToTheWholeProblemsVelocities) {
  SceneSpec scene = testing::PileScene(12, 2e-3, GetParam());
  // SAP's default τ_d = 0.1 s gives every contact a 0.1 s horizon: nothing would be out of
  // reach.
  for (SceneBody& b : scene.bodies) {
    for (GeometrySpec& g : b.geometries) g.contact.relaxation_time_s = 1e-3;
  }
  World reached(scene), whole(scene);
  whole.set_contact_reach_rule(std::nullopt);
  int compared = 0, with_contacts_left_out = 0;
  double worst = 0;
  for (int step = 0; step < 600; ++step) {
    whole.SetState(reached.q(), reached.v());
    ASSERT_TRUE(reached.Step());
    ASSERT_TRUE(whole.Step());
    ASSERT_TRUE(reached.last_stats().converged && whole.last_stats().converged);
    EXPECT_EQ(whole.last_stats().num_out_of_reach, 0);
    EXPECT_EQ(reached.last_stats().num_contacts + reached.last_stats().num_out_of_reach,
              whole.last_stats().num_contacts);
    if (reached.last_stats().num_out_of_reach == 0) continue;
    ++with_contacts_left_out;
    // Two minimizers of the same strongly convex ℓ, each to the stopping tolerance ε_rel = 1e-6.
    const double difference = (reached.v() - whole.v()).norm() / (1 + whole.v().norm());
    worst = std::max(worst, difference);
    EXPECT_LT(difference, 1e-5) << "step " << step;
    ++compared;
  }
  std::printf("%s: %d of 600 steps left contacts out; velocities differ by ≤ %.2g (relative)\n",
              ContactApproximationName(GetParam()), with_contacts_left_out, worst);
  EXPECT_GT(compared, 50);
}

// A 1 kg box at rest 20 mm above a rigid floor, the margin 5 cm: its reach at rest is
// δt(1 + μ)·0.5 m/s = 7.5 mm (δt = 10 ms, μ = 0.5), so the floor's contacts are left out — but
// 350 N down carries it 35 mm in the step, and the contacts act.
SceneSpec BoxAboveTheFloor(ContactApproximation model) {
  SceneSpec s = testing::PileScene(1, 1e-2, model);  // the rigid floor and one body
  s.contact_margin_m = 0.05;
  s.gravity_W.setZero();
  s.bodies[0].geometries[0].contact.relaxation_time_s = 0;
  SceneBody& box = s.bodies[1];
  GeometrySpec& g = box.geometries[0];
  g.shape = Shape::Box(Eigen::Vector3d(0.05, 0.05, 0.05));
  g.contact.friction = 0.5;
  g.contact.relaxation_time_s = 0;
  box.body.inertia.mass_kg = 1.0;
  box.body.inertia.inertia_about_com_B = SolidInertia(g.shape, 1.0);
  box.initial_pose = Eigen::Isometry3d::Identity();
  box.initial_pose.translation() = Eigen::Vector3d(0, 0, 0.05 + 0.02);
  box.initial_velocity.setZero();
  return s;
}

TEST_P(ContactReachModels, AContactLeftOutThatActsIsPutBackAndTheStepSolvedAgain) {
  const SceneSpec scene = BoxAboveTheFloor(GetParam());
  World reached(scene), whole(scene);
  whole.set_contact_reach_rule(std::nullopt);
  ExternalForce push;
  push.scene_body = 1;
  push.f_Q_W = Eigen::Vector3d(0, 0, -350.0);
  for (World* w : {&reached, &whole}) {
    w->SetExternalForce(push);
    ASSERT_TRUE(w->Step());
  }
  EXPECT_EQ(reached.last_stats().num_solves, 2);
  EXPECT_EQ(reached.last_stats().num_out_of_reach, 0);
  EXPECT_EQ(reached.last_stats().num_contacts, whole.last_stats().num_contacts);
  EXPECT_EQ(whole.last_stats().num_contacts, 4);
  // Without the floor the box would move 35 mm; the floor stops it within the gap and its
  // compliance (350 N on 4 × 1e6 N/m, or SAP's near-rigid 4 × 4π²/(w δt²): < 1 mm).
  const double v_z = reached.BodyVelocity(push.scene_body)[5];
  EXPECT_GT(v_z * scene.contact_settings.dt_s, -0.02 - 1e-3);
  EXPECT_LT((reached.v() - whole.v()).norm(), 1e-5 * (1 + whole.v().norm()));
}

// The same box pushed down by 150 N: free, it moves v δt = F δt²/m = 15 mm in the step, short of
// the 20 mm gap. The contacts' after-check (§4.3: they act only if v_n − μ‖v_t‖ < −φ0/δt,
// −1.5 m/s against −2 m/s, with no slip) keeps them out: one solve, the four contacts still set
// aside, and the box moves freely, v_z = −F δt/m = −1.5 m/s, as with every contact in.
TEST_P(ContactReachModels, AContactLeftOutThatCannotCloseItsGapStaysOut) {
  const SceneSpec scene = BoxAboveTheFloor(GetParam());
  World reached(scene), whole(scene);
  whole.set_contact_reach_rule(std::nullopt);
  ExternalForce push;
  push.scene_body = 1;
  push.f_Q_W = Eigen::Vector3d(0, 0, -150.0);
  for (World* w : {&reached, &whole}) {
    w->SetExternalForce(push);
    ASSERT_TRUE(w->Step());
  }
  EXPECT_EQ(reached.last_stats().num_solves, 1);
  EXPECT_EQ(reached.last_stats().num_out_of_reach, 4);
  EXPECT_EQ(reached.last_stats().num_contacts, 0);
  EXPECT_EQ(whole.last_stats().num_contacts, 4);
  const double v_z = -150.0 * scene.contact_settings.dt_s / 1.0;
  EXPECT_NEAR(reached.BodyVelocity(push.scene_body)[5], v_z, 1e-9);
  EXPECT_NEAR(whole.BodyVelocity(push.scene_body)[5], v_z, 1e-5);
  // Symplectic Euler: 15 mm down, 5 mm still between the box and the floor.
  EXPECT_NEAR(reached.BodyPose(push.scene_body).translation().z(), 0.07 - 0.015, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(All, ContactReachModels, ::testing::ValuesIn(testing::kAllApproximations),
                         testing::ApproximationTestName);

}  // namespace
}  // namespace contactlab
