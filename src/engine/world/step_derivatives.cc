#include "engine/world/step_derivatives.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/geometry/contact_point_rates.h"
#include "engine/world/integrate_positions.h"

namespace contactlab {
namespace {

// The central differences' steps (docs/contact-model.md §9). ∇ℓ at the fixed v₁ is smooth in
// the inputs except where a contact changes regime (opens, sticks), and its distance from such a
// kink in q is as small as the contact's penetration at the step's end (0.5 µm for the falling
// sphere at k = 1e7 N/m): with contacts the positions' step is 1e-9 m (or rad); without, 1e-6,
// where round-off (ε/h) is what limits. (1e-2 of the smallest |φ0| failed on the conveyor under
// Similar: the end-of-step penetration, φ0 + δt z, is far smaller than φ0.) In v₀, the targets
// and the parameters ∇ℓ is smooth on their own scales (v₀ enters through the free motion and
// Lagged's γ_n0; the solve's kinks in v are not crossed, v₁ being fixed): 1e-6 of each one's
// scale.
constexpr double kContactPositionStep = 1e-9, kFreePositionStep = 1e-6;
constexpr double kRelativeStep = 1e-6;
// A parameter at 0 is moved by kRelativeStep of this (N/m, s/m, s, 1, m/s).
constexpr double kParameterFloor = 1e-3;

enum Block { kPositions, kVelocities, kPdTargets, kParameters, kNumBlocks };

const Eigen::VectorXd& BlockOf(const StepDirection& d, int block) {
  switch (block) {
    case kPositions:
      return d.q;
    case kVelocities:
      return d.v;
    case kPdTargets:
      return d.pd_targets;
    default:
      return d.parameters;
  }
}

}  // namespace

StepDerivatives::StepDerivatives(const WorldModel& model, std::vector<ContactParameter> parameters,
                                 std::vector<int> contact_pairs)
    : model_(model),
      parameters_(std::move(parameters)),
      contact_pairs_(contact_pairs.empty() ? std::vector<int>(parameters_.size(), -1)
                                           : std::move(contact_pairs)),
      nq_(model.multibody().num_positions()),
      nv_(model.multibody().num_velocities()),
      data_(model.multibody()),
      problem_builder_(model),
      parameter_builder_(model) {
  if (contact_pairs_.size() != parameters_.size()) {
    throw std::invalid_argument("StepDerivatives: one contact pair (or −1) per parameter");
  }
  for (int b = 0; b < model.num_bodies(); ++b) {
    if (model.scene().bodies[b].pd) pd_bodies_.push_back(b);
  }
}

bool StepDerivatives::Step(World* world) {
  const ContactSettings& settings = world->contact_settings();
  if (settings.integrator.scheme == TimeIntegration::Scheme::kErrorControlled) {
    throw std::invalid_argument(
        "step derivatives need fixed steps: under error control the state chooses the step's "
        "size (docs/contact-model.md §9)");
  }
  if (IsRigidModel(settings.approximation)) {
    throw std::invalid_argument(
        "step derivatives are the convex models' (sap, lagged, similar, regularized_lagged): the "
        "rigid model's impulses are not a convex solve's minimizer");
  }
  for (size_t j = 0; j < parameters_.size(); ++j) {
    ContactParameterValue(world->inputs(), parameters_[j], contact_pairs_[j]);
  }
  q0_ = world->q();
  v0_ = world->v();
  t0_ = world->time();
  dt_s_ = world->dt();
  inputs0_ = world->inputs();
  failure_.clear();
  if (!world->Step()) {
    failure_ = world->failure();
    return false;
  }
  v1_ = world->v();
  parameter_problem_built_ = false;
  // H at v₁ of the World's own last problem: the contacts it set aside as out of reach do not act
  // at v₁ (docs/contact-model.md §4.3; γ = 0, G = 0), so it is the whole problem's H.
  hessian_solver_.set_parameters(world->solver().parameters());
  const bool free = world->contacts().empty() && world->last_stats().num_out_of_reach == 0;
  position_step_ = free ? kFreePositionStep : kContactPositionStep;
  if (!hessian_solver_.FactorHessianAt(world->last_problem(), v1_)) {
    failure_ = fmt::format(
        "t = {:.6g} s: the Newton Hessian at the step's solution is not "
        "positive definite; the step has no derivatives",
        t0_);
    return false;
  }
  base_query_done_ = false;
  return true;
}

void StepDerivatives::RunBaseQuery() {
  // Once per step, on the first direction that needs it: a step asked only for its factored H
  // pays nothing more.
  if (base_query_done_) return;
  base_query_done_ = true;
  model_.multibody().UpdateKinematics(q0_, v0_, &data_);
  geometry_query_.Run(model_, data_, t0_, dt_s_, inputs0_, nullptr, &base_query_);
  // A pressure field's contact surface is differenced (docs/contact-model.md §9).
  analytic_geometry_ = std::all_of(base_query_.candidates.begin(), base_query_.candidates.end(),
                                   [](const ContactCandidate& c) { return c.patch < 0; });
}

void StepDerivatives::MoveBaseContacts() {
  // Each geometry's displacement as a twist over a unit time: the rotation vector of
  // R₁R₀ᵀ and the move of its frame's origin (kinematic and static bodies stay put).
  const int ng = model_.num_geometries();
  geometry_rotation_.resize(ng);
  geometry_translation_.resize(ng);
  for (int g = 0; g < ng; ++g) {
    const GeometryInstance& geometry = model_.geometry(g);
    const Eigen::Isometry3d X_WG =
        model_.BodyPose(geometry.scene_body, data_, t0_) * geometry.spec->X_BG;
    const Eigen::Isometry3d& X_WG0 = base_query_.geometry_poses[g];
    const Eigen::AngleAxisd rotation(X_WG.linear() * X_WG0.linear().transpose());
    geometry_rotation_[g] = rotation.angle() * rotation.axis();
    geometry_translation_[g] = X_WG.translation() - X_WG0.translation();
  }
  // Feature pairs held: one-sided at a feature change (docs/contact-model.md §9).
  moved_candidates_.clear();
  for (const ContactCandidate& c : base_query_.candidates) {
    const int a = c.geometry_a, b = c.geometry_b;
    const PosedShapeMotion motion_a{model_.geometry(a).spec->shape, base_query_.geometry_poses[a],
                                    geometry_rotation_[a], geometry_translation_[a]};
    const PosedShapeMotion motion_b{model_.geometry(b).spec->shape, base_query_.geometry_poses[b],
                                    geometry_rotation_[b], geometry_translation_[b]};
    ContactCandidate moved = c;
    moved.point = AdvanceContactPoint(c.point, motion_a, motion_b, 1.0);
    moved_candidates_.push_back(moved);
  }
}

void StepDerivatives::StepGradient(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   const WorldInputs& inputs, Eigen::VectorXd* gradient,
                                   bool analytic_geometry) {
  model_.multibody().UpdateKinematics(q, v, &data_);
  const std::vector<ContactCandidate>* candidates = &moved_candidates_;
  if (analytic_geometry) {
    MoveBaseContacts();
  } else {
    geometry_query_.Run(model_, data_, t0_, dt_s_, inputs, nullptr, &query_);
    candidates = &query_.candidates;
  }
  problem_builder_.Build(model_, inputs, StepStart{q, v, data_, t0_, dt_s_}, *candidates);
  gradient_solver_.EvaluateCost(problem_builder_.problem(), v1_, gradient, nullptr);
}

bool StepDerivatives::MovesModulus(const Eigen::VectorXd& d_parameters) const {
  for (size_t j = 0; j < parameters_.size(); ++j) {
    if (parameters_[j] == ContactParameter::kHydroelasticModulus && d_parameters[j] != 0) {
      return true;
    }
  }
  return false;
}

void StepDerivatives::ParameterGradient(const WorldInputs& inputs, Eigen::VectorXd* gradient) {
  // The step at (q₀, v₀), on the base query's contacts, is built once per step, on the first
  // parameter direction; a moved parameter then remakes only its contact constraints
  // (docs/contact-model.md §9).
  if (!parameter_problem_built_) {
    model_.multibody().UpdateKinematics(q0_, v0_, &data_);
    parameter_builder_.Build(model_, inputs0_, StepStart{q0_, v0_, data_, t0_, dt_s_},
                             base_query_.candidates);
    parameter_problem_built_ = true;
  }
  parameter_builder_.RemakeContactConstraints(model_, inputs, base_query_.candidates, dt_s_);
  gradient_solver_.EvaluateCost(parameter_builder_.problem(), v1_, gradient, nullptr);
}

void StepDerivatives::OffsetInputs(const StepDirection& direction, int block, double h,
                                   WorldInputs* inputs) {
  if (block == kPdTargets) {
    for (size_t k = 0; k < pd_bodies_.size(); ++k) {
      JointPdSpec& pd = *inputs->pd[pd_bodies_[k]];
      pd.q_desired += h * direction.pd_targets[2 * k];
      pd.v_desired += h * direction.pd_targets[2 * k + 1];
    }
  } else if (block == kParameters) {
    for (size_t j = 0; j < parameters_.size(); ++j) {
      const double p = ContactParameterValue(inputs0_, parameters_[j], contact_pairs_[j]);
      const double value = p + h * direction.parameters[j];
      if (parameters_[j] == ContactParameter::kHydroelasticModulus) {
        inputs->hydroelastic = CompliantAtModulus(value);
      } else {
        SetContactParameterValue(parameters_[j], contact_pairs_[j], value, inputs);
      }
    }
  }
}

const std::vector<HydroelasticRepresentation>& StepDerivatives::CompliantAtModulus(
    double modulus_Pa) {
  const auto same_base = [&](const ModulusVariant& m) {
    for (size_t g = 0; g < m.base.size(); ++g) {
      if (m.base[g].compliant != inputs0_.hydroelastic[g].compliant) return false;
    }
    return m.base.size() == inputs0_.hydroelastic.size();
  };
  for (const ModulusVariant& m : modulus_variants_) {
    if (m.modulus_Pa == modulus_Pa && same_base(m)) return m.inputs.hydroelastic;
  }
  if (modulus_variants_.size() < kModulusVariants) modulus_variants_.emplace_back();
  ModulusVariant& m = modulus_variants_[next_modulus_variant_];
  next_modulus_variant_ = (next_modulus_variant_ + 1) % kModulusVariants;
  m.modulus_Pa = modulus_Pa;
  m.base = inputs0_.hydroelastic;
  m.inputs.hydroelastic = inputs0_.hydroelastic;
  SetContactParameterValue(ContactParameter::kHydroelasticModulus, -1, modulus_Pa, &m.inputs);
  return m.inputs.hydroelastic;
}

void StepDerivatives::AddGradientDerivative(const StepDirection& direction, int block,
                                            Eigen::VectorXd* sum) {
  const Eigen::VectorXd& d = BlockOf(direction, block);
  if (d.size() == 0) return;
  const double norm = d.lpNorm<Eigen::Infinity>();
  if (norm == 0) return;
  // h so that every entry moves by its step: position_step_ for q, kRelativeStep of the largest
  // speed for v, of a radian or metre for the targets, of each parameter's own value for p.
  double h = (block == kPositions ? position_step_ : kRelativeStep) / norm;
  if (block == kVelocities) h *= std::max(1.0, v0_.lpNorm<Eigen::Infinity>());
  // A parameter at its bound 0 (d = 0, τ_d = 0) is differenced forwards, from the unmoved
  // step's ∇ℓ: its other side is not a model.
  bool one_sided = false;
  if (block == kParameters) {
    h = std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < parameters_.size(); ++j) {
      if (d[j] == 0) continue;
      const double p = ContactParameterValue(inputs0_, parameters_[j], contact_pairs_[j]);
      const double hj = kRelativeStep * std::max(std::abs(p), kParameterFloor) / std::abs(d[j]);
      h = std::min(h, hj);
      one_sided = one_sided || p - hj * std::abs(d[j]) < 0;
    }
  }
  const bool remake_parameters = block == kParameters && !MovesModulus(d);
  if (block == kPositions || remake_parameters) RunBaseQuery();
  for (const double sign : {1.0, -1.0}) {
    q_scratch_ = q0_;
    v_scratch_ = v0_;
    const double offset = one_sided && sign < 0 ? 0.0 : sign * h;
    if (block == kPositions) q_scratch_ += offset * d;
    if (block == kVelocities) v_scratch_ += offset * d;
    inputs_scratch_ = inputs0_;
    OffsetInputs(direction, block, offset, &inputs_scratch_);
    Eigen::VectorXd* gradient = sign > 0 ? &gradient_plus_ : &gradient_minus_;
    if (remake_parameters) {
      ParameterGradient(inputs_scratch_, gradient);
    } else {
      StepGradient(q_scratch_, v_scratch_, inputs_scratch_, gradient,
                   block == kPositions && analytic_geometry_);
    }
  }
  *sum += (gradient_plus_ - gradient_minus_) / (one_sided ? h : 2 * h);
}

