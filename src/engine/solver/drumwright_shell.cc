#include "engine/solver/drumwright_shell.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "engine/solver/serial_openmp.h"

namespace contactlab {
namespace {

// Phase 2 in the nullspace coordinates y (x = w + R y), Drumwright & Shell §3.2: the objective
// f_0 = ‖M y + d0‖² (M = D R, d0 = D w + b_T), one cone per frictional contact and the normal
// bound (NormalBound), each relaxed by its slack. The constraints are functions of x whose
// derivatives touch a contact's own rows (and, for the bounds, the normal rows): the barrier's
// Hessian is Σ_i R_iᵀ B_i R_i over the contacts' 3 × 3 blocks plus the bounds' normal-row terms,
// O(n k²) for k = R's columns.
class Phase2 {
 public:
  Phase2(const Eigen::MatrixXd& R, const Eigen::VectorXd& w, const Eigen::MatrixXd& M,
         const Eigen::VectorXd& d0, const std::vector<double>& friction, int n, NormalBound bound,
         double slack)
      : R_(R),
        w_(w),
        M_(M),
        MtM_(M.transpose() * M),
        d0_(d0),
        friction_(friction),
        n_(n),
        bound_(bound),
        slack_(slack),
        linear_slack_(std::sqrt(slack)) {}

  int num_constraints() const {
    int m = bound_ == NormalBound::kTotal ? 1 + n_ : 1;
    for (const double mu : friction_) m += mu > 0 ? 1 : 0;
    return m;
  }
  double Objective(const Eigen::VectorXd& y) const { return (M_ * y + d0_).squaredNorm(); }

  bool Feasible(const Eigen::VectorXd& y) const {
    return ForEachMargin(w_ + R_ * y, [](double margin) { return margin > 0; });
  }

  // The barrier function t f_0 − Σ log(margin) along the line y + α Δy, α ↦ its value (+∞
  // outside the relaxed set): x and M y + d0 are affine in α, so each value costs O(n), not a
  // product with R.
  class Line {
   public:
    Line(const Phase2& phase2, const Eigen::VectorXd& y, const Eigen::VectorXd& step, double t)
        : phase2_(phase2),
          t_(t),
          x0_(phase2.w_ + phase2.R_ * y),
          dx_(phase2.R_ * step),
          r0_(phase2.M_ * y + phase2.d0_),
          dr_(phase2.M_ * step) {}
    double operator()(double alpha) {
      x_ = x0_ + alpha * dx_;
      double value = t_ * (r0_ + alpha * dr_).squaredNorm();
      const bool inside = phase2_.ForEachMargin(x_, [&](double margin) {
        if (!(margin > 0)) return false;
        value -= std::log(margin);
        return true;
      });
      return inside ? value : std::numeric_limits<double>::infinity();
    }

   private:
    const Phase2& phase2_;
    const double t_;
    const Eigen::VectorXd x0_, dx_, r0_, dr_;
    Eigen::VectorXd x_;
  };

