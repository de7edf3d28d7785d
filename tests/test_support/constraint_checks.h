// Shared checks of a Constraint (src/engine/solver/constraint.h) at a point v_c, for every
// constraint test (contact models, Hunt & Crossley normal, PD controller, joint limit):
//  - IsWellFormed: ℓ, γ and G finite, Cost agrees exactly with Evaluate, G symmetric PSD;
//  - MatchesFiniteDifferences: γ = −∂ℓ/∂v_c against central differences of ℓ and
//    G = −∂γ/∂v_c against central differences of γ, at a point whose stencil v_c ± h stays
//    inside one smooth region (callers skip points within a few steps of a kink);
//  - IsKinkConsistent: at a point on a kink (where G jumps but ℓ stays C¹): γ continuous, the
//    central difference of ℓ still gives γ, and G is the Hessian of one of the adjacent regions
//    (evaluated at caller-given points just off the kink) and one of the one-sided difference
//    quotients of γ;
//  - IsConvexAlongSegment: ℓ at ¼, ½, ¾ of a segment at or below the chord, and ℓ above its
//    tangent plane at both ends (ℓ(b) ≥ ℓ(a) − γ(a)ᵀ(b − a)).
// Each returns an AssertionResult that says what failed, with the numbers:
//   EXPECT_TRUE(testing::MatchesFiniteDifferences(c, v, h, {.relative = 1e-5})) << where;
// tests/test_support/constraint_checks_test.cc shows each check failing on a wrong constraint.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "engine/solver/constraint.h"

