// The θ-method's free motion (docs/contact-model.md §1.1): the θ-family's known stability and
// energy behaviour on a pendulum and a tumbling free body, and the PD controller in θ form
// (tests/physics/theta_method_test.cc has the spring–cylinder's).
#include "engine/world/free_motion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "engine/solver/joint_constraints.h"
#include "engine/world/world.h"
#include "test_support/pendulum_scene.h"

namespace contactlab {
namespace {

// The pendulum of test_support, released horizontal.
SceneSpec Pendulum(const TimeIntegration& integrator, double dt) {
  SceneSpec s = testing::PendulumScene(1.0, 0.5);
  s.contact_settings.dt_s = dt;
  s.contact_settings.integrator = integrator;
  return s;
}

// A free body with three different moments of inertia, spinning near its intermediate axis
// (the tennis-racket flip), without gravity: its kinetic energy is an invariant.
SceneSpec TumblingBody(const TimeIntegration& integrator, double dt) {
  SceneSpec s;
  s.name = "tumbling";
  s.gravity_W.setZero();
  s.contact_settings.dt_s = dt;
  s.contact_settings.integrator = integrator;
  SceneBody body;
  body.body.name = "body";
  body.body.joint = JointType::kFloating;
  body.body.inertia.mass_kg = 1.0;
  body.body.inertia.inertia_about_com_B = Eigen::Vector3d(1.0, 2.0, 3.0).asDiagonal();
  body.initial_velocity = Eigen::VectorXd::Zero(6);
  body.initial_velocity.head<3>() = Eigen::Vector3d(0.05, 5.0, 0.05);
  s.bodies.push_back(body);
  return s;
}

struct EnergyRange {
  double min = 1e300, max = -1e300, first = 0, last = 0;
  double RelativeBand() const { return (max - min) / first; }
};

EnergyRange RunScene(const SceneSpec& scene, double duration) {
  World world(scene);
  EnergyRange e;
  e.first = world.KineticEnergy() + world.PotentialEnergy();
  const int steps = static_cast<int>(std::llround(duration / scene.contact_settings.dt_s));
  for (int i = 0; i < steps; ++i) {
    EXPECT_TRUE(world.Step());
    EXPECT_TRUE(world.last_stats().converged);
    e.last = world.KineticEnergy() + world.PotentialEnergy();
    e.min = std::min(e.min, e.last);
    e.max = std::max(e.max, e.last);
  }
  return e;
}

// Energies measured from the pendulum's lowest point (the bob 0.5 m below the axis).
double PendulumBand(const TimeIntegration& integrator, double dt = 0.01) {
  EnergyRange e = RunScene(Pendulum(integrator, dt), 10.0);
  const double lowest = -1.0 * 9.81 * 0.5;
  return (e.max - e.min) / (e.first - lowest);
}

TEST(ThetaFreeMotion, MidpointsPendulumEnergyErrorIsSecondOrderAndBounded) {
  const double midpoint = PendulumBand(TimeIntegration::Midpoint());
  const double symplectic = PendulumBand(TimeIntegration{});
  // Implicit midpoint is symplectic: a bounded O(δt²) band, far below symplectic Euler's O(δt).
  EXPECT_LT(midpoint, 5e-3);
  EXPECT_LT(midpoint, 0.1 * symplectic);
  EXPECT_NEAR(std::log2(midpoint / PendulumBand(TimeIntegration::Midpoint(), 0.005)), 2.0, 0.3);
}

TEST(ThetaFreeMotion, ImplicitEulerDampsThePendulum) {
  const EnergyRange e = RunScene(Pendulum(TimeIntegration::ImplicitEuler(), 0.01), 10.0);
  const double lowest = -1.0 * 9.81 * 0.5;
  EXPECT_LT(e.last - lowest, 0.5 * (e.first - lowest));
}

TEST(ThetaFreeMotion, MidpointKeepsATumblingBodysEnergy) {
  const EnergyRange midpoint = RunScene(TumblingBody(TimeIntegration::Midpoint(), 0.01), 10.0);
  const EnergyRange symplectic = RunScene(TumblingBody(TimeIntegration{}, 0.01), 10.0);
  EXPECT_LT(midpoint.RelativeBand(), 1e-3);
  EXPECT_LT(midpoint.RelativeBand(), symplectic.RelativeBand());
}

// Implicit Euler's PD controller is the default's (forces at the step's end); the midpoint's
// force is the one at (q^θ, v^θ).
TEST(ThetaPdController, ImplicitEulerIsTheDefaultControllerAndMidpointAveragesTheState) {
  const PdControllerConstraint::Parameters p{.kp = 300,
                                             .kd = 20,
                                             .q_desired = 0.3,
                                             .v_desired = 0.1,
                                             .feedforward = 2,
                                             .effort_limit = 50};
  const double dt = 1e-3, q0 = 0.1, v0 = -0.4, w = 1e-3;
  const PdControllerConstraint implicit(
      PdControllerConstraint::MakeThetaData(p, dt, q0, v0, 1, 1, w));
  const PdControllerConstraint fixed(p, dt, q0, w);
  const PdControllerConstraint midpoint(
      PdControllerConstraint::MakeThetaData(p, dt, q0, v0, 0.5, 0.5, w));
  Eigen::VectorXd gamma(1), gamma_fixed(1);
  for (const double v : {-2.0, -0.3, 0.0, 0.7}) {
    const Eigen::VectorXd vc = Eigen::VectorXd::Constant(1, v);
    implicit.Evaluate(vc, gamma, nullptr);
    fixed.Evaluate(vc, gamma_fixed, nullptr);
    EXPECT_NEAR(gamma(0), gamma_fixed(0), 1e-15);
    midpoint.Evaluate(vc, gamma, nullptr);
    const double q_mid = q0 + 0.5 * dt * 0.5 * (v + v0), v_mid = 0.5 * (v + v0);
    const double u = -p.kp * (q_mid - p.q_desired) - p.kd * (v_mid - p.v_desired) + p.feedforward;
    EXPECT_NEAR(gamma(0), dt * std::clamp(u, -p.effort_limit, p.effort_limit), 1e-15);
  }
}

}  // namespace
}  // namespace contactlab
