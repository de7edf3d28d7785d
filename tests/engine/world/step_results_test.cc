// Stage "results" (engine/world/step_results.h): each pressed contact sticks or slips by its
// approximation's own regime (docs/contact-model.md §2.5).
//
// Lagged and Similar: by its slip at the step's end against twice their soft-norm width ε — v_s
// for Lagged and Similar: stick at ‖v_t‖ ≤ 2 v_s, slip above it; regularized Lagged's
// max(v_s, σ·w_t·μ·γ_n0) (§2.3), so that a box below the friction angle sticks however small v_s. A
// box slides to rest on a rigid floor from 0.1 m/s under Coulomb friction (μ g ≈ 4.9 m/s², 4.9 mm/s
// less each 1 ms step), its slip sweeping down through 2 v_s and v_s (v_s = 10 mm/s), so contacts
// land in each band: above 2 v_s (slip), in (v_s, 2 v_s] (stick: the factor 2) and at rest (stick).
//
// SAP: by the region of its friction cone the impulse was projected from (§2.1), v_s playing no
// part. In the stiction region γ = y = −R⁻¹(v_c − v̂), so ‖v_t‖ = R_t ‖γ_t‖ ≤ μ R_t γ_n: the same
// sliding box sticks only below that slip, far below 2 v_s. On an incline (gravity tilted by θ)
// the box sticks for tan θ < μ and slides for tan θ > μ, whatever v_s.
//
// A contact without force is kSeparating when it opens, kMargin otherwise.
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

// The box at rest on a slope of angle θ = atan(tan_theta): the floor stays level and gravity
// tilts, g (sin θ, 0, −cos θ), so that the box slides along +x.
SceneSpec BoxOnIncline(ContactApproximation model, double tan_theta, double v_s) {
  SceneSpec s = SlidingBox(model);
  s.contact_settings.stiction_tolerance_m_per_s = v_s;
  s.bodies[1].initial_velocity.setZero();
  const double theta = std::atan(tan_theta);
  s.gravity_W = 9.81 * Eigen::Vector3d(std::sin(theta), 0, -std::cos(theta));
  // SAP: no relaxation time, so that its gliding offset μ(δt + τ_d)‖v_t‖ (§2.5) stays below a
  // millimetre and the box slides as under Coulomb friction, without rising.
  s.bodies[1].geometries[0].contact.relaxation_time_s = 0;
  return s;
}

bool Pressed(const ContactResult& c) { return c.normal_force_W.dot(c.normal_W) > 0; }

class StepResultsModels : public ::testing::TestWithParam<ContactApproximation> {};
// The approximations with smooth friction, whose stick–slip width is v_s (§2.5).
class StepResultsSmoothFriction : public ::testing::TestWithParam<ContactApproximation> {};

