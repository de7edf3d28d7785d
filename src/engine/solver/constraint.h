// A constraint of the convex problem (docs/contact-model.md §2): a convex potential ℓ_i(v_c) of its
// constraint velocity v_c = J v + b. The solver sees only this interface.
#pragma once

#include <Eigen/Dense>

namespace contactlab {

class Constraint {
 public:
  virtual ~Constraint() = default;
  // Dimension of v_c (3 for a contact, 1 for a joint-level constraint).
  virtual int num_rows() const = 0;
  // Evaluates at v_c: returns the potential ℓ_i, writes the impulse γ = −∂ℓ_i/∂v_c and, when
  // G is non-null, the Hessian G = ∂²ℓ_i/∂v_c² (num_rows × num_rows, symmetric PSD; every
  // entry is written, the caller does not clear it).
  // Must not allocate.
  virtual double Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc,
                          Eigen::Ref<Eigen::VectorXd> gamma, Eigen::MatrixXd* G) const = 0;
  // Regime prediction (docs/contact-model.md §4.1). Newton's quadratic model at v_c cannot see
  // a kink of ℓ_i ahead: a sliding contact whose step Δv_c carries it through stiction, an open
  // contact whose step closes it. When the step from v_c along Δv_c enters such a regime,
  // writes the quadratic model of ℓ_i valid there, extended back to v_c — its impulse γ and
  // Hessian G at v_c — and returns true; otherwise returns false and leaves both untouched.
  // Only the solver's search direction depends on it, never the solution. Must not allocate.
  virtual bool PredictRegime(const Eigen::Ref<const Eigen::VectorXd>& /*vc*/,
                             const Eigen::Ref<const Eigen::VectorXd>& /*dvc*/,
                             Eigen::Ref<Eigen::VectorXd> /*gamma*/, Eigen::MatrixXd* /*G*/) const {
    return false;
  }
  // True only if ℓ_i, γ and G are zero at every v_c + α Δv_c, α ∈ [0, α_max]: a contact that
  // stays open along the whole line. The line search then skips it (about 40 % of a settling
  // pile's evaluations); answering false is always correct. Must not allocate.
  virtual bool VanishesAlong(const Eigen::Ref<const Eigen::VectorXd>& /*vc*/,
                             const Eigen::Ref<const Eigen::VectorXd>& /*dvc*/,
                             double /*alpha_max*/) const {
    return false;
  }
  // As Evaluate but without the Hessian (line search).
  double Cost(const Eigen::Ref<const Eigen::VectorXd>& vc,
              Eigen::Ref<Eigen::VectorXd> gamma) const {
    return Evaluate(vc, gamma, nullptr);
  }
};

}  // namespace contactlab
