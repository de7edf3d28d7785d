// Contact constraints in the contact frame, v_c = [v_t (2), v_n (1)], v_n > 0 separating
// (docs/contact-model.md §2). One class per approximation.
#pragma once

#include <optional>

#include "engine/solver/constraint.h"
#include "engine/solver/delassus_estimate.h"

namespace contactlab {

// The Hunt & Crossley law written around its opening velocity v̂ (docs/contact-model.md §2.2),
// with u = v̂ − v_n:  n = δt·(a + b·u)·(c + d·u). Its coefficients depend only on the step's data,
// so a contact computes them once and the solver's many evaluations per step (Newton and line
// search) cost a few multiplications and no division.
struct HuntCrossleyExpansion {
  double dt_s = 0;
  double opening_velocity = 0;  // v̂ (may be ±∞)
  double a = 0, b = 0, c = 0, d = 0;
  double elastic_force_N = 0;  // f0, for the constant push of k = d = 0 (v̂ = +∞)
  // ℓ_n(v_n); writes n and −n' when non-null.
  double Evaluate(double vn, double* impulse, double* impulse_derivative_neg) const;
  // −n'(v̂⁻) = δt·(b·c + d·a): the closed side's stiffness at the opening velocity.
  double ClosingStiffness() const;
};

// Hunt & Crossley normal law, implicit in δt (docs/contact-model.md §2.2), in the f0 = k·x0 form so
// that faces with k → 0 but finite f0 stay finite (§5).
//   n(v_n) = δt·(f0 − δt·k·v_n)₊·(1 − d·v_n)₊,   f0 = k·x0.
// Preconditions: δt > 0, k ≥ 0, d ≥ 0. d = 0 gives v̂ = x0/δt; x0 ≤ 0 (separated within the
// margin) gives v̂ = x0/δt ≤ 0, so the contact acts only if the bodies approach fast enough.
// Degenerate k = 0, d = 0 with f0 > 0 (a constant push that never opens, v̂ = +∞): the
// potential is −δt·f0·v_n, the only case where it is not ≥ 0.
struct HuntCrossleyNormal {
  double dt_s = 1e-3;
  double stiffness_N_per_m = 1e6;   // k
  double dissipation_s_per_m = 50;  // d
  double penetration_m = 0;         // x0 = −φ0 (may be negative: separated)
  // f0 = k·x0 [N]. When set it replaces stiffness·penetration (hydroelastic faces, §5: f0 =
  // A_f·p0 stays finite while k = A_f·g_f → 0); penetration_m is then ignored.
  std::optional<double> elastic_force_N = std::nullopt;

  // f0 [N].
  double ElasticForce() const;
  // n(v_n): normal impulse [N·s].
  double Impulse(double vn) const;
  // −n'(v_n) ≥ 0 (0 where the contact is open, including v_n = v̂).
  double ImpulseDerivativeNeg(double vn) const;
  // ℓ_n(v_n) = N⁺(v̂) − N(v_n) ≥ 0, zero wherever the contact is open.
  double Potential(double vn) const;
  // v̂ = min(x0/δt, 1/d) = min(f0/(δt·k), 1/d): n = 0 for v_n ≥ v̂. May be ±∞ (k = 0).
  double OpeningVelocity() const;
  // ℓ_n, n and −n' in one pass.
  double Evaluate(double vn, double* impulse, double* impulse_derivative_neg) const;
  // The law's coefficients around v̂ (what the contact models evaluate).
  HuntCrossleyExpansion Expand() const;
};

// SAP (docs/contact-model.md §2.1): a linear Kelvin–Voigt normal compliance and regularized
// friction, both from one regularization R that the contact computes from δt and its Delassus
// diagonal estimate.
class SapContact final : public Constraint {
 public:
  // The contact's physics, with units and valid ranges.
  struct Parameters {
    double stiffness_N_per_m = 1e6;  // k ∈ [0, ∞); 0 makes the contact inactive
    double relaxation_time_s = 0.1;  // τ_d ∈ [0, ∞): dissipation time scale
    double friction = 0.5;           // μ ∈ [0, ∞)
    double sigma = 1e-3;             // σ ∈ (0, 1]: friction regularization, R_t = σ·w_t
    double beta = 1.0;               // β > 0: near-rigid when the period is below β·δt
  };
  // What one step's potential is built from: μ, the regularization R [1/kg] and the bias v̂_n
  // [m/s].
  struct Data {
    double friction = 0.5;
    double R_t = 0, R_n = 0;
    double vhat_n = 0;
  };
  // §2.1, the constraint's own regularization from δt and its Delassus diagonal estimate (as
  // Drake's SapFrictionConeConstraint::CalcDiagonalRegularization): R_n = max(β²/(4π²)·w_n,
  // 1/(δt·k·(δt + τ_d))) — the near-rigid switch: a contact whose period δt cannot resolve gets
  // constraint stabilization instead of an unresolvable stiff spring —, R_t = σ·w_t, v̂_n =
  // −φ0/(δt + τ_d). k = 0 gives R_n = ∞, which Evaluate treats as an inactive contact (γ = 0,
  // G = 0, ℓ = 0).
  static Data MakeData(const Parameters& p, double dt_s, double signed_distance_m,
                       const DelassusDiagonal& w);
  SapContact() = default;
  // The contact of one step at signed distance φ0.
  SapContact(const Parameters& p, double dt_s, double signed_distance_m, const DelassusDiagonal& w)
      : d_(MakeData(p, dt_s, signed_distance_m, w)) {}
  explicit SapContact(const Data& d) : d_(d) {}
  // The region of the friction cone that the projection of y = −R⁻¹(v_c − v̂) lands in (§2.1),
  // decided by Evaluate's own tests, so that γ at v_c is that region's: kSeparation γ = 0 (y in
  // the polar cone, or k = 0), kStiction γ = y (y in the cone), kSliding γ on the cone's
  // surface, ‖γ_t‖ = μ γ_n. Does not allocate.
  enum class Region { kSeparation, kStiction, kSliding };
  Region CalcRegion(const Eigen::Ref<const Eigen::VectorXd>& vc) const;
  int num_rows() const override { return 3; }
  double Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc, Eigen::Ref<Eigen::VectorXd> gamma,
                  Eigen::MatrixXd* G) const override;
  bool PredictRegime(const Eigen::Ref<const Eigen::VectorXd>& vc,
                     const Eigen::Ref<const Eigen::VectorXd>& dvc,
                     Eigen::Ref<Eigen::VectorXd> gamma, Eigen::MatrixXd* G) const override;
  bool VanishesAlong(const Eigen::Ref<const Eigen::VectorXd>& vc,
                     const Eigen::Ref<const Eigen::VectorXd>& dvc, double alpha_max) const override;
  const Data& data() const { return d_; }

