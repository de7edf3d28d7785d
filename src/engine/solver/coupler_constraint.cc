// Coupler constraint (docs/contact-model.md §3.2).
#include "engine/solver/coupler_constraint.h"

#include <cmath>
#include <stdexcept>

namespace contactlab {

void CouplerConstraint::Parameters::Validate() const {
  if (!std::isfinite(gear_ratio)) throw std::invalid_argument("gear_ratio must be finite");
  if (!std::isfinite(offset)) throw std::invalid_argument("offset must be finite");
  compliance.Validate();
}

CouplerConstraint::CouplerConstraint(const Parameters& p, double dt_s, double q_a, double q_b,
                                     double inverse_mass_a, double inverse_mass_b) {
  d_.R.resize(1);
  d_.vhat.resize(1);
  const double w = inverse_mass_a + p.gear_ratio * p.gear_ratio * inverse_mass_b;
  MakeRow(p.compliance, dt_s, ConstraintValue(p, q_a, q_b), w, 0, &d_);
}

}  // namespace contactlab