TEST_P(StepResultsSmoothFriction, PressedContactsStickWithinTwiceTheStictionToleranceAndSlipAbove) {
  World world(SlidingBox(GetParam()));
  ASSERT_EQ(world.inputs().contact_settings.stiction_tolerance_m_per_s, kStictionTolerance);
  int slipping = 0, sticking_within_2vs = 0, sticking_within_vs = 0;
  for (int step = 0; step < 100; ++step) {
    ASSERT_TRUE(world.Step()) << world.failure();
    for (const ContactResult& c : world.contacts()) {
      if (!(c.normal_force_W.dot(c.normal_W) > 0)) continue;  // pressed: γ_n > 0
      // At this v_s (10 mm/s) the width is v_s itself, regularized Lagged's included.
      ASSERT_EQ(c.effective_stiction_tolerance_m_per_s, kStictionTolerance);
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

// Lagged's state follows the width v_s: the box on a slope steeper than its friction angle slides
// (at 0.2 s, about 0.3 m/s with v_s = 0.1 mm/s, faster with v_s = 10 m/s, whose soft friction
// barely holds it), and its contacts read kSlip with the narrow width and kStick with the wide one,
// its slip being within 2 v_s.
TEST(StepResultsLagged, StateFollowsTheStictionToleranceWidth) {
  for (const double v_s : {1e-4, 10.0}) {
    SCOPED_TRACE(::testing::Message() << "v_s " << v_s);
    World world(BoxOnIncline(ContactApproximation::kLagged, 0.7, v_s));
    for (int step = 0; step < 200; ++step) ASSERT_TRUE(world.Step()) << world.failure();
    ASSERT_GT(world.BodyVelocity(1).tail<3>().norm(), 0.2);  // it slides
    ASSERT_FALSE(world.contacts().empty());
    for (const ContactResult& c : world.contacts()) {
      ASSERT_TRUE(Pressed(c));
      const bool within_width = c.slip_velocity_W.norm() <= 2 * v_s;
      EXPECT_EQ(within_width, v_s == 10.0);  // the two widths lie either side of the slip
      EXPECT_EQ(c.state, within_width ? ContactResult::State::kStick : ContactResult::State::kSlip);
    }
  }
}

// SAP on the slope, μ = 0.5: with tan θ = 0.3 < μ every pressed contact sticks and the box creeps
// at SAP's regularized stiction; with tan θ = 0.7 > μ every one slides, and the box accelerates at
// g (sin θ − μ cos θ). SAP does not read v_s: with v_s = 0.1 mm/s and v_s = 10 m/s (2 v_s far
// above the sliding box's 0.3 m/s) the runs are the same bit for bit, states included.
// Regularized Lagged widens ε to σ·w_t·μ·γ_n0 where that exceeds v_s (§2.3): on a slope below
// the friction angle (tan θ = 0.3 < μ = 0.5) with v_s = 1 nm/s the box creeps at a speed set by
// that width, far above 2 v_s, and its contacts read stick — by 2·v_s they would all read slip.
TEST(StepResultsRegularizedLagged, SticksBelowTheFrictionAngleWithinItsRegularizedWidth) {
  constexpr double kTinyStictionTolerance = 1e-9;
  World world(BoxOnIncline(ContactApproximation::kRegularizedLagged, 0.3, kTinyStictionTolerance));
  int pressed = 0, above_twice_vs = 0;
  for (int step = 0; step < 300; ++step) {
    ASSERT_TRUE(world.Step()) << world.failure();
    if (step < 200) continue;  // settled on the slope
    for (const ContactResult& c : world.contacts()) {
      if (!Pressed(c)) continue;
      ++pressed;
      const double slip = c.slip_velocity_W.norm();
      EXPECT_GT(c.effective_stiction_tolerance_m_per_s, 100 * kTinyStictionTolerance);
      EXPECT_LE(slip, 2 * c.effective_stiction_tolerance_m_per_s);
      EXPECT_EQ(c.state, ContactResult::State::kStick) << "step " << step << ", slip " << slip;
      above_twice_vs += slip > 2 * kTinyStictionTolerance;
    }
  }
  EXPECT_GE(pressed, 4 * 100);
  EXPECT_GT(above_twice_vs, pressed / 2);
}

TEST(StepResultsSap, SticksBelowTheFrictionAngleAndSlidesAboveWhateverTheStictionTolerance) {
  constexpr double kMu = 0.5, kG = 9.81, kDuration = 0.2;
  for (const double tan_theta : {0.3, 0.7}) {
    SCOPED_TRACE(::testing::Message() << "tan θ " << tan_theta);
    const bool slides = tan_theta > kMu;
    World narrow(BoxOnIncline(ContactApproximation::kSap, tan_theta, 1e-4));
    World wide(BoxOnIncline(ContactApproximation::kSap, tan_theta, 10.0));
    int pressed = 0;
    for (int step = 0; step < kDuration / 1e-3; ++step) {
      ASSERT_TRUE(narrow.Step()) << narrow.failure();
      ASSERT_TRUE(wide.Step()) << wide.failure();
      ASSERT_TRUE(narrow.q() == wide.q() && narrow.v() == wide.v()) << "step " << step;
      ASSERT_EQ(narrow.contacts().size(), wide.contacts().size());
      for (size_t i = 0; i < narrow.contacts().size(); ++i) {
        const ContactResult& c = narrow.contacts()[i];
        EXPECT_EQ(c.state, wide.contacts()[i].state) << "step " << step;
        // After the first steps' transient, every pressed contact is in one regime.
        if (step < 20 || !Pressed(c)) continue;
        ++pressed;
        EXPECT_EQ(c.state, slides ? ContactResult::State::kSlip : ContactResult::State::kStick)
            << "step " << step << ", slip " << c.slip_velocity_W.norm() << " m/s";
      }
    }
    EXPECT_GE(pressed, 4 * 150);
    // Sliding: Coulomb's g (sin θ − μ cos θ). Sticking: SAP's creep, about σ μ g δt
    // (docs/contact-model.md §2.1; the factor 4 as in tests/physics/incline_test.cc).
    const double theta = std::atan(tan_theta);
    const double speed = narrow.BodyVelocity(1).tail<3>().norm();
    if (slides) {
      const double expected = kG * (std::sin(theta) - kMu * std::cos(theta)) * kDuration;
      EXPECT_NEAR(speed, expected, 0.01 * expected);
    } else {
      EXPECT_LT(speed, 4 * narrow.scene().contact_settings.sap_sigma * kMu * kG * narrow.dt());
    }
  }
}

// The sliding box on the level floor under SAP, v_s = 10 mm/s: a pressed contact sticks exactly
// when its slip is within SAP's own width μ R_t γ_n (the diagnostic
// effective_stiction_tolerance_m_per_s), and many contacts slipping below 2 v_s read kSlip.
TEST(StepResultsSap, PressedContactsStickWithinTheStictionRegionsWidthNotTwiceVs) {
  World world(SlidingBox(ContactApproximation::kSap));
  int slipping_below_2vs = 0, sticking = 0;
  for (int step = 0; step < 100; ++step) {
    ASSERT_TRUE(world.Step()) << world.failure();
    for (const ContactResult& c : world.contacts()) {
      if (!Pressed(c)) continue;
      const double slip = c.slip_velocity_W.norm();
      const double width = c.effective_stiction_tolerance_m_per_s;
      // Away from the boundary by more than round-off: the region is unambiguous.
      if (std::abs(slip - width) <= 1e-9 * width) continue;
      const bool stick = slip <= width;
      EXPECT_EQ(c.state, stick ? ContactResult::State::kStick : ContactResult::State::kSlip)
          << "step " << step << ", slip " << slip << " m/s, width " << width << " m/s";
      slipping_below_2vs += !stick && slip <= 2 * kStictionTolerance;
      sticking += stick;
    }
  }
  EXPECT_GE(slipping_below_2vs, 4);
  EXPECT_GE(sticking, 4 * 50);
}

INSTANTIATE_TEST_SUITE_P(All, StepResultsModels, ::testing::ValuesIn(testing::kAllApproximations),
                         testing::ApproximationTestName);
INSTANTIATE_TEST_SUITE_P(All, StepResultsSmoothFriction,
                         ::testing::Values(ContactApproximation::kLagged,
                                           ContactApproximation::kSimilar,
                                           ContactApproximation::kRegularizedLagged),
                         testing::ApproximationTestName);

}  // namespace
}  // namespace contactlab
