// Drumwright & Shell's impulse model (§3 of their 2009 paper): phase 1 and phase 2 against the
// answers of a particle, random problems and a box's four coplanar corners.
#include "engine/solver/drumwright_shell.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace contactlab {
namespace {

// One particle of mass m on a plane (n̂ = +z), sliding at u along t̂1 and approaching at v.
DrumwrightShellProblem Particle(double m, double u, double v, double mu, double epsilon) {
  DrumwrightShellProblem p;
  p.A = Eigen::Matrix3d::Identity() / m;
  p.b = Eigen::Vector3d(u, 0, -v);
  p.friction = {mu};
  p.restitution = {epsilon};
  return p;
}

TEST(DrumwrightShell, AParticleStopsOrBouncesAndItsFrictionSticksOrSlides) {
  const double m = 2.0, v = 1.5;
  for (const double epsilon : {0.0, 0.5, 1.0}) {
    // Sliding: the cone limits the tangential impulse to μ x_N.
    DrumwrightShellStats stats;
    const double u_fast = 3.0, mu = 0.2;
    Eigen::VectorXd x = SolveDrumwrightShell(Particle(m, u_fast, v, mu, epsilon), {}, &stats);
    EXPECT_TRUE(stats.converged);
    EXPECT_NEAR(x[2], (1 + epsilon) * m * v, 1e-12);  // post-impact normal velocity ε v
    EXPECT_NEAR(x[0], -mu * x[2], 1e-6 * mu * x[2]);
    EXPECT_NEAR(x[1], 0, 1e-9);
    // Sticking: the tangential velocity is removed, inside the cone.
    const double u_slow = 0.1;
    x = SolveDrumwrightShell(Particle(m, u_slow, v, 0.5, epsilon), {}, &stats);
    EXPECT_NEAR(x[2], (1 + epsilon) * m * v, 1e-12);
    EXPECT_NEAR(x[0], -m * u_slow, 1e-7);
    EXPECT_NEAR(stats.tangential_residual, 0, 1e-7);
  }
}

TEST(DrumwrightShell, FrictionlessContactsGetNoTangentialImpulse) {
  DrumwrightShellStats stats;
  const Eigen::VectorXd x = SolveDrumwrightShell(Particle(1.0, 2.0, 1.0, 0.0, 0.0), {}, &stats);
  EXPECT_NEAR(x[2], 1.0, 1e-12);
  EXPECT_EQ(x[0], 0.0);
  EXPECT_EQ(x[1], 0.0);
}

// Random problems: A = J Jᵀ of a random J (n contacts on m velocities), b with b_N ≤ 0; under
// both normal bounds.
TEST(DrumwrightShell, RandomSolutionsKeepTheConesAndTheNormalBoundAndNeverWorsenPhaseOne) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (int trial = 0; trial < 80; ++trial) {
    DrumwrightShellParameters parameters;
    parameters.normal_bound = trial % 2 == 0 ? NormalBound::kTotal : NormalBound::kPaperNorm;
    const int n = 1 + trial % 5, dofs = 3 + trial % 9;
    Eigen::MatrixXd J(3 * n, dofs);
    for (int r = 0; r < J.rows(); ++r)
      for (int c = 0; c < dofs; ++c) J(r, c) = uniform(rng);
    DrumwrightShellProblem p;
    p.A = J * J.transpose();
    p.b.resize(3 * n);
    for (int i = 0; i < n; ++i) {
      p.b.segment<3>(3 * i) << uniform(rng), uniform(rng), -std::abs(uniform(rng));
      p.friction.push_back(0.1 + 0.9 * std::abs(uniform(rng)));
      p.restitution.push_back(trial % 3 == 0 ? 0.5 : 0.0);
    }
    DrumwrightShellStats stats;
    const Eigen::VectorXd x = SolveDrumwrightShell(p, parameters, &stats);
    SCOPED_TRACE(trial);
    ASSERT_TRUE(x.allFinite());
    EXPECT_TRUE(stats.converged);
    Eigen::VectorXd w_s(n);
    double normal_norm2 = 0;
    for (int i = 0; i < n; ++i) {
      const double xn = x[3 * i + 2], mu = p.friction[i];
      const double slack = parameters.slack * 100;  // of ‖w_s‖², below
      normal_norm2 += xn * xn;
      EXPECT_LE(x.segment<2>(3 * i).squaredNorm() - mu * mu * xn * xn,
                slack * (1 + x.squaredNorm()));
    }
    // Phase 1's normal impulses w_s bound phase 2's (recomputed: the pseudo-inverse of A_N).
    Eigen::MatrixXd A_N(n, n);
    Eigen::VectorXd rhs(n);
    for (int i = 0; i < n; ++i) {
      rhs[i] = -(1 + p.restitution[i]) * p.b[3 * i + 2];
      for (int j = 0; j < n; ++j) A_N(i, j) = p.A(3 * i + 2, 3 * j + 2);
    }
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(A_N, Eigen::ComputeThinU | Eigen::ComputeThinV);
    svd.setThreshold(parameters.rank_tolerance);
    const Eigen::VectorXd w = svd.solve(rhs);
    double bound2 = 0, normal_sum = 0, bound_sum = 0;
    for (int i = 0; i < n; ++i) {
      bound2 += w[i] * w[i];
      normal_sum += x[3 * i + 2];
      bound_sum += w[i];
    }
    const double linear_slack = 1e-5 * std::sqrt(bound2);  // √(100 slack) ‖w_s‖
    if (parameters.normal_bound == NormalBound::kPaperNorm) {
      EXPECT_LE(normal_norm2, bound2 * (1 + 1e-9) + 1e-24);
    } else {
      EXPECT_LE(normal_sum, bound_sum + linear_slack);
      for (int i = 0; i < n; ++i) EXPECT_GE(x[3 * i + 2], std::min(0.0, w[i]) - linear_slack);
    }
    EXPECT_LE(stats.tangential_residual, stats.tangential_phase1 * (1 + 1e-12) + 1e-15);
    // Where A_N has full rank the normal velocities are Newton's law's exactly.
    if (stats.phase1_rank == n) {
      const Eigen::VectorXd v = p.A * x + p.b;
      for (int i = 0; i < n; ++i) {
        EXPECT_NEAR(v[3 * i + 2], -p.restitution[i] * p.b[3 * i + 2], 1e-8);
      }
    }
  }
}