  // The barrier function's gradient and Hessian at y (a feasible point): each −log(s − f) adds
  // ∇f / m to the gradient and ∇f ∇fᵀ / m² + ∇²f / m to the Hessian, m = s − f.
  void Derivatives(const Eigen::VectorXd& y, double t, Eigen::VectorXd* gradient,
                   Eigen::MatrixXd* hessian) {
    const Eigen::VectorXd x = w_ + R_ * y;
    const int k = static_cast<int>(R_.cols());
    g_x_.setZero(3 * n_);
    *hessian = 2 * t * MtM_;
    Eigen::Matrix<double, 3, Eigen::Dynamic> R_i(3, k);
    for (int i = 0; i < n_; ++i) {
      if (!(friction_[i] > 0)) continue;
      // f_i = x_T1² + x_T2² − μ² x_N² on the rows i (normal), n + 2i, n + 2i + 1 (tangents).
      const double mu2 = friction_[i] * friction_[i];
      const int rows[3] = {i, n_ + 2 * i, n_ + 2 * i + 1};
      const Eigen::Vector3d df(-2 * mu2 * x[i], 2 * x[rows[1]], 2 * x[rows[2]]);
      const double margin = slack_ - Cone(x, i);
      Eigen::Matrix3d B = df * df.transpose() / (margin * margin);
      B.diagonal() += Eigen::Vector3d(-2 * mu2, 2, 2) / margin;
      for (int a = 0; a < 3; ++a) {
        g_x_[rows[a]] += df[a] / margin;
        R_i.row(a) = R_.row(rows[a]);
      }
      hessian->noalias() += R_i.transpose() * (B * R_i);
    }
    const auto S = R_.topRows(n_);
    if (bound_ == NormalBound::kPaperNorm) {
      // g = ‖x_N‖² − ‖w_s‖²: ∇ = 2 x_N, ∇² = 2 I on the normal rows.
      const double margin = slack_ - NormBound(x);
      g_x_.head(n_) += 2 * x.head(n_) / margin;
      const Eigen::VectorXd s = 2 * S.transpose() * x.head(n_);
      hessian->noalias() += s * s.transpose() / (margin * margin);
      hessian->noalias() += (2 / margin) * S.transpose() * S;
    } else {
      // Σ (x_N − w_s) ≤ 0: ∇ = 1 on the normal rows; min(0, w_s,i) − x_N,i ≤ 0: ∇ = −e_i.
      const double margin = linear_slack_ - (x.head(n_) - w_.head(n_)).sum();
      g_x_.head(n_).array() += 1 / margin;
      const Eigen::VectorXd s = S.colwise().sum().transpose();
      hessian->noalias() += s * s.transpose() / (margin * margin);
      for (int i = 0; i < n_; ++i) {
        const double m_i = linear_slack_ + x[i] - std::min(0.0, w_[i]);
        g_x_[i] -= 1 / m_i;
        hessian->noalias() += S.row(i).transpose() * S.row(i) / (m_i * m_i);
      }
    }
    *gradient = 2 * t * (MtM_ * y + M_.transpose() * d0_) + R_.transpose() * g_x_;
  }

 private:
  double Cone(const Eigen::VectorXd& x, int i) const {
    const double mu = friction_[i];
    return x[n_ + 2 * i] * x[n_ + 2 * i] + x[n_ + 2 * i + 1] * x[n_ + 2 * i + 1] -
           mu * mu * x[i] * x[i];
  }
  double NormBound(const Eigen::VectorXd& x) const {
    return x.head(n_).squaredNorm() - w_.head(n_).squaredNorm();
  }
  // Calls visit(margin) for every constraint, cones then the bound's, at x; stops and returns
  // false when visit does.
  template <typename Visit>
  bool ForEachMargin(const Eigen::VectorXd& x, Visit visit) const {
    for (int i = 0; i < n_; ++i) {
      if (friction_[i] > 0 && !visit(slack_ - Cone(x, i))) return false;
    }
    if (bound_ == NormalBound::kPaperNorm) return visit(slack_ - NormBound(x));
    if (!visit(linear_slack_ - (x.head(n_) - w_.head(n_)).sum())) return false;
    for (int i = 0; i < n_; ++i) {
      if (!visit(linear_slack_ + x[i] - std::min(0.0, w_[i]))) return false;
    }
    return true;
  }

