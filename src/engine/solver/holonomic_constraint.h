// A bilateral holonomic constraint g(q) = 0 of up to six rows in SAP's linear compliant form
// (docs/contact-model.md §3.1; [1] §VII): the common core of the coupler, distance and weld
// constraints, which each give g at the step's start and their rows' compliance.
#pragma once

#include <Eigen/Dense>
#include <limits>

#include "engine/solver/constraint.h"

namespace contactlab {

// One row's compliance: a spring k with relaxation time τ (damping c = τ·k), or rigid (k = ∞),
// either way not stiffer than the near-rigid rule allows.
struct HolonomicCompliance {
  // k ∈ (0, ∞]: N/m for a length, N·m/rad for an angle; ∞: rigid (near-rigid regularization).
  double stiffness = std::numeric_limits<double>::infinity();
  double relaxation_time_s = 0;  // τ ∈ [0, ∞)
  // β > 0: near-rigid when the row's period would be below β·δt. 0.1 as for the PD servo
  // (§3) and Drake's holonomic constraints: a rigid row drifts by β²·w·δt²·F/(4π²) under a
  // load F, 1 µm at 30 N on the Panda's 15 g fingers.
  double beta = 0.1;
  // Throws std::invalid_argument naming the field (after `prefix`, e.g. "rotation ") for a
  // value outside the ranges above.
  void Validate(const char* prefix = "") const;
};

// Per row i, from g_i(q0) and the row's inverse effective mass w_i (the Delassus diagonal):
//   v̂_i = −g_i/(δt + τ_i),   R_i = max(β²/(4π²)·w_i, 1/(δt·k_i·(δt + τ_i))),
//   γ = −R⁻¹ (v_c − v̂),   ℓ = ½ (v_c − v̂)ᵀ R⁻¹ (v_c − v̂),   G = R⁻¹,
// v_c = ġ = J v. Under a steady load F the row settles at g = −R·δt·(δt + τ)·F: the drift its
// regularization predicts (with k finite and R the compliance term, g = −F/k).
class HolonomicConstraint : public Constraint {
 public:
  static constexpr int kMaxRows = 6;
  using RowVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxRows, 1>;
  // What one step's potential is built from.
  struct Data {
    RowVector R;     // regularization [1/kg, 1/(kg m²)]; positive
    RowVector vhat;  // bias velocity [m/s, rad/s]
  };
  // Row i of `d` from its constraint value g0, inverse effective mass w (> 0) and compliance:
  // the constraint's own regularization.
  static void MakeRow(const HolonomicCompliance& compliance, double dt_s, double g0, double w,
                      int i, Data* d);

  int num_rows() const override { return static_cast<int>(d_.R.size()); }
  double Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc, Eigen::Ref<Eigen::VectorXd> gamma,
                  Eigen::MatrixXd* G) const override;
  const Data& data() const { return d_; }

 protected:
  HolonomicConstraint() = default;
  explicit HolonomicConstraint(const Data& d) : d_(d) {}
  Data d_;
};

}  // namespace contactlab