// A box (1 kg, 0.2 × 0.2 × 0.1 m) landing flat at 1 m/s on its four bottom corners while
// sliding at 0.3 m/s: A_N is 4 × 4 of rank 3; the answer is finite, stops the box (ε = 0) and
// keeps it from spinning. Friction at the corners, below the centre of mass, would tip the box
// and needs the front corners' normal impulses raised and the back ones' lowered, which raises
// ‖x_N‖ above ‖w_s‖ (the minimum-norm phase 1 answer): the paper's normal-norm bound g ≤ 0 then
// admits no friction at all, and the box keeps sliding at 0.3 m/s (to within the slack); the
// total bound (docs/contact-model.md §8) admits it, and μ v_n = 0.5 m/s ≥ 0.3 m/s stops the box.
Eigen::Matrix<double, 6, 1> LandSlidingBox(NormalBound bound, DrumwrightShellStats* stats) {
  const double m = 1.0, a = 0.1, h = 0.05;
  const Eigen::Vector3d inertia(m * (0.04 + 0.01) / 12, m * (0.04 + 0.01) / 12, m * 0.08 / 12);
  Eigen::Matrix<double, 6, 6> M_inv = Eigen::Matrix<double, 6, 6>::Zero();
  M_inv.topLeftCorner<3, 3>() = Eigen::Matrix3d::Identity() / m;
  M_inv.bottomRightCorner<3, 3>() = inertia.cwiseInverse().asDiagonal();
  Eigen::MatrixXd J(12, 6);
  int c = 0;
  for (const double sx : {-1.0, 1.0}) {
    for (const double sy : {-1.0, 1.0}) {
      const Eigen::Vector3d p(sx * a, sy * a, -h);
      Eigen::Matrix3d p_cross;
      p_cross << 0, -p.z(), p.y(), p.z(), 0, -p.x(), -p.y(), p.x(), 0;
      // v_P = v − p × ω, rows t̂1 = x, t̂2 = y, n̂ = z.
      J.block<3, 3>(3 * c, 0) = Eigen::Matrix3d::Identity();
      J.block<3, 3>(3 * c, 3) = -p_cross;
      ++c;
    }
  }
  Eigen::Matrix<double, 6, 1> v0;
  v0 << 0.3, 0, -1, 0, 0, 0;  // sliding at 0.3 m/s while landing
  DrumwrightShellProblem p;
  p.A = J * M_inv * J.transpose();
  p.b = J * v0;
  p.friction.assign(4, 0.5);
  p.restitution.assign(4, 0.0);
  DrumwrightShellParameters parameters;
  parameters.normal_bound = bound;
  const Eigen::VectorXd x = SolveDrumwrightShell(p, parameters, stats);
  return v0 + M_inv * J.transpose() * x;
}

