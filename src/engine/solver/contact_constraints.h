// Contact constraints in the contact frame, v_c = [v_t (2), v_n (1)], v_n > 0 separating
// (contact-math.md §2). One class per approximation.
#pragma once

#include "engine/solver/constraint.h"

namespace contactlab {

// Hunt & Crossley normal law, implicit in δt (contact-math.md §2.2), in the f0 = k·x0 form so
// that faces with k → 0 but finite f0 stay finite (§5).
struct HuntCrossleyNormal {
  double dt_s = 1e-3;
  double stiffness_N_per_m = 1e6;   // k
  double dissipation_s_per_m = 50;  // d
  double penetration_m = 0;         // x0 = −φ0 (may be negative: separated)
  // n(v_n): normal impulse [N·s].
  double Impulse(double vn) const;
  // −n'(v_n) ≥ 0.
  double ImpulseDerivativeNeg(double vn) const;
  // ℓ_n(v_n) = N⁺(v̂) − N(v_n) ≥ 0, zero wherever the contact is open.
  double Potential(double vn) const;
  // v̂ = min(x0/δt, 1/d): n = 0 for v_n ≥ v̂.
  double OpeningVelocity() const;
};

// SAP (contact-math.md §2.1).
class SapContact final : public Constraint {
 public:
  struct Parameters {
    double friction = 0.5;       // μ
    double R_t = 0, R_n = 0;     // regularization [s/kg]
    double vhat_n = 0;           // bias v̂_n [m/s]
  };
  // R and v̂ from physical data (§2.1): stiffness k, relaxation time τ_d, Delassus
  // diagonal estimates w_t, w_n [kg⁻¹], σ, β = 1 near-rigid switch.
  static Parameters MakeParameters(double dt, double stiffness_N_per_m, double relaxation_time_s,
                                   double friction, double signed_distance_m, double w_t,
                                   double w_n, double sigma = 1e-3, double beta = 1.0);
  SapContact() = default;
  explicit SapContact(const Parameters& p) : p_(p) {}
  int num_rows() const override { return 3; }
  double Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc, Eigen::Ref<Eigen::VectorXd> gamma,
                  Eigen::MatrixXd* G) const override;
  const Parameters& parameters() const { return p_; }

 private:
  Parameters p_;
};

// Lagged (contact-math.md §2.3): Hunt & Crossley normal, friction from the previous step's
// normal impulse γ_n0 with the soft norm of width ε (the stiction tolerance v_s, or the
// regularized ε = max(v_s, σ·w_t·μ·γ_n0)).
class LaggedContact final : public Constraint {
 public:
  struct Parameters {
    HuntCrossleyNormal normal;
    double friction = 0.5;
    double lagged_normal_impulse = 0;  // γ_n0 [N·s]
    double epsilon_m_per_s = 1e-4;     // soft-norm width ε
  };
  // γ_n0 = δt·k·(x0)₊·(1 − d·v_n0)₊ from the previous normal velocity v_n0.
  static double LaggedNormalImpulse(const HuntCrossleyNormal& normal, double previous_vn);
  LaggedContact() = default;
  explicit LaggedContact(const Parameters& p) : p_(p) {}
  int num_rows() const override { return 3; }
  double Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc, Eigen::Ref<Eigen::VectorXd> gamma,
                  Eigen::MatrixXd* G) const override;
  const Parameters& parameters() const { return p_; }

 private:
  Parameters p_;
};

// Similar (contact-math.md §2.4): z = v_n − μ‖v_t‖_s, ℓ = −N(z) shifted to vanish when open.
class SimilarContact final : public Constraint {
 public:
  struct Parameters {
    HuntCrossleyNormal normal;
    double friction = 0.5;
    double epsilon_m_per_s = 1e-4;  // stiction tolerance v_s
  };
  SimilarContact() = default;
  explicit SimilarContact(const Parameters& p) : p_(p) {}
  int num_rows() const override { return 3; }
  double Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc, Eigen::Ref<Eigen::VectorXd> gamma,
                  Eigen::MatrixXd* G) const override;
  const Parameters& parameters() const { return p_; }

 private:
  Parameters p_;
};

}  // namespace contactlab
