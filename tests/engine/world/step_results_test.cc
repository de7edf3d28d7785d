// Stage "results" (engine/world/step_results.h): each pressed contact is classified by its slip
// at the step's end against twice the stiction tolerance v_s — stick at ‖v_t‖ ≤ 2 v_s, slip above
// it. A box slides to rest on a rigid floor from 0.1 m/s under Coulomb friction (μ g ≈ 4.9 m/s²,
// 4.9 mm/s less each 1 ms step), its slip sweeping down through 2 v_s and v_s (v_s = 10 mm/s), so
// contacts land in each band: above 2 v_s (slip), in (v_s, 2 v_s] (stick: the factor 2) and at
// rest (stick). A contact without force is kSeparating when it opens, kMargin otherwise.
#include "engine/world/step_results.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "engine/world/world.h"
#include "test_support/approximations.h"
#include "test_support/pile_scene.h"

namespace contactlab {
namespace {

constexpr double kStictionTolerance = 0.01;  // v_s [m/s]
constexpr double kInitialSpeed = 0.1;        // [m/s]

// A 1 kg cube of side 0.1 m resting on the rigid floor (μ = 0.5 combined), sliding along x.
SceneSpec SlidingBox(ContactApproximation model) {
  SceneSpec s = testing::PileScene(1, 1e-3, model);  // the rigid floor and one body
  s.contact_settings.stiction_tolerance_m_per_s = kStictionTolerance;
  SceneBody& box = s.bodies[1];
  GeometrySpec& g = box.geometries[0];
  g.shape = Shape::Box(Eigen::Vector3d(0.05, 0.05, 0.05));
  g.contact.friction = 0.5;
  box.body.inertia.mass_kg = 1.0;
  box.body.inertia.inertia_about_com_B = SolidInertia(g.shape, 1.0);
  box.initial_pose = Eigen::Isometry3d::Identity();
  box.initial_pose.translation() = Eigen::Vector3d(0, 0, 0.05);
  box.initial_velocity.setZero();
  box.initial_velocity[3] = kInitialSpeed;
  return s;
}

class StepResultsModels : public ::testing::TestWithParam<ContactApproximation> {};

TEST_P(StepResultsModels, PressedContactsStickWithinTwiceTheStictionToleranceAndSlipAbove) {
  World world(SlidingBox(GetParam()));
  ASSERT_EQ(world.inputs().contact_settings.stiction_tolerance_m_per_s, kStictionTolerance);
  int slipping = 0, sticking_within_2vs = 0, sticking_within_vs = 0;
  for (int step = 0; step < 100; ++step) {
    ASSERT_TRUE(world.Step()) << world.failure();
    for (const ContactResult& c : world.contacts()) {
      if (!(c.normal_force_W.dot(c.normal_W) > 0)) continue;  // pressed: γ_n > 0
      const double slip = c.slip_velocity_W.norm();
      // Away from the threshold by more than round-off: the classification is unambiguous.
      if (std::abs(slip - 2 * kStictionTolerance) < 1e-9) continue;
      const bool stick = slip <= 2 * kStictionTolerance;
      EXPECT_EQ(c.state, stick ? ContactResult::State::kStick : ContactResult::State::kSlip)
          << "step " << step << ", slip " << slip << " m/s";
      if (!stick) ++slipping;
      if (stick && slip > kStictionTolerance) ++sticking_within_2vs;
      if (slip <= kStictionTolerance) ++sticking_within_vs;
    }
  }
  // The sweep crossed every band: several steps slide above 2 v_s, at least one step's contacts
  // lie between v_s and 2 v_s, and the box ends at rest, stuck.
  EXPECT_GE(slipping, 4 * 5);
  EXPECT_GE(sticking_within_2vs, 1);
  EXPECT_GE(sticking_within_vs, 4 * 50);
  EXPECT_LT(world.BodyVelocity(1).tail<3>().norm(), kStictionTolerance);
  ASSERT_FALSE(world.contacts().empty());
  for (const ContactResult& c : world.contacts()) {
    EXPECT_EQ(c.state, ContactResult::State::kStick);
  }
}

// Without a normal impulse a contact neither sticks nor slips: a box held 5 mm above the floor
// (no gravity; the margin 1 cm keeps its four contacts in the problem) gets no force, and its
// contacts are kSeparating when it rises (v_n = 0.1 m/s > 0) and kMargin otherwise — at rest
// (v_n = 0 exactly: the solver keeps v = v* = 0) and moving sideways at 0.05 m/s (v_n = 0, slip
// 0.05 m/s > 2 v_s, still no force: SAP's gliding offset μ(δt + τ_d)‖v_t‖ ≈ 2.5 mm, §2.5, stays
// within the 5 mm gap).
TEST_P(StepResultsModels, ContactsWithoutForceSeparateOrWaitInTheMargin) {
  struct Case {
    Eigen::Vector3d v_W;
    ContactResult::State state;
  };
  for (const Case& c : {Case{Eigen::Vector3d(0, 0, 0.1), ContactResult::State::kSeparating},
                        Case{Eigen::Vector3d::Zero(), ContactResult::State::kMargin},
                        Case{Eigen::Vector3d(0.05, 0, 0), ContactResult::State::kMargin}}) {
    SCOPED_TRACE(::testing::PrintToString(c.v_W.transpose().eval()));
    SceneSpec scene = SlidingBox(GetParam());
    scene.gravity_W.setZero();
    scene.contact_margin_m = 0.01;
    SceneBody& box = scene.bodies[1];
    box.initial_pose.translation().z() = 0.05 + 0.005;
    box.initial_velocity.setZero();
    box.initial_velocity.tail<3>() = c.v_W;
    World world(scene);
    world.set_contact_reach_rule(std::nullopt);  // every contact within the margin in the problem
    ASSERT_TRUE(world.Step()) << world.failure();
    ASSERT_EQ(world.contacts().size(), 4u);
    for (const ContactResult& r : world.contacts()) {
      EXPECT_EQ(r.normal_force_W.norm(), 0.0);
      EXPECT_EQ(r.state, c.state) << "v_n " << r.normal_velocity << ", slip "
                                  << r.slip_velocity_W.norm();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, StepResultsModels, ::testing::ValuesIn(testing::kAllApproximations),
                         testing::ApproximationTestName);

}  // namespace
}  // namespace contactlab
