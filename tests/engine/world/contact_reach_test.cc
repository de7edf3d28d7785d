// Contact reach (docs/contact-model.md §4.3): point contacts whose gap cannot close in the step
// are left out of the problem and checked at its solution.
// - MayAct is false only where the approximation's own constraint has γ = 0 and ℓ = 0 (each
//   approximation built by the ContactConstraintFactory, sampled over gaps, velocities,
//   friction and relaxation times); for SAP the two agree exactly.
// - A falling pile steps to the velocities of the whole problem (every contact within the
//   margin) within the solver's tolerance, while most steps leave contacts out.
// - A box pushed from rest across a gap larger than its reach in one step: the after-check
//   puts the floor's contacts back and solves again, and the step is the whole problem's.
#include "engine/world/contact_reach.h"

#include <gtest/gtest.h>

#include <random>

#include "engine/solver/contact_constraint_factory.h"
#include "engine/world/world.h"
#include "test_support/approximations.h"
#include "test_support/pile_scene.h"

namespace contactlab {
namespace {

class ContactReachModels : public ::testing::TestWithParam<ContactApproximation> {};

TEST_P(ContactReachModels, MayActIsFalseOnlyWhereTheConstraintHasNoImpulse) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double dt = 2e-3;
  ContactConstraintFactory factory;
  ContactApproximationSettings settings;
  settings.approximation = GetParam();
  int acting = 0, idle = 0;
  for (int sample = 0; sample < 20000; ++sample) {
    ContactProperties pair;
    pair.stiffness_N_per_m = 1e6;
    pair.hunt_crossley_s_per_m = 10;
    pair.relaxation_time_s = sample % 2 ? 0.0 : 0.02;
    pair.friction = 1.5 * unit(rng);
    ContactConfiguration config;
    config.signed_distance_m = 1e-2 * unit(rng);
    config.previous_normal_velocity_m_per_s = 6 * unit(rng) - 3;
    const double v_n = 6 * unit(rng) - 3, v_t = 3 * unit(rng) * unit(rng);
    factory.Reset(settings, 1);
    const DelassusDiagonal w{.w_t = 2.0, .w_n = 3.0};
    const Constraint* c = factory.Make(0, pair, config, dt, w);
    Eigen::Vector3d vc(v_t, 0, v_n), gamma;
    const double ell = c->Evaluate(vc, gamma, nullptr);
    const bool may_act = MayAct(config.signed_distance_m, ContactHorizon(GetParam(), pair, dt),
                                pair.friction, v_n, v_t);
    if (!may_act) {
      ASSERT_EQ(gamma.norm(), 0.0) << "sample " << sample << ": φ0 " << config.signed_distance_m
                                   << ", v_n " << v_n << ", v_t " << v_t;
      ASSERT_EQ(ell, 0.0) << "sample " << sample;
      ++idle;
    } else {
      if (GetParam() == ContactApproximation::kSap) {
        ASSERT_GT(gamma.norm(), 0.0) << "sample " << sample;  // the separation test itself
      }
      acting += gamma.norm() > 0;
    }
  }
  // Both sides sampled: the test can fail either way.
  EXPECT_GT(idle, 2000);
  EXPECT_GT(acting, 2000);
}

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
  SceneSpec s;
  s.name = "box_above_floor";
  s.dt_s = 1e-2;
  s.approximation = model;
  s.contact_margin_m = 0.05;
  s.gravity_W.setZero();
  SceneBody floor;
  floor.kind = SceneBody::Kind::kStatic;
  floor.body.name = "floor";
  GeometrySpec plane;
  plane.shape = Shape::HalfSpace();
  plane.contact.stiffness_N_per_m = INFINITY;
  plane.contact.friction = 0.5;
  plane.contact.relaxation_time_s = 0;
  floor.geometries.push_back(plane);
  s.bodies.push_back(floor);
  SceneBody box;
  box.body.name = "box";
  GeometrySpec g;
  g.shape = Shape::Box(Eigen::Vector3d(0.05, 0.05, 0.05));
  g.contact.stiffness_N_per_m = 1e6;
  g.contact.friction = 0.5;
  g.contact.relaxation_time_s = 0;
  box.geometries.push_back(g);
  box.body.inertia.mass_kg = 1.0;
  box.body.inertia.inertia_about_com_B = SolidInertia(g.shape, 1.0);
  box.initial_pose.translation() = Eigen::Vector3d(0, 0, 0.05 + 0.02);
  box.initial_velocity = Eigen::VectorXd::Zero(6);
  s.bodies.push_back(box);
  return s;
}

TEST_P(ContactReachModels, AContactLeftOutThatActsIsPutBackAndTheStepSolvedAgain) {
  const SceneSpec scene = BoxAboveTheFloor(GetParam());
  World reached(scene), whole(scene);
  whole.set_contact_reach_rule(std::nullopt);
  ExternalForce push;
  push.scene_body = scene.FindBody("box");
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
  EXPECT_GT(v_z * scene.dt_s, -0.02 - 1e-3);
  EXPECT_LT((reached.v() - whole.v()).norm(), 1e-5 * (1 + whole.v().norm()));
}

INSTANTIATE_TEST_SUITE_P(All, ContactReachModels, ::testing::ValuesIn(testing::kAllApproximations),
                         testing::ApproximationTestName);

}  // namespace
}  // namespace contactlab
