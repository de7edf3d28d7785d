// Bilateral holonomic constraints (docs/contact-model.md §3.1).
#include "engine/solver/holonomic_constraint.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace contactlab {

void HolonomicCompliance::Validate(const char* prefix) const {
  auto fail = [prefix](const char* field, const char* range) {
    throw std::invalid_argument(std::string(prefix) + field + " must be " + range);
  };
  if (!(stiffness > 0)) fail("stiffness", "positive (or .inf for rigid)");
  if (!(relaxation_time_s >= 0) || !std::isfinite(relaxation_time_s))
    fail("relaxation_time", "finite and ≥ 0");
  if (!(beta > 0) || !std::isfinite(beta)) fail("beta", "finite and positive");
}

void HolonomicConstraint::MakeRow(const HolonomicCompliance& c, double dt_s, double g0, double w,
                                  int i, Data* d) {
  assert(w > 0 && i < d->R.size() && d->R.size() == d->vhat.size());
  constexpr double kFourPiSquared = 4 * std::numbers::pi * std::numbers::pi;
  const double dt_plus_tau = dt_s + c.relaxation_time_s;
  const double near_rigid = c.beta * c.beta / kFourPiSquared * w;
  // k = ∞ gives 1/∞ = 0: the near-rigid term alone.
  const double compliance = 1.0 / (dt_s * c.stiffness * dt_plus_tau);
  d->R(i) = std::max(near_rigid, compliance);
  d->vhat(i) = -g0 / dt_plus_tau;
}

double HolonomicConstraint::Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc,
                                     Eigen::Ref<Eigen::VectorXd> gamma, Eigen::MatrixXd* G) const {
  assert(vc.size() == num_rows() && gamma.size() == num_rows());
  gamma = -(vc - d_.vhat).cwiseQuotient(d_.R);
  if (G) {
    G->setZero();
    G->diagonal() = d_.R.cwiseInverse();
  }
  return 0.5 * gamma.dot(d_.R.cwiseProduct(gamma));
}

}  // namespace contactlab
