// The step's Jacobians by the implicit function theorem (docs/contact-model.md §9) against
// central differences of whole steps — each a full solve — on the papers' cases, for every
// convex approximation, point and hydroelastic contact, away from kinks.
#include "engine/world/step_derivatives.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>

#include "engine/world/trajectory_sensitivity.h"
#include "physics_test_util.h"
#include "test_support/allocation_counter.h"

namespace contactlab {
namespace {

const std::vector<ContactParameter> kAllParameters = {
    ContactParameter::kStiffness, ContactParameter::kHuntCrossley,
    ContactParameter::kRelaxationTime, ContactParameter::kFriction,
    ContactParameter::kStictionTolerance};

// The whole steps' differences, each block's step below the scale on which the step is
// nonlinear in it: the Lagged soft norm's width v_s = 1e-4 m/s is crossed by a 1e-8 m shift of
// a gripped ball (∂v/∂q ≈ 1e4 /s), so q moves by 1e-10 m; v₀ and the targets by 1e-8; a
// parameter by 1e-6 of its value.
constexpr double kPositionStep = 1e-10, kVelocityStep = 1e-8, kTargetStep = 1e-8,
                 kParameterStep = 1e-6;

// The Newton tolerance of the step and of its differences: they divide the solutions' error by
// 2h, so it must be far below h times the derivative.
ConvexSolverParameters TightSolver() {
  ConvexSolverParameters p;
  p.relative_tolerance = 1e-13;
  return p;
}

struct Case {
  std::string name;
  std::string scene;
  double differentiate_at_s;  // a state away from kinks
  // The body whose first geometry's k, d, τ_d and μ become every pair's (the global values the
  // derivatives are taken at), then changes to them (a friction that slides).
  std::string body;
  std::function<void(ContactSettings*)> edit_settings = [](ContactSettings*) {};
  std::function<void(World*)> actuate = [](World*) {};
  bool pressure_field = false;  // hydroelastic contact
};

// gtest prints a case by its name (not its bytes, which hold addresses: ctest's names would
// change from build to build).
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

void SetGlobalParameters(const Case& c, const SceneSpec& scene, ContactSettings* settings) {
  const ContactProperties& p = scene.bodies[scene.FindBody(c.body)].geometries.at(0).contact;
  settings->stiffness_N_per_m = p.stiffness_N_per_m;
  settings->hunt_crossley_s_per_m = p.hunt_crossley_s_per_m;
  settings->relaxation_time_s = p.relaxation_time_s;
  settings->friction = p.friction;
  c.edit_settings(settings);
}

// A whole step from (q₀, v₀) with these inputs, on a World of its own.
struct StepOutput {
  Eigen::VectorXd q, v;
};
StepOutput TakeStep(World* w, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0, double t0,
                    const World::StepSizeState& sizes, const WorldInputs& inputs) {
  w->SetContactSettings(inputs.contact_settings);
  w->SetActuation(inputs.pd);
  w->SetState(q0, v0, t0);
  w->SetStepSizeState(sizes);
  EXPECT_TRUE(w->Step()) << w->failure();
  return {w->q(), w->v()};
}

// A derivative by the implicit function theorem against central differences of whole steps:
// equal to a relative `tolerance`, or within the differences' own round-off, 100 ε · scale / h
// (a derivative that vanishes, ∂v₁/∂μ of a sticking contact, is round-off in them).
::testing::AssertionResult Close(const Eigen::MatrixXd& ifd, const Eigen::MatrixXd& fd,
                                 double scale, double h, double tolerance = 1e-5) {
  const double error = (ifd - fd).norm();
  const double bound = tolerance * fd.norm() + 100 * 2.2e-16 * scale / h * std::sqrt(fd.cols());
  if (error <= bound) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "‖Δ‖ = " << error << " > " << bound << " (relative " << error / fd.norm() << ")";
}

// A world of the case at the state it is differentiated at, and a second one for the
// differences.
struct CaseWorlds {
  std::unique_ptr<World> world, reference;
};
CaseWorlds MakeCaseWorlds(const Case& c, ContactApproximation approximation) {
  SceneSpec scene = testing::LoadBuiltinScene(c.scene);
  scene.contact_settings.approximation = approximation;
  SetGlobalParameters(c, scene, &scene.contact_settings);
  CaseWorlds worlds{std::make_unique<World>(scene), std::make_unique<World>(scene)};
  worlds.world->solver().set_parameters(TightSolver());
  worlds.reference->solver().set_parameters(TightSolver());
  c.actuate(worlds.world.get());
  EXPECT_GE(testing::RunFor(worlds.world.get(), c.differentiate_at_s), 0)
      << worlds.world->failure();
  EXPECT_GT(worlds.world->contacts().size(), 0u) << "the case must be in contact";
  return worlds;
}

// Central differences of whole steps from the world's state: per input block, the columns of
// ∂q₁ and ∂v₁ along each of its n entries, moved by `offset`.
class WholeStepDifferences {
 public:
  WholeStepDifferences(const World& world, World* reference)
      : reference_(reference),
        q0_(world.q()),
        v0_(world.v()),
        t0_(world.time()),
        sizes_(world.step_size_state()),
        inputs0_(world.inputs()) {}
  using Offset =
      std::function<void(int i, double h, Eigen::VectorXd* q, Eigen::VectorXd* v, WorldInputs*)>;
  // Forwards from the unmoved step when `forward` (a parameter at its bound 0).
  std::pair<Eigen::MatrixXd, Eigen::MatrixXd> Columns(int n, double h, const Offset& offset,
                                                      bool forward = false) const {
    Eigen::MatrixXd dq(q0_.size(), n), dv(v0_.size(), n);
    for (int i = 0; i < n; ++i) {
      StepOutput out[2];
      for (int s = 0; s < 2; ++s) {
        Eigen::VectorXd q = q0_, v = v0_;
        WorldInputs inputs = inputs0_;
        offset(i, s == 0 ? h : (forward ? 0.0 : -h), &q, &v, &inputs);
        out[s] = TakeStep(reference_, q, v, t0_, sizes_, inputs);
      }
      const double width = forward ? h : 2 * h;
      dq.col(i) = (out[0].q - out[1].q) / width;
      dv.col(i) = (out[0].v - out[1].v) / width;
    }
    return {dq, dv};
  }
  StepOutput Unmoved() const { return TakeStep(reference_, q0_, v0_, t0_, sizes_, inputs0_); }
  const WorldInputs& inputs0() const { return inputs0_; }