TEST(DrumwrightShell, FourCoplanarCornersGiveAFiniteAnswer) {
  for (const NormalBound bound : {NormalBound::kTotal, NormalBound::kPaperNorm}) {
    DrumwrightShellStats stats;
    const Eigen::Matrix<double, 6, 1> v = LandSlidingBox(bound, &stats);
    ASSERT_TRUE(v.allFinite());
    EXPECT_EQ(stats.phase1_rank, 3);
    EXPECT_TRUE(stats.converged);
    EXPECT_NEAR(v[2], 0, 1e-9);           // stopped
    EXPECT_LT(v.tail<3>().norm(), 1e-6);  // not spinning
    if (bound == NormalBound::kPaperNorm) {
      EXPECT_NEAR(v[0], 0.3, 1e-4);  // though μ v_n = 0.5 m/s ≥ 0.3 m/s would stop it
    } else {
      EXPECT_NEAR(v[0], 0, 1e-9);  // stopped exactly: the least-squares polish
      EXPECT_TRUE(stats.least_squares);
    }
  }
}

// A particle 1 mm above the plane approaching at 2 m/s with δt = 1 ms: its gap velocity
// −φ0/δt = −1 m/s lets it close the gap exactly and no more.
TEST(DrumwrightShell, AGapVelocityClosesAGapExactly) {
  DrumwrightShellProblem p = Particle(1.0, 0, 2.0, 0.5, 0.0);
  p.gap_velocity = {-1.0};
  DrumwrightShellStats stats;
  Eigen::VectorXd x = SolveDrumwrightShell(p, {}, &stats);
  EXPECT_NEAR((p.A * x + p.b)[2], -1.0, 1e-12);
  // Above it Newton's law rules: ε = 1 bounces at 2 m/s.
  p.restitution = {1.0};
  x = SolveDrumwrightShell(p, {}, &stats);
  EXPECT_NEAR((p.A * x + p.b)[2], 2.0, 1e-12);
  // A penetrating particle at rest is pushed out at its gap velocity, whatever its ε.
  p = Particle(1.0, 0, 0.0, 0.5, 0.5);
  p.gap_velocity = {0.25};
  x = SolveDrumwrightShell(p, {}, &stats);
  EXPECT_NEAR((p.A * x + p.b)[2], 0.25, 1e-12);
}

TEST(DrumwrightShell, RefusesWrongSizes) {
  DrumwrightShellStats stats;
  DrumwrightShellProblem p = Particle(1, 0, 1, 0.5, 0);
  p.restitution.clear();
  EXPECT_THROW(SolveDrumwrightShell(p, {}, &stats), std::invalid_argument);
}

}  // namespace
}  // namespace contactlab
