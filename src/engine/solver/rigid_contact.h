// A contact of the rigid model (docs/contact-model.md §8): it has no potential in the convex
// problem (ℓ = 0, γ = 0, G = 0), whose solve then gives the step's velocities without contact
// (PD controllers, joint limits, couplers acting); the contact's impulse comes after it, from
// Drumwright & Shell's two phases on the contacts' Delassus matrix (engine/world/
// rigid_contact_stage.h). Its Jacobian rows in the problem are what that stage reads.
#pragma once

#include "engine/solver/constraint.h"

namespace contactlab {

class RigidContact final : public Constraint {
 public:
  int num_rows() const override { return 3; }
  double Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc, Eigen::Ref<Eigen::VectorXd> gamma,
                  Eigen::MatrixXd* G) const override;
  bool VanishesAlong(const Eigen::Ref<const Eigen::VectorXd>& /*vc*/,
                     const Eigen::Ref<const Eigen::VectorXd>& /*dvc*/,
                     double /*alpha_max*/) const override {
    return true;
  }
};

}  // namespace contactlab
