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
  // As Evaluate but without the Hessian (line search).
  double Cost(const Eigen::Ref<const Eigen::VectorXd>& vc,
              Eigen::Ref<Eigen::VectorXd> gamma) const {
    return Evaluate(vc, gamma, nullptr);
  }
};

}  // namespace contactlab