void StepDerivatives::IntegrateInto(const Eigen::VectorXd& q, const Eigen::VectorXd& v0,
                                    const Eigen::VectorXd& v1, Eigen::VectorXd* q1) {
  const TimeIntegration& integrator = inputs0_.contact_settings.integrator;
  if (integrator.scheme == TimeIntegration::Scheme::kTheta) {
    IntegratePositions(model_.multibody(), q, v0, v1, dt_s_, integrator.theta_q, &v_position_, q1);
  } else {
    IntegratePositions(model_.multibody(), q, v1, dt_s_, q1);
  }
}

void StepDerivatives::Apply(const StepDirection& direction, Eigen::VectorXd* dq1,
                            Eigen::VectorXd* dv1) {
  // δv₁ = −H⁻¹ ∂(∇ℓ)/∂x δx (docs/contact-model.md §9).
  GradientDerivative(direction, dv1);
  *dv1 = -*dv1;
  if (dv1->squaredNorm() > 0) hessian_solver_.SolveWithFactoredHessian(dv1);
  // δq₁ of the position update q₁(q₀, v₀, v₁) along (δq₀, δv₀, δv₁).
  const bool has_q = direction.q.size() > 0, has_v = direction.v.size() > 0;
  const double scale = std::max({has_q ? direction.q.lpNorm<Eigen::Infinity>() : 0.0,
                                 dt_s_ * (has_v ? direction.v.lpNorm<Eigen::Infinity>() : 0.0),
                                 dt_s_ * dv1->lpNorm<Eigen::Infinity>()});
  dq1->setZero(nq_);
  if (scale == 0) return;
  const double h = kRelativeStep / scale;
  for (const double sign : {1.0, -1.0}) {
    q_scratch_ = q0_;
    v_scratch_ = v0_;
    if (has_q) q_scratch_ += sign * h * direction.q;
    if (has_v) v_scratch_ += sign * h * direction.v;
    v1_scratch_ = v1_ + sign * h * *dv1;
    IntegrateInto(q_scratch_, v_scratch_, v1_scratch_, sign > 0 ? &q_plus_ : &q_minus_);
  }
  *dq1 = (q_plus_ - q_minus_) / (2 * h);
}