 private:
  Data d_;
};

// Lagged (docs/contact-model.md §2.3): Hunt & Crossley normal, friction from the previous
// step's normal impulse γ_n0 with the soft norm of width ε (the stiction tolerance v_s, or the
// regularized ε = max(v_s, σ·w_t·μ·γ_n0)).
class LaggedContact final : public Constraint {
 public:
  // The contact's friction physics (the normal law is the HuntCrossleyNormal).
  struct Parameters {
    double friction = 0.5;                     // μ ∈ [0, ∞)
    double stiction_tolerance_m_per_s = 1e-4;  // v_s > 0
    // σ ∈ [0, 1] of regularized Lagged; 0: plain Lagged, ε = v_s.
    double regularization_sigma = 0;
  };
  // What one step's potential is built from.
  struct Data {
    HuntCrossleyNormal normal;
    double friction = 0.5;
    double lagged_normal_impulse = 0;  // γ_n0 [N·s]
    double epsilon_m_per_s = 1e-4;     // soft-norm width ε
  };
  // γ_n0 = δt·k·(x0)₊·(1 − d·v_n0)₊ from the previous normal velocity v_n0.
  static double LaggedNormalImpulse(const HuntCrossleyNormal& normal, double previous_vn);
  // Regularized Lagged (§2.3): ε = max(v_s, σ·w_t·μ·γ_n0) — the SAP stiction slip, so that
  // impacts (large γ_n0) do not make the friction Hessian μγ_n0/ε arbitrarily stiff.
  static double RegularizedEpsilon(double stiction_tolerance_m_per_s, double sigma, double w_t,
                                   double friction, double lagged_normal_impulse);
  LaggedContact() = default;
  // The contact of one step, from the contact velocity v_n0 at the previous state.
  LaggedContact(const HuntCrossleyNormal& normal, const Parameters& p, double previous_vn,
                const DelassusDiagonal& w);
  explicit LaggedContact(const Data& d) : d_(d), normal_(d.normal.Expand()) {}
  int num_rows() const override { return 3; }
  double Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc, Eigen::Ref<Eigen::VectorXd> gamma,
                  Eigen::MatrixXd* G) const override;
  bool PredictRegime(const Eigen::Ref<const Eigen::VectorXd>& vc,
                     const Eigen::Ref<const Eigen::VectorXd>& dvc,
                     Eigen::Ref<Eigen::VectorXd> gamma, Eigen::MatrixXd* G) const override;
  bool VanishesAlong(const Eigen::Ref<const Eigen::VectorXd>& vc,
                     const Eigen::Ref<const Eigen::VectorXd>& dvc, double alpha_max) const override;
  const Data& data() const { return d_; }

 private:
  Data d_;
  HuntCrossleyExpansion normal_;
};

// Similar (docs/contact-model.md §2.4): z = v_n − μ‖v_t‖_s, ℓ = −N(z) shifted to vanish when open.
class SimilarContact final : public Constraint {
 public:
  // The contact's friction physics (the normal law is the HuntCrossleyNormal).
  struct Parameters {
    double friction = 0.5;                     // μ ∈ [0, ∞)
    double stiction_tolerance_m_per_s = 1e-4;  // v_s > 0: the soft-norm width ε
  };
  // What one step's potential is built from.
  struct Data {
    HuntCrossleyNormal normal;
    double friction = 0.5;
    double epsilon_m_per_s = 1e-4;  // soft-norm width ε = v_s
  };
  SimilarContact() = default;
  SimilarContact(const HuntCrossleyNormal& normal, const Parameters& p)
      : SimilarContact(Data{normal, p.friction, p.stiction_tolerance_m_per_s}) {}
  explicit SimilarContact(const Data& d) : d_(d), normal_(d.normal.Expand()) {}
  int num_rows() const override { return 3; }
  double Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc, Eigen::Ref<Eigen::VectorXd> gamma,
                  Eigen::MatrixXd* G) const override;
  bool PredictRegime(const Eigen::Ref<const Eigen::VectorXd>& vc,
                     const Eigen::Ref<const Eigen::VectorXd>& dvc,
                     Eigen::Ref<Eigen::VectorXd> gamma, Eigen::MatrixXd* G) const override;
  bool VanishesAlong(const Eigen::Ref<const Eigen::VectorXd>& vc,
                     const Eigen::Ref<const Eigen::VectorXd>& dvc, double alpha_max) const override;
  const Data& data() const { return d_; }

 private:
  Data d_;
  HuntCrossleyExpansion normal_;
};

}  // namespace contactlab
