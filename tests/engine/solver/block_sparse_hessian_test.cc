// BlockSparseHessian (docs/contact-model.md §4 "Sparsity"): H = A + Σ Jᵢᵀ Gᵢ Jᵢ assembled in
// blocks equals the dense sum, with contacts summed per body pair (ConvexProblem::ContactFrame)
// or one by one.
#include "engine/solver/block_sparse_hessian.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "engine/solver/convex_problem.h"

namespace contactlab {
namespace {

using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::Vector3d;

Matrix3d Skew(const Vector3d& r) {
  Matrix3d S;
  S << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  return S;
}

MatrixXd Random(int rows, int cols, std::mt19937& rng) {
  std::normal_distribution<double> normal;
  MatrixXd M(rows, cols);
  for (int i = 0; i < M.size(); ++i) M.data()[i] = normal(rng);
  return M;
}

// Trees of 9 and 7 velocities (arms: their contacts are summed per body pair) and of 6 (free
// bodies), two bodies each with random spatial Jacobians; contacts between random bodies of
// different trees or against the world, about a point `offset_m` from the origin. Returns the
// problem's H assembled by BlockSparseHessian and, in *reference, A + Σ Jᵀ G J summed densely.
struct Assembled {
  MatrixXd H, reference;
  int num_body_pairs = 0;
};

Assembled AssembleRandom(std::mt19937& rng, bool with_frames, double offset_m) {
  const std::vector<int> tree_nv = {9, 6, 7, 6};
  ConvexProblem problem;
  problem.Reset(tree_nv);
  const int nv = problem.num_velocities();
  MatrixXd reference = MatrixXd::Zero(nv, nv);
  for (int t = 0; t < problem.num_trees(); ++t) {
    const MatrixXd M = Random(tree_nv[t], tree_nv[t], rng);
    problem.mutable_tree_A(t) = M * M.transpose() + MatrixXd::Identity(tree_nv[t], tree_nv[t]);
    reference.block(problem.tree_start(t), problem.tree_start(t), tree_nv[t], tree_nv[t]) =
        problem.tree_A(t);
  }
  const Vector3d center = offset_m * Vector3d(0.6, -0.8, 0.3);
  std::vector<MatrixXd> body_B;  // [ω; v_O] per velocity, 6 × n_t
  std::vector<int> body_tree;
  for (int t = 0; t < problem.num_trees(); ++t) {
    for (int k = 0; k < 2; ++k) {
      MatrixXd B = Random(6, tree_nv[t], rng);
      // A body near `center`: v_O = v_center − ω × center.
      B.bottomRows(3) += Skew(center) * B.topRows(3);
      body_B.push_back(B);
      body_tree.push_back(t);
    }
  }
  std::vector<int> problem_body(body_B.size());
  for (size_t b = 0; b < body_B.size(); ++b) {
    problem_body[b] = problem.AddBodyJacobian(body_tree[b]);
    problem.mutable_body_jacobian(problem_body[b]) = body_B[b];
  }
  std::uniform_int_distribution<int> pick_body(0, static_cast<int>(body_B.size()) - 1);
  std::vector<MatrixXd> G_storage;
  G_storage.reserve(200);
  // Runs of contacts on one body pair (a run of 6 on an arm is summed per pair; runs of 2 are
  // not), some against the world, some with G = 0 (open contacts).
  while (problem.num_constraints() < 120) {
    const int a = pick_body(rng);
    int b = pick_body(rng);
    if (body_tree[b] == body_tree[a] || problem.num_constraints() % 5 == 0) b = -1;
    const int run = std::uniform_int_distribution<int>(0, 2)(rng) == 0 ? 2 : 6;
    for (int r = 0; r < run; ++r) {
      const int k = problem.AddConstraintRows(3, body_tree[a], b >= 0 ? body_tree[b] : -1);
      const Vector3d p_W = center + 0.1 * Random(3, 1, rng);
      const Matrix3d R_WC = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
      ConvexProblem::ContactFrame frame;
      frame.R_WC = R_WC;
      frame.p_W = p_W;
      const double signs[2] = {-1.0, 1.0};
      MatrixXd W(3, 6);
      W << -Skew(p_W), Matrix3d::Identity();
      W = R_WC.transpose() * W;
      const int bodies[2] = {a, b};
      MatrixXd J = MatrixXd::Zero(3, nv);
      for (int q = 0; q < (b >= 0 ? 2 : 1); ++q) {
        const MatrixXd Jq = signs[q] * W * body_B[bodies[q]];
        problem.mutable_jacobian(k, q) = Jq;
        J.middleCols(problem.tree_start(body_tree[bodies[q]]), Jq.cols()) = Jq;
        frame.body[q] = problem_body[bodies[q]];
        frame.sign[q] = signs[q];
      }
      if (with_frames) problem.SetContactFrame(k, frame);
      MatrixXd G = MatrixXd::Zero(3, 3);
      if (k % 7 != 3) {
        const MatrixXd L = Random(3, 3, rng);
        G = L * L.transpose();
      }
      G_storage.push_back(G);
      reference += J.transpose() * G * J;
    }
  }
  std::vector<MatrixXd*> G;
  for (MatrixXd& g : G_storage) G.push_back(&g);
  BlockSparseHessian hessian;
  hessian.UpdatePattern(problem);
  hessian.Assemble(problem, G);
  Assembled out;
  hessian.ToDense(&out.H);
  out.reference = reference;
  out.num_body_pairs = hessian.num_body_pairs();
  return out;
}

// `runs` random problems with frames about `offset_m` from the origin: several body pairs are
// summed per pair, and H equals the dense sum to `tolerance` relative to its largest entry.
void ExpectPairSumsMatchTheDenseSum(unsigned seed, int runs, double offset_m, double tolerance) {
  std::mt19937 rng(seed);
  for (int i = 0; i < runs; ++i) {
    const Assembled a = AssembleRandom(rng, /*with_frames=*/true, offset_m);
    EXPECT_GT(a.num_body_pairs, 3) << i;
    EXPECT_LT((a.H - a.reference).cwiseAbs().maxCoeff(),
              tolerance * a.reference.cwiseAbs().maxCoeff())
        << i;
  }
}

TEST(BlockSparseHessianTest, ContactsSummedPerBodyPairEqualTheDenseSum) {
  ExpectPairSumsMatchTheDenseSum(5, 20, /*offset_m=*/1.0, /*tolerance=*/1e-12);
}

TEST(BlockSparseHessianTest, ContactsFarFromTheOriginKeepTheirAccuracy) {
  // Body Jacobians at the world origin carry lever arms of 100 m; the pair sums are taken about a
  // contact of the pair, so only the shift of B to that point loses digits (as J's own
  // v_O + ω × p does).
  ExpectPairSumsMatchTheDenseSum(6, 10, /*offset_m=*/100.0, /*tolerance=*/1e-9);
}

TEST(BlockSparseHessianTest, ContactsWithoutFramesAreSummedOneByOne) {
  std::mt19937 rng(7);
  const Assembled a = AssembleRandom(rng, /*with_frames=*/false, /*offset_m=*/1.0);
  EXPECT_EQ(a.num_body_pairs, 0);
  EXPECT_LT((a.H - a.reference).cwiseAbs().maxCoeff(), 1e-12 * a.reference.cwiseAbs().maxCoeff());
}

}  // namespace
}  // namespace contactlab