void StepDerivatives::GradientDerivative(const StepDirection& direction,
                                         Eigen::VectorXd* d_gradient) {
  d_gradient->setZero(nv_);
  for (int block = 0; block < kNumBlocks; ++block) {
    AddGradientDerivative(direction, block, d_gradient);
  }
}

StepJacobians StepDerivatives::Jacobians() {
  const int nu = 2 * static_cast<int>(pd_bodies_.size());
  const int np = static_cast<int>(parameters_.size());
  StepJacobians J;
  Eigen::VectorXd dq, dv;
  // One block of columns: direction e_i of the block's size n.
  auto columns = [&](int block, int n, Eigen::MatrixXd* dq1, Eigen::MatrixXd* dv1) {
    dq1->resize(nq_, n);
    dv1->resize(nv_, n);
    StepDirection direction;
    Eigen::VectorXd& e = block == kPositions    ? direction.q
                         : block == kVelocities ? direction.v
                         : block == kPdTargets  ? direction.pd_targets
                                                : direction.parameters;
    e.setZero(n);
    for (int i = 0; i < n; ++i) {
      e[i] = 1;
      Apply(direction, &dq, &dv);
      dq1->col(i) = dq;
      dv1->col(i) = dv;
      e[i] = 0;
    }
  };
  columns(kPositions, nq_, &J.dq1_dq0, &J.dv1_dq0);
  columns(kVelocities, nv_, &J.dq1_dv0, &J.dv1_dv0);
  columns(kPdTargets, nu, &J.dq1_du, &J.dv1_du);
  columns(kParameters, np, &J.dq1_dp, &J.dv1_dp);
  return J;
}

}  // namespace contactlab