 private:
  World* reference_;
  Eigen::VectorXd q0_, v0_;
  double t0_;
  World::StepSizeState sizes_;
  WorldInputs inputs0_;
};

class StepJacobian : public ::testing::TestWithParam<std::tuple<Case, ContactApproximation>> {};

TEST_P(StepJacobian, EqualsCentralDifferencesOfWholeSteps) {
  const auto& [c, approximation] = GetParam();
  CaseWorlds worlds = MakeCaseWorlds(c, approximation);
  World& world = *worlds.world;
  const WholeStepDifferences differences(world, worlds.reference.get());
  StepDerivatives derivatives(world.model(), kAllParameters);
  ASSERT_TRUE(derivatives.Step(&world)) << derivatives.failure();
  const StepJacobians J = derivatives.Jacobians();
  const StepOutput here = differences.Unmoved();
  ASSERT_EQ(here.v, world.v()) << "the reference world must take the same step";
  const double v_scale = std::max(1.0, here.v.lpNorm<Eigen::Infinity>());
  const double q_scale = std::max(1.0, here.q.lpNorm<Eigen::Infinity>());

  const int nq = world.q().size(), nv = world.v().size();
  const auto [dq_dq0, dv_dq0] = differences.Columns(
      nq, kPositionStep,
      [](int i, double h, Eigen::VectorXd* q, Eigen::VectorXd*, WorldInputs*) { (*q)[i] += h; });
  const auto [dq_dv0, dv_dv0] = differences.Columns(
      nv, kVelocityStep,
      [](int i, double h, Eigen::VectorXd*, Eigen::VectorXd* v, WorldInputs*) { (*v)[i] += h; });
  const std::vector<int>& pd = derivatives.pd_bodies();
  const auto [dq_du, dv_du] = differences.Columns(
      2 * static_cast<int>(pd.size()), kTargetStep,
      [&](int i, double h, Eigen::VectorXd*, Eigen::VectorXd*, WorldInputs* inputs) {
        JointPdSpec& spec = *inputs->pd[pd[i / 2]];
        (i % 2 == 0 ? spec.q_desired : spec.v_desired) += h;
      });
  // A pressure field is linear over each tetrahedron: as a body tilts, its contact surface's
  // polygons cross element faces and the rim's faces (pressure 0) open, each a kink in q of its
  // own (docs/contact-model.md §9). ∂/∂q is then within 2.1e-4 of the differences (measured),
  // checked to 1e-3; every other block to 1e-5.
  const double q_tolerance = c.pressure_field ? 1e-3 : 1e-5;
  EXPECT_TRUE(Close(J.dv1_dq0, dv_dq0, v_scale, kPositionStep, q_tolerance));
  EXPECT_TRUE(Close(J.dq1_dq0, dq_dq0, q_scale, kPositionStep, q_tolerance));
  EXPECT_TRUE(Close(J.dv1_dv0, dv_dv0, v_scale, kVelocityStep));
  EXPECT_TRUE(Close(J.dq1_dv0, dq_dv0, q_scale, kVelocityStep));
  EXPECT_TRUE(Close(J.dv1_du, dv_du, v_scale, kTargetStep));
  EXPECT_TRUE(Close(J.dq1_du, dq_du, q_scale, kTargetStep));

  // Parameters: a relative step of each one's value, forwards from one at its bound 0.
  for (size_t j = 0; j < kAllParameters.size(); ++j) {
    const ContactParameter parameter = kAllParameters[j];
    const double p = GlobalParameterValue(differences.inputs0().contact_settings, parameter);
    const double h = kParameterStep * std::max(p, 1e-3);
    const auto [dq, dv] = differences.Columns(
        1, h,
        [&](int, double offset, Eigen::VectorXd*, Eigen::VectorXd*, WorldInputs* inputs) {
          SetGlobalParameterValue(parameter, p + offset, &inputs->contact_settings);
        },
        /*forward=*/p == 0);
    EXPECT_TRUE(Close(J.dv1_dp.col(j), dv, v_scale, h))
        << "∂v₁/∂" << GlobalParameterOptionName(parameter);
    EXPECT_TRUE(Close(J.dq1_dp.col(j), dq, q_scale, h))
        << "∂q₁/∂" << GlobalParameterOptionName(parameter);
  }
}

const Case kCases[] = {
    // Sliding (landed at 0.1 s, rolling from 0.22 s) and rolling.
    {"falling_sphere_sliding", "falling_sphere", 0.12, "sphere"},
    {"falling_sphere_rolling", "falling_sphere", 0.35, "sphere"},
    // The θ-method's midpoint rule (docs/contact-model.md §1.1): its free motion is a Newton
    // iteration and its positions weigh v₀ and v₁. (Not the landed sphere: under midpoint it
    // settles rising at 1/d = 2 mm/s, on the kink of Hunt & Crossley's (1 − d v_n)₊.)
    {"incline_slip_midpoint", "incline", 0.05, "box",
     [](ContactSettings* s) {
       s->friction = 0.2;
       s->integrator = TimeIntegration::Midpoint();
     }},
    {"incline_stick", "incline", 0.5, "box"},
    {"incline_slip", "incline", 0.05, "box", [](ContactSettings* s) { s->friction = 0.2; }},
    {"conveyor", "conveyor", 1.03, "box"},
    {"spring_cylinder", "spring_cylinder", 0.5, "cylinder"},
    {"hydro_box", "hydro_box", 0.3, "box", [](ContactSettings*) {}, [](World*) {}, true},
    // The Panda closes its leader finger on the golf ball with 2 N (the other follows it).
    {"grasp", "grasp_ball", 0.1, "ball", [](ContactSettings*) {},
     [](World* w) {
       const int b = w->scene().FindBody("panda_leftfinger");
       const JointPdSpec pd = *w->inputs().pd[b];
       w->SetPdTarget(b, pd.q_desired - 0.004, 0);
       w->SetPdEffortLimit(b, 2);
     }},
};

INSTANTIATE_TEST_SUITE_P(Cases, StepJacobian,
                         ::testing::Combine(::testing::ValuesIn(kCases),
                                            ::testing::ValuesIn(testing::kAllApproximations)),
                         [](const ::testing::TestParamInfo<StepJacobian::ParamType>& info) {
                           return std::get<0>(info.param).name + "_" +
                                  ContactApproximationName(std::get<1>(info.param));
                         });

// The check can fail: the derivative solved with H perturbed by 0.1 % of its diagonal is off by
// more than the tolerance, where H itself passes. (A Hessian missing a term, or assembled from
// another v, fails the same way.)
TEST(StepJacobianCheck, FailsOnAPerturbedHessian) {
  const Case sliding{"falling_sphere_sliding", "falling_sphere", 0.12, "sphere"};
  CaseWorlds worlds = MakeCaseWorlds(sliding, ContactApproximation::kLagged);
  World& world = *worlds.world;
  const WholeStepDifferences differences(world, worlds.reference.get());
  StepDerivatives derivatives(world.model(), {});
  ASSERT_TRUE(derivatives.Step(&world)) << derivatives.failure();
  const auto [dq_dq0, dv_dq0] = differences.Columns(
      world.q().size(), kPositionStep,
      [](int i, double h, Eigen::VectorXd* q, Eigen::VectorXd*, WorldInputs*) { (*q)[i] += h; });

  // H of the step's problem at v₁, exact and perturbed, and ∂(∇ℓ)/∂q₀ column by column.
  Eigen::MatrixXd H;
  Eigen::VectorXd gradient;
  world.solver().EvaluateCost(world.last_problem(), world.v(), &gradient, &H);
  Eigen::MatrixXd H_perturbed = H;
  H_perturbed.diagonal() *= 1.001;
  const int nq = world.q().size(), nv = world.v().size();
  Eigen::MatrixXd exact(nv, nq), perturbed(nv, nq);
  StepDirection direction;
  direction.q = Eigen::VectorXd::Zero(nq);
  Eigen::VectorXd d_gradient;
  for (int i = 0; i < nq; ++i) {
    direction.q[i] = 1;
    derivatives.GradientDerivative(direction, &d_gradient);
    direction.q[i] = 0;
    exact.col(i) = -H.llt().solve(d_gradient);
    perturbed.col(i) = -H_perturbed.llt().solve(d_gradient);
  }
  const double v_scale = std::max(1.0, world.v().lpNorm<Eigen::Infinity>());
  EXPECT_TRUE(Close(exact, dv_dq0, v_scale, kPositionStep));
  EXPECT_FALSE(Close(perturbed, dv_dq0, v_scale, kPositionStep));
}

// Along q a step of point contacts moves its contacts by their rates (contact_point_rates.h)
// instead of running the narrow phase again; a pressure field's surface is differenced
// (docs/contact-model.md §9).
TEST(StepJacobianGeometry, PointContactsMoveAnalyticallyPressureFieldsAreDifferenced) {
  for (const auto& [scene, analytic] :
       {std::pair{"falling_sphere", true}, {"box_stack", true}, {"hydro_box", false}}) {
    SCOPED_TRACE(scene);
    World world(testing::LoadBuiltinScene(scene));
    ASSERT_GE(testing::RunFor(&world, 0.15), 0) << world.failure();
    StepDerivatives derivatives(world.model(), {});
    ASSERT_TRUE(derivatives.Step(&world)) << derivatives.failure();
    EXPECT_GT(world.contacts().size(), 0u);
    EXPECT_EQ(derivatives.uses_analytic_geometry(), analytic);
  }
}

// A stack of boxes, each turned about the vertical against the one below: every face pair is
// clipped into a polygon of both boxes' corners and their edges' crossings, whose rates are the
// analytic path's (docs/contact-model.md §9). ∂(q₁, v₁)/∂q₀ against whole steps, as
// StepJacobian's cases.
TEST(StepJacobianGeometry, ATwistedBoxStacksPositionBlockEqualsWholeStepDifferences) {
  SceneSpec scene = testing::LoadBuiltinScene("box_stack");
  // Soft enough that the normals' turning (the contact forces' directions) weighs in ∂v₁/∂q₀
  // beside the depths' change: at the scene's 1e7 N/m it is 1e-5 of it.
  scene.contact_settings.stiffness_N_per_m = 1e4;
  for (int k = 1; k <= 4; ++k) {
    SceneBody& box = scene.bodies[scene.FindBody("box" + std::to_string(k))];
    box.initial_pose.linear() = Eigen::AngleAxisd(0.3 * k, Eigen::Vector3d::UnitZ()).matrix();
  }
  World world(scene), reference(scene);
  world.solver().set_parameters(TightSolver());
  reference.solver().set_parameters(TightSolver());
  ASSERT_GE(testing::RunFor(&world, 0.05), 0) << world.failure();
  ASSERT_GE(world.contacts().size(), 16u);
  const WholeStepDifferences differences(world, &reference);
  StepDerivatives derivatives(world.model(), {});
  ASSERT_TRUE(derivatives.Step(&world)) << derivatives.failure();
  ASSERT_TRUE(derivatives.uses_analytic_geometry());
  const StepJacobians J = derivatives.Jacobians();
  const auto [dq_dq0, dv_dq0] = differences.Columns(
      world.q().size(), kPositionStep,
      [](int i, double h, Eigen::VectorXd* q, Eigen::VectorXd*, WorldInputs*) { (*q)[i] += h; });
  const StepOutput here = differences.Unmoved();
  const double v_scale = std::max(1.0, here.v.lpNorm<Eigen::Infinity>());
  const double q_scale = std::max(1.0, here.q.lpNorm<Eigen::Infinity>());
  EXPECT_TRUE(Close(J.dv1_dq0, dv_dq0, v_scale, kPositionStep));
  EXPECT_TRUE(Close(J.dq1_dq0, dq_dq0, q_scale, kPositionStep));
}

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

// ∂x_N/∂p over 200 steps by the chain rule against central differences of whole 200-step runs
// (relative 1e-4): the sphere lands sliding and starts to roll (Lagged; the soft norm makes the
// transition smooth), the box slides down the incline (SAP's sliding region).
struct TrajectoryCase {
  Case c;
  ContactApproximation approximation;
};

void PrintTo(const TrajectoryCase& c, std::ostream* os) { *os << c.c.name; }

class TrajectoryGradient : public ::testing::TestWithParam<TrajectoryCase> {};

TEST_P(TrajectoryGradient, EqualsCentralDifferencesOfWholeRuns) {
  const auto& [c, approximation] = GetParam();
  CaseWorlds worlds = MakeCaseWorlds(c, approximation);
  World& world = *worlds.world;
  const Eigen::VectorXd q0 = world.q(), v0 = world.v();
  const double t0 = world.time();
  const WorldInputs inputs0 = world.inputs();
  constexpr int kSteps = 200;
  TrajectorySensitivity sensitivity(world.model(), kAllParameters);
  for (int n = 0; n < kSteps; ++n) ASSERT_TRUE(sensitivity.Step(&world)) << sensitivity.failure();

  World& reference = *worlds.reference;
  for (size_t j = 0; j < kAllParameters.size(); ++j) {
    const ContactParameter parameter = kAllParameters[j];
    if (!UsesParameter(approximation, parameter)) continue;
    const double p = GlobalParameterValue(inputs0.contact_settings, parameter);
    const double h = kParameterStep * p;
    Eigen::VectorXd q_end[2], v_end[2];
    for (int s = 0; s < 2; ++s) {
      ContactSettings settings = inputs0.contact_settings;
      SetGlobalParameterValue(parameter, p + (s == 0 ? h : -h), &settings);
      reference.SetContactSettings(settings);
      reference.SetActuation(inputs0.pd);
      reference.SetState(q0, v0, t0);
      for (int n = 0; n < kSteps; ++n) ASSERT_TRUE(reference.Step()) << reference.failure();
      q_end[s] = reference.q();
      v_end[s] = reference.v();
    }
    const Eigen::VectorXd dq = (q_end[0] - q_end[1]) / (2 * h);
    const Eigen::VectorXd dv = (v_end[0] - v_end[1]) / (2 * h);
    const double v_scale = std::max(1.0, world.v().lpNorm<Eigen::Infinity>());
    const double q_scale = std::max(1.0, world.q().lpNorm<Eigen::Infinity>());
    EXPECT_TRUE(Close(sensitivity.dq_dp().col(j), dq, q_scale, h, 1e-4))
        << "∂q/∂" << GlobalParameterOptionName(parameter);
    EXPECT_TRUE(Close(sensitivity.dv_dp().col(j), dv, v_scale, h, 1e-4))
        << "∂v/∂" << GlobalParameterOptionName(parameter);
    // Sliding moves with μ in both runs (SAP's near-rigid regime makes k inert on the incline,
    // §2.1: the column is then zero on both sides).
    if (parameter == ContactParameter::kFriction) {
      EXPECT_GT(dq.norm(), 1e-6);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Runs, TrajectoryGradient,
    ::testing::Values(TrajectoryCase{{"falling_sphere_lagged", "falling_sphere", 0.105, "sphere"},
                                     ContactApproximation::kLagged},
                      TrajectoryCase{{"incline_slip_sap", "incline", 0.02, "box",
                                      [](ContactSettings* s) { s->friction = 0.2; }},
                                     ContactApproximation::kSap}),
    [](const ::testing::TestParamInfo<TrajectoryCase>& info) { return info.param.c.name; });

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

// Apply rebuilds steps at moved inputs with the World's own stages, which allocate nothing once
// warm; so does Apply (docs/contact-model.md §9), and so does TrajectorySensitivity's step after
// the first, on the sliding sphere and the Panda's grasp.
TEST(StepDerivativesAllocation, ApplyAndTheSensitivityStepAllocateNothingOnceWarm) {
  if (!testing::kAllocationCountingAvailable) GTEST_SKIP() << "no allocation counting";
  for (const Case& c : kCases) {
    if (c.name != "falling_sphere_sliding" && c.name != "grasp") continue;
    CaseWorlds worlds = MakeCaseWorlds(c, ContactApproximation::kLagged);
    World& world = *worlds.world;
    TrajectorySensitivity sensitivity(world.model(), kAllParameters);
    for (int n = 0; n < 3; ++n) ASSERT_TRUE(sensitivity.Step(&world)) << sensitivity.failure();
    testing::ScopedAllocationCount counter;
    ASSERT_TRUE(sensitivity.Step(&world)) << sensitivity.failure();
    EXPECT_EQ(counter.count(), 0) << c.name;
  }
}

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

// A pair's own μ (scene key contact_pairs) differentiates like the global μ when it is the only
// pair in contact: the sliding box's ∂(q₁, v₁)/∂μ_pair equals ∂/∂μ_global to round-off.
TEST(StepJacobianPair, APairsOwnFrictionDifferentiatesLikeTheGlobalOne) {
  SceneSpec scene = testing::LoadBuiltinScene("incline");
  scene.contact_settings.approximation = ContactApproximation::kLagged;
  SceneSpec pair_scene = scene;
  ContactPairSpec pair;
  pair.scene_body_a = scene.FindBody("ramp");
  pair.scene_body_b = scene.FindBody("box");
  pair.friction = 0.2;
  pair_scene.contact_pairs.push_back(pair);
  scene.contact_settings.friction = 0.2;
  World global(scene), own(pair_scene);
  ASSERT_GE(testing::RunFor(&global, 0.05), 0);
  ASSERT_GE(testing::RunFor(&own, 0.05), 0);
  ASSERT_EQ(global.q(), own.q()) << "the pair's μ must act as the global μ does";
  StepDerivatives d_global(global.model(), {ContactParameter::kFriction});
  StepDerivatives d_own(own.model(), {ContactParameter::kFriction}, {0});
  ASSERT_TRUE(d_global.Step(&global));
  ASSERT_TRUE(d_own.Step(&own));
  const StepJacobians a = d_global.Jacobians(), b = d_own.Jacobians();
  EXPECT_GT(a.dv1_dp.norm(), 0);
  EXPECT_LT((a.dv1_dp - b.dv1_dp).norm(), 1e-9 * a.dv1_dp.norm());
  EXPECT_LT((a.dq1_dp - b.dq1_dp).norm(), 1e-9 * a.dq1_dp.norm());
  // A global μ overrides every pair's: the pair's own value then has no derivative.
  ContactOverrides friction;
  friction.friction = 0.3;
  own.SetOverrides(friction);
  StepDerivatives refused(own.model(), {ContactParameter::kFriction}, {0});
  EXPECT_THROW(refused.Step(&own), std::invalid_argument);
}

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

// E_h of every compliant geometry (docs/contact-model.md §9): hydro_box's compliant box resting
// on the ground, its faces' stiffness ∝ E_h. ∂(q₁, v₁)/∂E_h equals central differences of whole
// steps with every compliant geometry's pressure rescaled, for each convex approximation; and a
// sensitivity step with respect to it allocates nothing once warm (the rescaled representations
// are made once per value).
TEST(StepJacobianModulus, EqualsCentralDifferencesOfWholeSteps) {
  for (const ContactApproximation approximation :
       {ContactApproximation::kSap, ContactApproximation::kLagged, ContactApproximation::kSimilar,
        ContactApproximation::kRegularizedLagged}) {
    SceneSpec scene = testing::LoadBuiltinScene("hydro_box");
    scene.contact_settings.approximation = approximation;
    World world(scene), reference(scene);
    world.solver().set_parameters(TightSolver());
    reference.solver().set_parameters(TightSolver());
    ASSERT_GE(testing::RunFor(&world, 0.3), 0) << world.failure();
    const double modulus_Pa =
        ContactParameterValue(world.inputs(), ContactParameter::kHydroelasticModulus, -1);
    EXPECT_EQ(modulus_Pa, 1e5);
    const double h = kParameterStep * modulus_Pa;
    StepOutput out[2];
    for (int s = 0; s < 2; ++s) {
      WorldInputs inputs = world.inputs();
      SetContactParameterValue(ContactParameter::kHydroelasticModulus, -1,
                               modulus_Pa + (s == 0 ? h : -h), &inputs);
      for (size_t g = 0; g < inputs.hydroelastic.size(); ++g) {
        if (inputs.hydroelastic[g].compliant) {
          reference.SetHydroelasticGeometry(static_cast<int>(g), inputs.hydroelastic[g]);
        }
      }
      out[s] =
          TakeStep(&reference, world.q(), world.v(), world.time(), world.step_size_state(), inputs);
    }
    StepDerivatives derivatives(world.model(), {ContactParameter::kHydroelasticModulus});
    ASSERT_TRUE(derivatives.Step(&world)) << derivatives.failure();
    const StepJacobians J = derivatives.Jacobians();
    const Eigen::MatrixXd dv = (out[0].v - out[1].v) / (2 * h);
    const Eigen::MatrixXd dq = (out[0].q - out[1].q) / (2 * h);
    EXPECT_GT(dv.norm(), 0) << "the box's step must depend on E_h";
    EXPECT_TRUE(Close(J.dv1_dp, dv, out[0].v.norm(), h)) << ContactApproximationName(approximation);
    EXPECT_TRUE(Close(J.dq1_dp, dq, out[0].q.norm(), h)) << ContactApproximationName(approximation);
  }
}

TEST(StepDerivativesAllocation, TheModulusSensitivityAllocatesNothingOnceWarm) {
  if (!testing::kAllocationCountingAvailable) GTEST_SKIP() << "no allocation counting";
  World world(testing::LoadBuiltinScene("hydro_box"));
  ASSERT_GE(testing::RunFor(&world, 0.3), 0) << world.failure();
  TrajectorySensitivity sensitivity(world.model(), {ContactParameter::kHydroelasticModulus});
  for (int n = 0; n < 3; ++n) ASSERT_TRUE(sensitivity.Step(&world)) << sensitivity.failure();
  testing::ScopedAllocationCount counter;
  ASSERT_TRUE(sensitivity.Step(&world)) << sensitivity.failure();
  EXPECT_EQ(counter.count(), 0);
}

// E_h is one value for every compliant geometry: a pair has none, and a scene without a compliant
// geometry has none.
TEST(StepDerivativesModulus, IsRefusedForAPairAndForASceneWithoutACompliantGeometry) {
  World hydro(testing::LoadBuiltinScene("hydro_box"));
  EXPECT_THROW(ContactParameterValue(hydro.inputs(), ContactParameter::kHydroelasticModulus, 0),
               std::invalid_argument);
  World points(testing::LoadBuiltinScene("incline"));
  StepDerivatives derivatives(points.model(), {ContactParameter::kHydroelasticModulus});
  EXPECT_THROW(derivatives.Step(&points), std::invalid_argument);
}

}  // namespace
}  // namespace contactlab
