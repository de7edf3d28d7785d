#include "engine/solver/rigid_contact.h"

namespace contactlab {

double RigidContact::Evaluate(const Eigen::Ref<const Eigen::VectorXd>& /*vc*/,
                              Eigen::Ref<Eigen::VectorXd> gamma, Eigen::MatrixXd* G) const {
  gamma.setZero();
  if (G != nullptr) G->setZero();
  return 0;
}

}  // namespace contactlab