  const Eigen::MatrixXd& R_;
  const Eigen::VectorXd& w_;
  const Eigen::MatrixXd& M_;
  const Eigen::MatrixXd MtM_;
  const Eigen::VectorXd& d0_;
  const std::vector<double>& friction_;
  const int n_;
  const NormalBound bound_;
  const double slack_, linear_slack_;
  Eigen::VectorXd g_x_;
};

// The minimizer of φ(y + α Δy) over α ∈ [0, α_max] by golden-section search, α_max the largest
// of 1, ½, ¼, … at which the point is still feasible: an exact line search to 1e-6 of α_max
// (the paper uses Brent's method). *decreased: the minimizer's value is below φ(y).
double LineSearch(const Phase2& phase2, const Eigen::VectorXd& y, const Eigen::VectorXd& step,
                  double t, bool* decreased) {
  Phase2::Line barrier(phase2, y, step, t);
  const double start = barrier(0);
  double hi = 1;
  for (int i = 0; i < 60 && !std::isfinite(barrier(hi)); ++i) hi *= 0.5;
  double lo = 0;
  const double golden = 0.5 * (std::sqrt(5.0) - 1);
  double a = hi - golden * (hi - lo), b = lo + golden * (hi - lo);
  double fa = barrier(a), fb = barrier(b);
  while (hi - lo > 1e-6 * std::max(hi, 1e-12)) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - golden * (hi - lo);
      fa = barrier(a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + golden * (hi - lo);
      fb = barrier(b);
    }
  }
  *decreased = std::min(fa, fb) < start;
  return fa < fb ? a : b;
}

// Newton's method on the barrier function at parameter t, from y, until the Newton decrement
// λ² is below 1e-10 (Boyd & Vandenberghe §11.3's inner tolerance; the outer gap bound m/t is
// what the answer's accuracy rests on) or a step no longer decreases the barrier at working
// precision; the Hessian is regularized where the relaxed cones' curvature makes it
// indefinite. Returns the Newton steps taken; *capped: it stopped at max_iterations instead.
int MinimizeBarrier(Phase2& phase2, double t, int max_iterations, Eigen::VectorXd* y,
                    bool* capped) {
  *capped = false;
  Eigen::VectorXd gradient, step;
  Eigen::MatrixXd hessian;
  for (int it = 1; it <= max_iterations; ++it) {
    phase2.Derivatives(*y, t, &gradient, &hessian);
    Eigen::LLT<Eigen::MatrixXd> llt(hessian);
    double shift = 1e-12 * std::max(hessian.diagonal().cwiseAbs().maxCoeff(), 1e-300);
    while (llt.info() != Eigen::Success && std::isfinite(shift)) {
      llt.compute(hessian + shift * Eigen::MatrixXd::Identity(y->size(), y->size()));
      shift *= 10;
    }
    step = -llt.solve(gradient);
    const double decrement = -gradient.dot(step);  // Newton decrement λ²
    if (!(decrement > 1e-10)) return it;
    bool decreased = false;
    const double alpha = LineSearch(phase2, *y, step, t, &decreased);
    if (!decreased) return it;
    *y += alpha * step;
  }
  *capped = true;
  return max_iterations;
}

// Contact i's post-impulse normal velocity v_N⁺ (DrumwrightShellProblem::gap_velocity).
double TargetNormalVelocity(const DrumwrightShellProblem& p, int i) {
  const double gap = p.gap_velocity.empty() ? 0.0 : p.gap_velocity[i];
  if (!(p.restitution[i] > 0)) return gap;
  return std::max(-p.restitution[i] * p.b[3 * i + 2], gap);
}

void CheckProblem(const DrumwrightShellProblem& p) {
  const int n = static_cast<int>(p.friction.size());
  if (p.A.rows() != 3 * n || p.A.cols() != 3 * n || p.b.size() != 3 * n ||
      static_cast<int>(p.restitution.size()) != n ||
      !(p.gap_velocity.empty() || static_cast<int>(p.gap_velocity.size()) == n)) {
    throw std::invalid_argument(
        "SolveDrumwrightShell: A, b, friction, restitution and gap velocity disagree");
  }
}

// The unconstrained minimizer of ‖M y + d0‖² nearest y, if it satisfies the constraints and
// improves on y: a sticking solution then sticks exactly rather than to within the barrier's gap.
bool PolishByLeastSquares(const Phase2& phase2, const Eigen::MatrixXd& M, const Eigen::VectorXd& d0,
                          Eigen::VectorXd* y) {
  const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(M);
  const Eigen::VectorXd candidate = *y - cod.solve(M * *y + d0);
  if (!phase2.Feasible(candidate) || !(phase2.Objective(candidate) < phase2.Objective(*y))) {
    return false;
  }
  *y = candidate;
  return true;
}

}  // namespace

