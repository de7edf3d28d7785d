// The mouse spring on a World stepped by the test: while it holds a body, every step's external
// force is exactly PerturbationForce of the state; a release clears it; a grab of a body that
// is not dynamic is reported and changes nothing; the view shows the grabbed point, the mouse
// point and the force.
#include "app/runtime/mouse_spring.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support/pile_scene.h"

namespace contactlab {
namespace {

const Perturbation kPull{1, Eigen::Vector3d(0.01, 0.0, 0.02), Eigen::Vector3d(0.3, 0.1, 0.6)};

struct MouseSpringTest : ::testing::Test {
  World world{testing::PileScene(2, 2e-3)};
  std::vector<std::string> errors;
  MouseSpring spring{[this](std::string e) { errors.push_back(std::move(e)); }};
};

TEST_F(MouseSpringTest, WhileItHoldsABodyEveryStepIsPulledByTheSpringOfItsState) {
  EXPECT_EQ(spring.body(), -1);
  spring.Apply(&world);  // holds nothing: no force
  EXPECT_EQ(world.inputs().external_force.scene_body, -1);
  spring.Set(kPull, &world);
  EXPECT_EQ(spring.body(), 1);
  for (int k = 0; k < 20; ++k) {
    spring.Apply(&world);
    const ExternalForce expected = PerturbationForce(world, kPull);
    const ExternalForce& applied = world.inputs().external_force;
    EXPECT_EQ(applied.scene_body, 1);
    EXPECT_EQ(applied.p_BoQ_B, expected.p_BoQ_B);
    EXPECT_EQ(applied.f_Q_W, expected.f_Q_W) << "step " << k;
    ASSERT_TRUE(world.Step());
  }
  PerturbationView view;
  spring.Fill(world, &view);
  EXPECT_EQ(view.body, 1);
  EXPECT_EQ(view.p_WQ, world.BodyPose(1) * kPull.p_BoQ_B);
  EXPECT_EQ(view.target_W, kPull.target_W);
  EXPECT_EQ(view.f_W, world.inputs().external_force.f_Q_W);

  spring.Set({-1}, &world);  // the mouse let go
  EXPECT_EQ(spring.body(), -1);
  EXPECT_EQ(world.inputs().external_force.scene_body, -1);
  EXPECT_EQ(world.inputs().external_force.f_Q_W, Eigen::Vector3d::Zero());
  spring.Fill(world, &view);
  EXPECT_EQ(view.body, -1);
  EXPECT_TRUE(errors.empty());
}

TEST_F(MouseSpringTest, AGrabOfABodyThatIsNotDynamicIsRejectedAndChangesNothing) {
  spring.Set(kPull, &world);
  spring.Set({0, Eigen::Vector3d::Zero(), kPull.target_W}, &world);  // the static ground
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("perturbation rejected"), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].find("not a dynamic body"), std::string::npos) << errors[0];
  EXPECT_EQ(spring.body(), 1);  // still pulling the first
  const Perturbation moved{1, kPull.p_BoQ_B, Eigen::Vector3d(-0.2, 0.0, 0.4)};
  spring.Set(moved, &world);  // the mouse moved: the same body, a new target
  spring.Apply(&world);
  EXPECT_EQ(world.inputs().external_force.f_Q_W, PerturbationForce(world, moved).f_Q_W);
  spring.Release(&world);
  spring.Release(&world);  // nothing held: nothing to do
  EXPECT_EQ(world.inputs().external_force.scene_body, -1);
  EXPECT_EQ(errors.size(), 1u);
}

}  // namespace
}  // namespace contactlab
