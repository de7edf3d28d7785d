// The contact constraint factory (docs/contact-model.md §2): the one place that chooses the
// approximation makes SAP, Lagged and Similar constraints whose step data equal the formulas of
// §2.1–§2.4 worked by hand, and asks for the Delassus estimate only where it is used.
#include "engine/solver/contact_constraint_factory.h"

#include <gtest/gtest.h>

#include <numbers>
#include <optional>
#include <random>

namespace contactlab {
namespace {

constexpr double kDt = 1e-3;
const ContactProperties kPair{.stiffness_N_per_m = 1e5,
                              .hunt_crossley_s_per_m = 20,
                              .relaxation_time_s = 0.1,
                              .friction = 0.5};

ContactConfiguration Penetrating() {
  ContactConfiguration c;
  c.signed_distance_m = -1e-3;
  c.previous_normal_velocity_m_per_s = -0.1;
  return c;
}

TEST(ContactConstraintFactory, SapTakesItsRegularizationFromTheDelassusEstimate) {
  ContactConstraintFactory factory;
  ContactSettings s;
  s.approximation = ContactApproximation::kSap;
  s.sap_sigma = 1e-3;
  factory.Reset(s, 1);
  EXPECT_TRUE(factory.needs_delassus_diagonal());
  const auto* sap = dynamic_cast<const SapContact*>(
      factory.Make(0, kPair, Penetrating(), kDt, {.w_t = 2.0, .w_n = 3.0}));
  ASSERT_NE(sap, nullptr);
  // R_n = max(β²w_n/(4π²), 1/(δt k (δt + τ))) = max(0.0760, 0.0990); R_t = σ w_t.
  EXPECT_NEAR(sap->data().R_n, 1.0 / (kDt * 1e5 * 0.101), 1e-15);
  EXPECT_NEAR(sap->data().R_t, 2e-3, 1e-18);
  EXPECT_NEAR(sap->data().vhat_n, 1e-3 / 0.101, 1e-15);
  EXPECT_EQ(sap->data().friction, 0.5);
}

TEST(ContactConstraintFactory, LaggedLagsTheNormalImpulse) {
  ContactConstraintFactory factory;
  ContactSettings s;
  s.approximation = ContactApproximation::kLagged;
  s.stiction_tolerance_m_per_s = 1e-4;
  factory.Reset(s, 2);
  EXPECT_FALSE(factory.needs_delassus_diagonal());
  const auto* lagged =
      dynamic_cast<const LaggedContact*>(factory.Make(1, kPair, Penetrating(), kDt, {}));
  ASSERT_NE(lagged, nullptr);
  // γ_n0 = δt·k·x0·(1 − d·v_n0) = 1e-3·1e5·1e-3·(1 + 20·0.1) = 0.3 N·s; ε = v_s.
  EXPECT_NEAR(lagged->data().lagged_normal_impulse, 0.3, 1e-15);
  EXPECT_EQ(lagged->data().epsilon_m_per_s, 1e-4);

  // Regularized Lagged: ε = max(v_s, σ w_t μ γ_n0) = max(1e-4, 1e-3·1e3·0.5·0.3) = 0.15 m/s.
  s.approximation = ContactApproximation::kRegularizedLagged;
  factory.Reset(s, 1);
  EXPECT_TRUE(factory.needs_delassus_diagonal());
  lagged = dynamic_cast<const LaggedContact*>(
      factory.Make(0, kPair, Penetrating(), kDt, {.w_t = 1e3, .w_n = 1e3}));
  ASSERT_NE(lagged, nullptr);
  EXPECT_NEAR(lagged->data().epsilon_m_per_s, 0.15, 1e-15);
}

TEST(ContactConstraintFactory, SimilarAndHydroelasticElasticForce) {
  ContactConstraintFactory factory;
  ContactSettings s;
  s.approximation = ContactApproximation::kSimilar;
  s.stiction_tolerance_m_per_s = 2e-4;
  factory.Reset(s, 1);
  ContactConfiguration face = Penetrating();
  face.elastic_force_N = 7.0;  // a face set's f0 = Σ A p0, which replaces k·x0
  const auto* similar = dynamic_cast<const SimilarContact*>(factory.Make(0, kPair, face, kDt, {}));
  ASSERT_NE(similar, nullptr);
  EXPECT_EQ(similar->data().epsilon_m_per_s, 2e-4);
  EXPECT_EQ(similar->data().friction, 0.5);
  EXPECT_EQ(similar->data().normal.ElasticForce(), 7.0);
  EXPECT_EQ(similar->data().normal.dissipation_s_per_m, 20);
}

TEST(ContactConstraintFactory, DiagnosesGlidingStiffnessAndStictionPerApproximation) {
  // docs/contact-model.md §2.5, Table I, worked by hand for μ = 0.5, k = 1e5 N/m, d = 20 s/m,
  // τ_d = 0.1 s, δt = 1 ms, γ_n = 2e-3 N·s, ‖v_t‖ = 0.3 m/s.
  ContactConstraintFactory factory;
  ContactSettings s;
  s.stiction_tolerance_m_per_s = 1e-4;
  const double gamma_n = 2e-3, slip = 0.3;
  // SAP: gliding μ(δt + τ_d)‖v_t‖; stiction σ w_t μ γ_n; stiffness k_R = 1/(δt(δt + τ)R_n) = k
  // here (compliance above the near-rigid floor), divided by 1 + μ²R_t/R_n while sliding.
  s.approximation = ContactApproximation::kSap;
  factory.Reset(s, 1);
  factory.Make(0, kPair, Penetrating(), kDt, {.w_t = 2.0, .w_n = 3.0});
  ContactModelDiagnostics d = factory.Diagnose(0, kPair, kDt, gamma_n, slip);
  const double R_n = 1.0 / (kDt * 1e5 * 0.101), R_t = 1e-3 * 2.0;
  EXPECT_NEAR(d.gliding_offset_m, 0.5 * 0.101 * 0.3, 1e-15);
  EXPECT_NEAR(d.effective_stiction_tolerance_m_per_s, 0.5 * R_t * gamma_n, 1e-18);
  EXPECT_NEAR(d.effective_stiffness_N_per_m, 1e5 / (1 + 0.25 * R_t / R_n), 1e-6);
  d = factory.Diagnose(0, kPair, kDt, gamma_n, 1e-9);  // sticking: the stiffness itself
  EXPECT_NEAR(d.effective_stiffness_N_per_m, 1e5, 1e-6);
  // A stiff contact the near-rigid rule regularizes: k_R = 4π²/(β² w_n δt (δt + τ)) < k.
  ContactProperties stiff = kPair;
  stiff.stiffness_N_per_m = 1e9;
  factory.Make(0, stiff, Penetrating(), kDt, {.w_t = 2.0, .w_n = 3.0});
  d = factory.Diagnose(0, stiff, kDt, gamma_n, 1e-9);
  const double pi = std::numbers::pi;
  EXPECT_NEAR(d.effective_stiffness_N_per_m, 4 * pi * pi / (3.0 * kDt * 0.101), 1e-6);
  // Lagged: no gliding, stiffness k, ε = v_s.
  s.approximation = ContactApproximation::kLagged;
  factory.Reset(s, 1);
  factory.Make(0, kPair, Penetrating(), kDt, {});
  d = factory.Diagnose(0, kPair, kDt, gamma_n, slip);
  EXPECT_EQ(d.gliding_offset_m, 0.0);
  EXPECT_EQ(d.effective_stiffness_N_per_m, 1e5);
  EXPECT_EQ(d.effective_stiction_tolerance_m_per_s, 1e-4);
  // Similar: gliding μ δt ‖v_t‖, stiffness k(1 + μ d ‖v_t‖) = 1e5·(1 + 0.5·20·0.3) = 4e5.
  s.approximation = ContactApproximation::kSimilar;
  factory.Reset(s, 1);
  factory.Make(0, kPair, Penetrating(), kDt, {});
  d = factory.Diagnose(0, kPair, kDt, gamma_n, slip);
  EXPECT_NEAR(d.gliding_offset_m, 0.5 * kDt * 0.3, 1e-15);
  EXPECT_NEAR(d.effective_stiffness_N_per_m, 4e5, 1e-9);
  EXPECT_EQ(d.effective_stiction_tolerance_m_per_s, 1e-4);
}

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

// Whether a constraint made with `pair` and `settings` differs anywhere from one made with
// `changed_pair` and `changed_settings`, over constraint velocities from separating to pressing
// and sliding.
bool ConstraintsDiffer(ContactSettings settings, const ContactProperties& pair,
                       ContactSettings changed_settings, const ContactProperties& changed_pair) {
  ContactConstraintFactory a, b;
  a.Reset(settings, 1);
  b.Reset(changed_settings, 1);
  const DelassusDiagonal w{.w_t = 2.0, .w_n = 3.0};
  const Constraint* ca = a.Make(0, pair, Penetrating(), kDt, w);
  const Constraint* cb = b.Make(0, changed_pair, Penetrating(), kDt, w);
  Eigen::VectorXd ga(3), gb(3);
  for (const Eigen::Vector3d& vc :
       {Eigen::Vector3d(0, 0, 0.05), Eigen::Vector3d(0, 0, -0.2), Eigen::Vector3d(0.3, -0.1, -0.05),
        Eigen::Vector3d(1e-5, 0, -0.01)}) {
    if (ca->Cost(vc, ga) != cb->Cost(vc, gb) || ga != gb) return true;
  }
  return false;
}

// The table the UI greys parameters out by, checked against the constraints themselves: a
// parameter is "used" exactly when changing it changes the constraint.
TEST(ContactConstraintFactory, DiagnosesTheRequestedStiffnessAndTheNearRigidRule) {
  // The requested stiffness is the pair's k whatever the approximation makes of it; SAP's
  // near-rigid rule takes over where β²w_n/(4π²) > 1/(δt k (δt + τ_d)): with w_n = 3 1/kg,
  // δt = 1 ms, τ_d = 0.1 s at k > 4π²/(3·1e-3·0.101) ≈ 1.3e5 N/m (docs/contact-model.md §2.1).
  ContactConstraintFactory factory;
  ContactSettings s;
  s.approximation = ContactApproximation::kSap;
  factory.Reset(s, 1);
  for (const double k : {1e5, 1e9}) {
    ContactProperties pair = kPair;
    pair.stiffness_N_per_m = k;
    factory.Make(0, pair, Penetrating(), kDt, {.w_t = 2.0, .w_n = 3.0});
    const ContactModelDiagnostics d = factory.Diagnose(0, pair, kDt, 2e-3, 1e-9);
    EXPECT_EQ(d.requested_stiffness_N_per_m, k);
    EXPECT_EQ(d.near_rigid, k > 1e6) << k;
    EXPECT_EQ(d.effective_stiffness_N_per_m<0.5 * k, k> 1e6) << k;
  }
  // Lagged and Similar have no near-rigid rule: the requested k, never flagged.
  for (const ContactApproximation a :
       {ContactApproximation::kLagged, ContactApproximation::kSimilar}) {
    s.approximation = a;
    factory.Reset(s, 1);
    ContactProperties stiff = kPair;
    stiff.stiffness_N_per_m = 1e9;
    factory.Make(0, stiff, Penetrating(), kDt, {});
    const ContactModelDiagnostics d = factory.Diagnose(0, stiff, kDt, 2e-3, 0.0);
    EXPECT_EQ(d.requested_stiffness_N_per_m, 1e9);
    EXPECT_FALSE(d.near_rigid);
    EXPECT_EQ(d.effective_stiffness_N_per_m, 1e9);
  }
}

TEST(ContactConstraintFactory, SapRegionIsTheSapConstraintsOwnAndAbsentForSmoothFriction) {
  // The penetrating SAP contact of the test above: R_t = σ w_t = 2e-3 /kg, R_n = 1/(δt k (δt + τ))
  // ≈ 0.099 /kg, v̂_n = −φ0/(δt + τ) ≈ 9.9e-3 m/s, so y = −R⁻¹(v_c − v̂) is (§2.1): at rest,
  // y_n ≈ 0.1 N·s, y_t = 0 (stiction); slipping at 0.3 m/s, y_r = 150 N·s > μ y_n (sliding);
  // opening at 1 m/s, y_n < 0 with y_t = 0 (separation).
  ContactConstraintFactory factory;
  ContactSettings s;
  s.approximation = ContactApproximation::kSap;
  factory.Reset(s, 1);
  factory.Make(0, kPair, Penetrating(), kDt, {.w_t = 2.0, .w_n = 3.0});
  EXPECT_EQ(factory.SapRegion(0, Eigen::Vector3d(0, 0, 0)), SapContact::Region::kStiction);
  EXPECT_EQ(factory.SapRegion(0, Eigen::Vector3d(0.3, 0, 0)), SapContact::Region::kSliding);
  EXPECT_EQ(factory.SapRegion(0, Eigen::Vector3d(0, 0, 1)), SapContact::Region::kSeparation);
  for (const ContactApproximation a :
       {ContactApproximation::kLagged, ContactApproximation::kRegularizedLagged,
        ContactApproximation::kSimilar}) {
    s.approximation = a;
    factory.Reset(s, 1);
    factory.Make(0, kPair, Penetrating(), kDt, {.w_t = 2.0, .w_n = 3.0});
    EXPECT_EQ(factory.SapRegion(0, Eigen::Vector3d(0, 0, 0)), std::nullopt);
  }
}

TEST(ContactConstraintFactory, UsesParameterIsWhatTheConstraintsRead) {
  for (const ContactApproximation a : {ContactApproximation::kSap, ContactApproximation::kLagged,
                                       ContactApproximation::kSimilar}) {
    ContactSettings s;
    s.approximation = a;
    const auto differs = [&](ContactProperties pair, ContactSettings changed) {
      return ConstraintsDiffer(s, kPair, changed, pair);
    };
    ContactProperties p = kPair;
    p.stiffness_N_per_m *= 2;
    EXPECT_EQ(differs(p, s), UsesParameter(a, ContactParameter::kStiffness));
    p = kPair;
    p.hunt_crossley_s_per_m *= 2;
    EXPECT_EQ(differs(p, s), UsesParameter(a, ContactParameter::kHuntCrossley));
    p = kPair;
    p.relaxation_time_s *= 2;
    EXPECT_EQ(differs(p, s), UsesParameter(a, ContactParameter::kRelaxationTime));
    p = kPair;
    p.friction *= 2;
    EXPECT_EQ(differs(p, s), UsesParameter(a, ContactParameter::kFriction));
    ContactSettings changed = s;
    changed.stiction_tolerance_m_per_s *= 10;
    EXPECT_EQ(differs(kPair, changed), UsesParameter(a, ContactParameter::kStictionTolerance));
    EXPECT_EQ(UsesParameter(a, ContactParameter::kHuntCrossley),
              std::string(UnusedParameterReason(a, ContactParameter::kHuntCrossley)).empty());
  }
  EXPECT_FALSE(UsesParameter(ContactApproximation::kSap, ContactParameter::kHuntCrossley));
  EXPECT_FALSE(UsesParameter(ContactApproximation::kLagged, ContactParameter::kRelaxationTime));
}

}  // namespace

// docs/contact-model.md §4.3: MayAct is false only where the approximation's own constraint has
// γ = 0 and ℓ = 0 (each made by the factory, sampled over gaps, velocities, friction and
// relaxation times); for SAP the two are the same condition.
namespace {

class ContactActivation : public ::testing::TestWithParam<ContactApproximation> {};

TEST_P(ContactActivation, MayActIsFalseOnlyWhereTheConstraintHasNoImpulse) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double dt = 2e-3;
  ContactConstraintFactory factory;
  ContactSettings settings;
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

INSTANTIATE_TEST_SUITE_P(All, ContactActivation,
                         ::testing::Values(ContactApproximation::kSap,
                                           ContactApproximation::kLagged,
                                           ContactApproximation::kSimilar,
                                           ContactApproximation::kRegularizedLagged),
                         [](const ::testing::TestParamInfo<ContactApproximation>& info) {
                           return ContactApproximationName(info.param);
                         });

}  // namespace
}  // namespace contactlab
