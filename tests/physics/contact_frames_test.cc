// The structure contacts declare for their Jacobians (ConvexProblem::ContactFrame: J =
// s·R_WCᵀ[−[p]× I]·B) agrees with the explicit blocks the builder writes, on the Panda's grasp
// (arm bodies, body pairs summed in the Hessian) and on the clutter's pile (free bodies). A
// disagreement would leave the physics right but the Newton Hessian wrong (slow convergence
// only), which no physics test would see.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "physics_test_util.h"

namespace contactlab {
namespace {

Eigen::Matrix3d Skew(const Eigen::Vector3d& r) {
  Eigen::Matrix3d S;
  S << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  return S;
}

class ContactFramesTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ContactFramesTest, DeclaredFramesGiveTheExplicitJacobians) {
  const SceneSpec scene = testing::LoadBuiltinScene(GetParam());
  World world(scene);
  if (const std::optional<TeleopConfig> config = FindTeleopConfig(scene)) {
    TeleopController teleop(world, *config);
    ASSERT_TRUE(testing::HoldGrasp(&world, &teleop, 300));
  } else {
    ASSERT_EQ(testing::RunFor(&world, 0.3), 0);
  }
  const ConvexProblem& problem = world.last_problem();
  int framed = 0;
  for (int i = 0; i < problem.num_constraints(); ++i) {
    const ConvexProblem::ContactFrame* frame = problem.contact_frame(i);
    if (frame == nullptr) continue;
    ++framed;
    Eigen::Matrix<double, 3, 6> W;
    W << -Skew(frame->p_W), Eigen::Matrix3d::Identity();
    W = frame->R_WC.transpose() * W;
    for (int c = 0; c < problem.entry(i).num_cliques; ++c) {
      const Eigen::MatrixXd expected = frame->sign[c] * W * problem.body_jacobian(frame->body[c]);
      const auto J = problem.jacobian(i, c);
      EXPECT_LT((J - expected).cwiseAbs().maxCoeff(), 1e-12 * (1 + expected.cwiseAbs().maxCoeff()))
          << "constraint " << i << ", clique " << c;
    }
  }
  EXPECT_GT(framed, 20) << "the scene's contacts declare their frames";
}

INSTANTIATE_TEST_SUITE_P(Scenes, ContactFramesTest, ::testing::Values("peg_in_hole", "clutter"));

}  // namespace
}  // namespace contactlab