namespace contactlab::testing {

struct ConstraintSample {
  double ell = 0;
  Eigen::VectorXd gamma;
  Eigen::MatrixXd G;
};

// Evaluate with NaN-prefilled outputs, so an entry Evaluate forgets to write shows up as NaN.
inline ConstraintSample EvaluateConstraint(const Constraint& c, const Eigen::VectorXd& vc) {
  const int n = c.num_rows();
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  ConstraintSample s{0, Eigen::VectorXd::Constant(n, kNaN), Eigen::MatrixXd::Constant(n, n, kNaN)};
  s.ell = c.Evaluate(vc, s.gamma, &s.G);
  return s;
}

// ℓ(v_c) through Cost (no Hessian).
inline double ConstraintCost(const Constraint& c, const Eigen::VectorXd& vc) {
  Eigen::VectorXd gamma(c.num_rows());
  return c.Cost(vc, gamma);
}

// γ(v_c) through Cost (no Hessian).
inline Eigen::VectorXd ConstraintImpulse(const Constraint& c, const Eigen::VectorXd& vc) {
  Eigen::VectorXd gamma(c.num_rows());
  c.Cost(vc, gamma);
  return gamma;
}

inline double MaxAbs(const Eigen::MatrixXd& m) { return m.size() ? m.cwiseAbs().maxCoeff() : 0.0; }

// Central differences with per-coordinate steps h: −∇ℓ (to compare with γ) and −∂γ/∂v_c (to
// compare with G).
struct CentralDifferences {
  CentralDifferences(const Constraint& c, const Eigen::VectorXd& vc, const Eigen::VectorXd& h) {
    const int n = c.num_rows();
    neg_gradient.resize(n);
    neg_jacobian.resize(n, n);
    for (int j = 0; j < n; ++j) {
      Eigen::VectorXd vp = vc, vm = vc;
      vp(j) += h(j);
      vm(j) -= h(j);
      neg_gradient(j) = -(ConstraintCost(c, vp) - ConstraintCost(c, vm)) / (2 * h(j));
      neg_jacobian.col(j) = -(ConstraintImpulse(c, vp) - ConstraintImpulse(c, vm)) / (2 * h(j));
    }
  }
  Eigen::VectorXd neg_gradient;  // ≈ γ
  Eigen::MatrixXd neg_jacobian;  // ≈ G
};

// G's symmetry and positive semi-definiteness, relative to max|G_ij|.
struct HessianTolerance {
  double symmetry_relative = 1e-14;
  double psd_relative = 1e-12;  // smallest eigenvalue ≥ −psd_relative·max|G_ij|
};

// Finite outputs, Cost = Evaluate exactly, G symmetric PSD.
inline ::testing::AssertionResult IsWellFormed(const Constraint& c, const Eigen::VectorXd& vc,
                                               const HessianTolerance& tol = {}) {
  const ConstraintSample s = EvaluateConstraint(c, vc);
  if (!std::isfinite(s.ell) || !s.gamma.allFinite() || !s.G.allFinite()) {
    return ::testing::AssertionFailure()
           << "not finite at v_c = " << vc.transpose() << ": ell = " << s.ell
           << ", gamma = " << s.gamma.transpose() << "\nG =\n"
           << s.G;
  }
  Eigen::VectorXd gamma2(c.num_rows());
  const double ell2 = c.Cost(vc, gamma2);
  if (ell2 != s.ell || gamma2 != s.gamma) {
    return ::testing::AssertionFailure()
           << "Cost differs from Evaluate at v_c = " << vc.transpose() << ": ell " << ell2 << " vs "
           << s.ell << ", gamma " << gamma2.transpose() << " vs " << s.gamma.transpose();
  }
  const double scale = MaxAbs(s.G);
  if (MaxAbs(s.G - s.G.transpose()) > tol.symmetry_relative * scale) {
    return ::testing::AssertionFailure()
           << "G not symmetric at v_c = " << vc.transpose() << "\nG =\n"
           << s.G;
  }
  if (scale > 0) {
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(s.G);
    if (eig.eigenvalues().minCoeff() < -tol.psd_relative * scale) {
      return ::testing::AssertionFailure()
             << "G not positive semi-definite at v_c = " << vc.transpose() << ": eigenvalues "
             << eig.eigenvalues().transpose() << "\nG =\n"
             << s.G;
    }
  }
  return ::testing::AssertionSuccess();
}

// Finite-difference tolerances: |−∇ℓ − γ| ≤ relative·max|γ| + gamma_absolute and
// |−∂γ/∂v_c − G| ≤ relative·max|G| (entrywise maxima).
struct DerivativeTolerance {
  double relative;
  double gamma_absolute = 0;
};

// At a smooth point: the stencil v_c ± h must stay inside one region (callers skip points
// within a few steps of a kink, or use IsKinkConsistent on it). Includes IsWellFormed.
inline ::testing::AssertionResult MatchesFiniteDifferences(const Constraint& c,
                                                           const Eigen::VectorXd& vc,
                                                           const Eigen::VectorXd& h,
                                                           const DerivativeTolerance& tol,
                                                           const HessianTolerance& hessian = {}) {
  if (auto ok = IsWellFormed(c, vc, hessian); !ok) return ok;
  const ConstraintSample s = EvaluateConstraint(c, vc);
  const CentralDifferences fd(c, vc, h);
  if (MaxAbs(fd.neg_gradient - s.gamma) > tol.relative * MaxAbs(s.gamma) + tol.gamma_absolute) {
    return ::testing::AssertionFailure()
           << "gamma != -dl/dv at v_c = " << vc.transpose() << "\n gamma = " << s.gamma.transpose()
           << "\n fd    = " << fd.neg_gradient.transpose();
  }
  if (MaxAbs(fd.neg_jacobian - s.G) > tol.relative * MaxAbs(s.G)) {
    return ::testing::AssertionFailure()
           << "G != -dgamma/dv at v_c = " << vc.transpose() << "\nG =\n"
           << s.G << "\nfd =\n"
           << fd.neg_jacobian;
  }
  return ::testing::AssertionSuccess();
}

struct KinkTolerance {
  // Of the central difference of ℓ against γ (relative to max|γ|, plus the O(ΔG·h) that
  // central differences across a kink of ℓ'' carry) and of G against a one-sided difference
  // quotient of γ (relative to the largest |G_ij| at and around the kink).
  double relative;
  // Of G against the Hessian of the nearest adjacent region, relative to the same scale;
  // unset: `relative`. 0 asks for G to equal one side's Hessian exactly.
  std::optional<double> side_hessian_relative = std::nullopt;
};

// At a point v_c on a kink, with `sides` points just off it in the adjacent regions (distance
// ≪ h). Includes IsWellFormed at v_c and at every side.
inline ::testing::AssertionResult IsKinkConsistent(const Constraint& c, const Eigen::VectorXd& vc,
                                                   const Eigen::VectorXd& h,
                                                   const std::vector<Eigen::VectorXd>& sides,
                                                   const KinkTolerance& tol,
                                                   const HessianTolerance& hessian = {}) {
  if (auto ok = IsWellFormed(c, vc, hessian); !ok) return ok;
  const ConstraintSample s = EvaluateConstraint(c, vc);
  double g_scale = MaxAbs(s.G);
  std::vector<ConstraintSample> side_samples;
  for (const Eigen::VectorXd& side : sides) {
    if (auto ok = IsWellFormed(c, side, hessian); !ok) return ok << " (side of the kink)";
    side_samples.push_back(EvaluateConstraint(c, side));
    g_scale = std::max(g_scale, MaxAbs(side_samples.back().G));
  }
  // γ is continuous across the kink: Lipschitz with constant ‖G‖ ≤ n·max|G_ij|.
  for (size_t k = 0; k < sides.size(); ++k) {
    const double jump = MaxAbs(side_samples[k].gamma - s.gamma);
    if (jump > 2 * c.num_rows() * g_scale * MaxAbs(sides[k] - vc) + 1e-12 * MaxAbs(s.gamma)) {
      return ::testing::AssertionFailure()
             << "gamma jumps across the kink at v_c = " << vc.transpose() << ": "
             << s.gamma.transpose() << " vs " << side_samples[k].gamma.transpose() << " at "
             << sides[k].transpose();
    }
  }
  // ℓ is C¹: central differences of ℓ across a kink of ℓ'' are off by O(ΔG·h) only.
  const CentralDifferences fd(c, vc, h);
  if (MaxAbs(fd.neg_gradient - s.gamma) > tol.relative * MaxAbs(s.gamma) + g_scale * h.maxCoeff()) {
    return ::testing::AssertionFailure()
           << "gamma != -dl/dv on the kink at v_c = " << vc.transpose()
           << "\n gamma = " << s.gamma.transpose() << "\n fd    = " << fd.neg_gradient.transpose();
  }
  // G is one adjacent region's Hessian.
  if (!sides.empty()) {
    double best = std::numeric_limits<double>::infinity();
    for (const ConstraintSample& t : side_samples) best = std::min(best, MaxAbs(t.G - s.G));
    if (best > tol.side_hessian_relative.value_or(tol.relative) * g_scale) {
      ::testing::AssertionResult r = ::testing::AssertionFailure();
      r << "G on the kink at v_c = " << vc.transpose() << " is no side's Hessian\nG =\n" << s.G;
      for (const ConstraintSample& t : side_samples) r << "\nside G =\n" << t.G;
      return r;
    }
  }
  // Each column of G is one of the one-sided difference quotients of γ.
  for (int j = 0; j < c.num_rows(); ++j) {
    Eigen::VectorXd vp = vc, vm = vc;
    vp(j) += h(j);
    vm(j) -= h(j);
    const Eigen::VectorXd fwd = -(ConstraintImpulse(c, vp) - s.gamma) / h(j);
    const Eigen::VectorXd bwd = -(s.gamma - ConstraintImpulse(c, vm)) / h(j);
    const double err = std::min(MaxAbs(s.G.col(j) - fwd), MaxAbs(s.G.col(j) - bwd));
    if (err > tol.relative * g_scale) {
      return ::testing::AssertionFailure()
             << "column " << j << " of G on the kink at v_c = " << vc.transpose()
             << " is neither one-sided difference\nG =\n"
             << s.G << "\nfwd = " << fwd.transpose() << "\nbwd = " << bwd.transpose();
    }
  }
  return ::testing::AssertionSuccess();
}

// Convexity along the segment [a, b]: ℓ at ¼, ½ and ¾ at or below the chord, and ℓ at each end
// above the tangent plane at the other, to `relative` of the magnitudes involved.
inline ::testing::AssertionResult IsConvexAlongSegment(const Constraint& c,
                                                       const Eigen::VectorXd& a,
                                                       const Eigen::VectorXd& b,
                                                       double relative = 1e-12) {
  const double la = ConstraintCost(c, a), lb = ConstraintCost(c, b);
  for (double t : {0.25, 0.5, 0.75}) {
    const double lt = ConstraintCost(c, (1 - t) * a + t * b);
    const double chord = (1 - t) * la + t * lb;
    if (lt > chord + relative * ((1 - t) * std::abs(la) + t * std::abs(lb)) + 1e-300) {
      return ::testing::AssertionFailure()
             << "l above its chord at t = " << t << " of [" << a.transpose() << "] -> ["
             << b.transpose() << "]: " << lt << " > " << chord << " (ends " << la << ", " << lb
             << ")";
    }
  }
  const Eigen::VectorXd ga = ConstraintImpulse(c, a), gb = ConstraintImpulse(c, b);
  const Eigen::VectorXd d = b - a;
  // ℓ(b) ≥ ℓ(a) + ∇ℓ(a)ᵀ(b − a) = ℓ(a) − γ(a)ᵀ d, and the same from b.
  const double from_a = la - ga.dot(d), from_b = lb + gb.dot(d);
  const double slack_a = relative * (std::abs(la) + std::abs(lb) + ga.cwiseAbs().dot(d.cwiseAbs()));
  const double slack_b = relative * (std::abs(la) + std::abs(lb) + gb.cwiseAbs().dot(d.cwiseAbs()));
  if (lb < from_a - slack_a - 1e-300 || la < from_b - slack_b - 1e-300) {
    return ::testing::AssertionFailure()
           << "l below a tangent plane on [" << a.transpose() << "] -> [" << b.transpose()
           << "]: l(a) = " << la << ", l(b) = " << lb << ", tangent at a gives " << from_a
           << " at b, tangent at b gives " << from_b << " at a";
  }
  return ::testing::AssertionSuccess();
}

// Sampling for the seeded random points of constraint tests.
inline double Uniform(std::mt19937& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
inline double LogUniform(std::mt19937& rng, double lo_exp, double hi_exp) {
  return std::pow(10.0, Uniform(rng, lo_exp, hi_exp));
}
inline double Normal(std::mt19937& rng, double sigma) {
  return std::normal_distribution<double>(0, sigma)(rng);
}
// "what #i", to say which sample failed.
inline std::string Where(const char* what, int i) {
  return std::string(what) + " #" + std::to_string(i);
}

}  // namespace contactlab::testing