// Drumwright & Shell §3, one algorithm: permute to [N; T], phase 1 by SVD, the nullspace of C,
// phase 2 by the barrier method and its least-squares polish, permute back.
Eigen::VectorXd SolveDrumwrightShell(const DrumwrightShellProblem& problem,
                                     const DrumwrightShellParameters& parameters,
                                     DrumwrightShellStats* stats) {
  CheckProblem(problem);
  RunOpenMpRegionsSerially();
  const int n = static_cast<int>(problem.friction.size());
  *stats = DrumwrightShellStats{};
  stats->num_contacts = n;
  if (n == 0) return Eigen::VectorXd();
  // Row j of the [N; T] order is row order[j] of the contact-frame order.
  std::vector<int> order(3 * n);
  for (int i = 0; i < n; ++i) {
    order[i] = 3 * i + 2;
    order[n + 2 * i] = 3 * i;
    order[n + 2 * i + 1] = 3 * i + 1;
  }
  Eigen::MatrixXd A(3 * n, 3 * n);
  Eigen::VectorXd b(3 * n);
  for (int r = 0; r < 3 * n; ++r) {
    b[r] = problem.b[order[r]];
    for (int c = 0; c < 3 * n; ++c) A(r, c) = problem.A(order[r], order[c]);
  }
  // Phase 1 (§3.1): the minimum-norm normal impulses of the Newton restitution law.
  Eigen::VectorXd rhs(n);
  for (int i = 0; i < n; ++i) rhs[i] = TargetNormalVelocity(problem, i) - b[i];
  Eigen::JacobiSVD<Eigen::MatrixXd> svd_n(A.topLeftCorner(n, n),
                                          Eigen::ComputeThinU | Eigen::ComputeThinV);
  svd_n.setThreshold(parameters.rank_tolerance);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(3 * n);
  w.head(n) = svd_n.solve(rhs);
  stats->phase1_rank = static_cast<int>(svd_n.rank());
  stats->phase1_residual = (A.topLeftCorner(n, n) * w.head(n) - rhs).norm();
  // The nullspace of C = [A_N B], and of the tangential rows of frictionless contacts (their
  // tangential impulses are zero).
  int frictionless = 0;
  for (const double mu : problem.friction) frictionless += mu > 0 ? 0 : 1;
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(n + 2 * frictionless, 3 * n);
  C.topRows(n) = A.topRows(n);
  for (int i = 0, row = n; i < n; ++i) {
    if (problem.friction[i] > 0) continue;
    C(row++, n + 2 * i) = 1;
    C(row++, n + 2 * i + 1) = 1;
  }
  Eigen::JacobiSVD<Eigen::MatrixXd> svd_c(C, Eigen::ComputeFullV);
  svd_c.setThreshold(parameters.rank_tolerance);
  const int rank_c = static_cast<int>(svd_c.rank());
  const Eigen::MatrixXd R = svd_c.matrixV().rightCols(3 * n - rank_c);
  stats->nullspace_dimension = static_cast<int>(R.cols());
  const Eigen::MatrixXd D = A.bottomRows(2 * n);
  const Eigen::VectorXd d0 = D * w + b.tail(2 * n);
  stats->tangential_phase1 = d0.norm();
  Eigen::VectorXd x = w;
  const double scale = w.head(n).squaredNorm();
  if (R.cols() > 0 && scale > 0 && d0.squaredNorm() > 0) {
    // Phase 2 (§3.2) from the strictly feasible y = 0 of the relaxed constraints.
    const Eigen::MatrixXd M = D * R;
    Phase2 phase2(R, w, M, d0, problem.friction, n, parameters.normal_bound,
                  parameters.slack * scale);
    const double m = phase2.num_constraints();
    const double f0 = d0.squaredNorm();
    double t = m / f0;
    Eigen::VectorXd y = Eigen::VectorXd::Zero(R.cols());
    // Converged: the gap bound m/t reached, by a last minimization that reached the central
    // path (the bound holds only there).
    stats->converged = false;
    for (int outer = 1; outer <= parameters.max_outer_iterations; ++outer) {
      stats->outer_iterations = outer;
      bool capped = false;
      stats->inner_iterations +=
          MinimizeBarrier(phase2, t, parameters.max_inner_iterations, &y, &capped);
      stats->capped_minimizations += capped ? 1 : 0;
      stats->duality_gap = m / t;
      if (m / t <= parameters.gap_tolerance * f0 + 1e-30) {
        stats->converged = !capped;
        break;
      }
      t *= parameters.barrier_growth;
    }
    stats->least_squares = PolishByLeastSquares(phase2, M, d0, &y);
    // The barrier solution is within the gap of the optimum, which is at most f_0(0): never
    // return a worse tangential velocity than phase 1's.
    if (phase2.Objective(y) <= f0) x = w + R * y;
  }
  stats->tangential_residual = (D * x + b.tail(2 * n)).norm();
  Eigen::VectorXd impulses(3 * n);
  for (int r = 0; r < 3 * n; ++r) impulses[order[r]] = x[r];
  return impulses;
}

}  // namespace contactlab
