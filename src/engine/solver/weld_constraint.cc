// Weld constraint (docs/contact-model.md §3.2).
#include "engine/solver/weld_constraint.h"

namespace contactlab {

void WeldConstraint::Parameters::Validate() const {
  rotation.Validate("rotation ");
  translation.Validate("translation ");
}

WeldConstraint::Vector6d WeldConstraint::ConstraintValue(const Eigen::Isometry3d& X_WP,
                                                         const Eigen::Isometry3d& X_WQ) {
  const Eigen::AngleAxisd relative(X_WQ.linear() * X_WP.linear().transpose());
  Vector6d g;
  g.head<3>() = relative.angle() * relative.axis();
  g.tail<3>() = X_WQ.translation() - X_WP.translation();
  return g;
}

WeldConstraint::WeldConstraint(const Parameters& p, double dt_s, const Vector6d& g0,
                               const Vector6d& w) {
  d_.R.resize(6);
  d_.vhat.resize(6);
  for (int i = 0; i < 6; ++i)
    MakeRow(i < 3 ? p.rotation : p.translation, dt_s, g0(i), w(i), i, &d_);
}

}  // namespace contactlab
