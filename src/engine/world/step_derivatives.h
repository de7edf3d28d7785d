// The derivatives of a time step (docs/contact-model.md §9), after the Irrotational Contact
// Fields paper's §X-B: the step's velocities v₁ minimize ℓ(v; x) for its inputs
// x = (q₀, v₀, u, p) (state, PD targets, contact parameters), so ∇ℓ(v₁(x); x) = 0 and, by the
// implicit function theorem,
//   ∂v₁/∂x = −H⁻¹ ∂(∇ℓ)/∂x,   H = A + Jᵀ G J at v₁,
// with H the Newton Hessian at the solution, factored once per step and reused for every
// direction. ∂(∇ℓ)/∂x along a direction is taken by central differences of the step's data at
// the fixed v₁ (geometry query, free motion and constraints rebuilt at x ± h·δx; no solve, so
// nothing of the solver's tolerance enters), and q₁'s by central differences of the position
// update. Along q, a step with point contacts only moves its contact points analytically
// (contact_point_rates.h) instead of running the narrow phase again. Asked for, not paid for
// otherwise: World::Step is unchanged; StepDerivatives::Step takes the step and linearizes it.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "engine/multibody/multibody.h"
#include "engine/solver/contact_constraint_factory.h"
#include "engine/solver/convex_solver.h"
#include "engine/world/contact_parameter_values.h"
#include "engine/world/geometry_query.h"
#include "engine/world/problem_builder.h"
#include "engine/world/world.h"

namespace contactlab {

// A direction in a step's inputs; an empty vector is a zero block.
struct StepDirection {
  Eigen::VectorXd q;           // δq₀ (n_q)
  Eigen::VectorXd v;           // δv₀ (n_v)
  Eigen::VectorXd pd_targets;  // δu: (q_d, v_d) of each PD joint, StepDerivatives::pd_bodies()
  Eigen::VectorXd parameters;  // δp, StepDerivatives::parameters() order
};

// ∂(q₁, v₁)/∂(q₀, v₀, u, p) of one step, dense, column by column of StepDirection's blocks.
struct StepJacobians {
  Eigen::MatrixXd dq1_dq0, dq1_dv0, dq1_du, dq1_dp;
  Eigen::MatrixXd dv1_dq0, dv1_dv0, dv1_du, dv1_dp;
};

class StepDerivatives {
 public:
  // For steps of worlds of this model, with respect to the given parameters: global values, or
  // with `contact_pairs` (one per parameter, or empty) each one's pair (−1: global).
  StepDerivatives(const WorldModel& model, std::vector<ContactParameter> parameters,
                  std::vector<int> contact_pairs = {});

  // Takes one step of *world and linearizes it. Returns false when the step failed
  // (world->failure()) or its Hessian is not positive definite (failure()). Throws
  // std::invalid_argument for a step it cannot differentiate: error control (its step size is
  // chosen by the state), the rigid model (not a convex solve), or a parameter the settings do
  // not hold.
  bool Step(World* world);
  const std::string& failure() const { return failure_; }

  // (δq₁, δv₁) for a direction in the last step's inputs. Allocates nothing once warm.
  void Apply(const StepDirection& direction, Eigen::VectorXd* dq1, Eigen::VectorXd* dv1);
  // The Jacobians, one direction per column.
  StepJacobians Jacobians();
  // ∂(∇ℓ)/∂x · δx at the last step's v₁ (Apply's right-hand side before H⁻¹): for an adjoint
  // or a check of the Hessian.
  void GradientDerivative(const StepDirection& direction, Eigen::VectorXd* d_gradient);

  // The scene bodies whose PD targets u are inputs, and the parameters, in their order.
  const std::vector<int>& pd_bodies() const { return pd_bodies_; }
  const std::vector<ContactParameter>& parameters() const { return parameters_; }
  const std::vector<int>& contact_pairs() const { return contact_pairs_; }
  int num_positions() const { return nq_; }
  int num_velocities() const { return nv_; }
  // The last step's start and end.
  const Eigen::VectorXd& q0() const { return q0_; }
  const Eigen::VectorXd& v0() const { return v0_; }
  const Eigen::VectorXd& v1() const { return v1_; }
  // The last step's q-direction moves its contact points to first order along the bodies'
  // displacement (no hydroelastic patch in it) rather than differencing the geometry query
  // (docs/contact-model.md §9). Runs the step's base query if no direction has yet.
  bool uses_analytic_geometry() {
    RunBaseQuery();
    return analytic_geometry_;
  }

