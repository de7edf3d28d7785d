// StepDerivatives on cases with closed-form Jacobians, and the steps it refuses
// (docs/contact-model.md §9). The contact cases are tests/physics/step_derivatives_test.cc.
#include "engine/world/step_derivatives.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_support/pendulum_scene.h"

namespace contactlab {
namespace {

// A pendulum of mass m at distance l, at q₀ = 0.3 rad, ω₀ = 0.5 rad/s: symplectic Euler's step is
// v₁ = v₀ + δt m g l cos q₀ / M, q₁ = q₀ + δt v₁ (M = m l² + I_c, constant), so
//   ∂v₁/∂q₀ = −δt m g l sin q₀ / M,  ∂v₁/∂v₀ = 1,  ∂q₁/∂q₀ = 1 + δt ∂v₁/∂q₀,  ∂q₁/∂v₀ = δt.
TEST(StepDerivatives, APendulumsStepHasItsClosedFormJacobian) {
  constexpr double m = 2.0, l = 0.5, I_c = 1e-6, g = 9.81, q0 = 0.3, w0 = 0.5;
  World world(testing::PendulumScene(m, l));
  world.SetState(Eigen::VectorXd::Constant(1, q0), Eigen::VectorXd::Constant(1, w0));
  StepDerivatives derivatives(world.model(), {});
  ASSERT_TRUE(derivatives.Step(&world)) << derivatives.failure();
  const StepJacobians J = derivatives.Jacobians();
  const double dt = world.dt(), M = m * l * l + I_c;
  const double dv_dq = -dt * m * g * l * std::sin(q0) / M;
  EXPECT_NEAR(J.dv1_dq0(0, 0), dv_dq, 1e-7 * std::abs(dv_dq));
  EXPECT_NEAR(J.dv1_dv0(0, 0), 1.0, 1e-9);
  EXPECT_NEAR(J.dq1_dq0(0, 0), 1.0 + dt * dv_dq, 1e-9);
  EXPECT_NEAR(J.dq1_dv0(0, 0), dt, 1e-12);
  EXPECT_EQ(J.dv1_dp.cols(), 0);
  EXPECT_EQ(J.dv1_du.cols(), 0);  // no PD joint
}

std::string RefusalOf(World* world, std::vector<ContactParameter> parameters) {
  StepDerivatives derivatives(world->model(), std::move(parameters));
  try {
    derivatives.Step(world);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(StepDerivatives, RefusesStepsItCannotDifferentiateWithOneLine) {
  SceneSpec scene = testing::PendulumScene(1.0, 0.5);
  {
    World world(scene);
    EXPECT_NE(RefusalOf(&world, {ContactParameter::kFriction}).find("set --friction"),
              std::string::npos);
    EXPECT_NE(RefusalOf(&world, {ContactParameter::kRestitution}).find("no derivative"),
              std::string::npos);
    EXPECT_EQ(world.time(), 0) << "a refused step is not taken";
  }
  scene.contact_settings.integrator = TimeIntegration::ErrorControlled(1e-3);
  {
    World world(scene);
    EXPECT_NE(RefusalOf(&world, {}).find("fixed steps"), std::string::npos);
  }
  scene.contact_settings.integrator = TimeIntegration{};
  scene.contact_settings.approximation = ContactApproximation::kDrumwrightShell;
  {
    World world(scene);
    EXPECT_NE(RefusalOf(&world, {}).find("convex models"), std::string::npos);
  }
}

TEST(StepDerivatives, GlobalParametersAreTheSettingsOverrides) {
  ContactSettings s;
  s.friction = 0.3;
  EXPECT_EQ(GlobalParameterValue(s, ContactParameter::kFriction), 0.3);
  EXPECT_EQ(GlobalParameterValue(s, ContactParameter::kStictionTolerance),
            s.stiction_tolerance_m_per_s);
  SetGlobalParameterValue(ContactParameter::kStiffness, 2e5, &s);
  EXPECT_EQ(s.stiffness_N_per_m, 2e5);
  EXPECT_THROW(GlobalParameterValue(s, ContactParameter::kHuntCrossley), std::invalid_argument);
  EXPECT_STREQ(GlobalParameterOptionName(ContactParameter::kHuntCrossley), "hunt-crossley");
}

}  // namespace
}  // namespace contactlab