 private:
  // ∇ℓ(v₁) of the step rebuilt from inputs (q, v, u, p) into *gradient; with
  // `analytic_geometry` its contacts are the step's own moved to q (MoveBaseContacts).
  void StepGradient(const Eigen::VectorXd& q, const Eigen::VectorXd& v, const WorldInputs& inputs,
                    Eigen::VectorXd* gradient, bool analytic_geometry);
  // The geometry query at (q₀, v₀) into base_query_, and whether it has point contacts only; once
  // per step.
  void RunBaseQuery();
  // base_query_'s point contacts moved to first order to the kinematics in data_ (each geometry
  // by its displacement from its base pose) into moved_candidates_.
  void MoveBaseContacts();
  // The central difference of ∇ℓ(v₁) along one block of a direction, added to *sum.
  void AddGradientDerivative(const StepDirection& direction, int block, Eigen::VectorXd* sum);
  // ∇ℓ(v₁) of the step at (q₀, v₀) with the parameters of `inputs` (E_h unmoved): its contact
  // constraints remade on the step built once (ProblemBuilder::RemakeContactConstraints).
  void ParameterGradient(const WorldInputs& inputs, Eigen::VectorXd* gradient);
  bool MovesModulus(const Eigen::VectorXd& d_parameters) const;
  // The inputs moved by h along δu and δp.
  void OffsetInputs(const StepDirection& direction, int block, double h, WorldInputs* inputs);
  // The step's hydroelastic representations with every compliant geometry at E_h = modulus_Pa:
  // made once per value and kept (the pressures copied and rescaled), so that a run's steps
  // differentiate with respect to E_h without allocating.
  const std::vector<HydroelasticRepresentation>& CompliantAtModulus(double modulus_Pa);
  // q₁ of the position update from (q₀, v₀, v₁).
  void IntegrateInto(const Eigen::VectorXd& q, const Eigen::VectorXd& v0, const Eigen::VectorXd& v1,
                     Eigen::VectorXd* q1);

  const WorldModel& model_;
  std::vector<ContactParameter> parameters_;
  std::vector<int> contact_pairs_;  // per parameter: its pair, or −1 (global)
  std::vector<int> pd_bodies_;
  int nq_ = 0, nv_ = 0;
  std::string failure_;
  // The last step: its start, inputs, size and solution.
  Eigen::VectorXd q0_, v0_, v1_;
  WorldInputs inputs0_;
  double t0_ = 0, dt_s_ = 0;
  double position_step_ = 1e-9;  // the central differences' step in q (step_derivatives.cc)
  // The rebuilt steps' stages (never the World's: it has moved on) and the factored Hessian.
  MultibodyData data_;
  GeometryQuery geometry_query_;
  GeometryQueryResult query_;
  // The step's own contacts at (q₀, v₀) (no reach rule), moved for the q-direction.
  GeometryQueryResult base_query_;
  bool analytic_geometry_ = false;
  bool base_query_done_ = false;
  std::vector<ContactCandidate> moved_candidates_;
  std::vector<Eigen::Vector3d> geometry_rotation_, geometry_translation_;
  ProblemBuilder problem_builder_;
  ConvexSolver gradient_solver_, hessian_solver_;
  // ParameterGradient's step at (q₀, v₀), built on the step's first parameter direction.
  ProblemBuilder parameter_builder_;
  bool parameter_problem_built_ = false;
  // CompliantAtModulus's: the representations at E_h = modulus_Pa made from `base`.
  struct ModulusVariant {
    double modulus_Pa = 0;
    std::vector<HydroelasticRepresentation> base;
    WorldInputs inputs;
  };
  static constexpr size_t kModulusVariants = 4;  // ± h of two parameter directions
  std::vector<ModulusVariant> modulus_variants_;
  size_t next_modulus_variant_ = 0;
  // Scratch, reused step to step.
  WorldInputs inputs_scratch_;
  Eigen::VectorXd q_scratch_, v_scratch_, v1_scratch_, q_plus_, q_minus_, gradient_plus_,
      gradient_minus_, v_position_;
};

}  // namespace contactlab
