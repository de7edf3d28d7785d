#include "app/headless/solver_log.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>

namespace contactlab {

const char kSolverLogHeader[] =
    "t,dt,iterations,converged,residual,tolerance,cost,constraints,contacts,pressed_contacts,"
    "mean_penetration_m,max_penetration_m,mean_slip_speed_m_per_s,"
    "mean_effective_stiction_tolerance_m_per_s,hessian_condition";
const char kNewtonLogHeader[] = "step,t,iteration,cost";

namespace {

// The contacts that carry force (pressed: stick or slip) and their means. Penetration is
// max(0, −φ0) at the step's start: SAP and Similar press some contacts from a distance while
// they glide (docs/contact-model.md §2.5); a face without a defined penetration counts as 0.
struct PressedContacts {
  int count = 0;
  double mean_penetration_m = 0, max_penetration_m = 0;
  double mean_slip_speed = 0, mean_stiction_tolerance = 0;
};

PressedContacts Summarize(const std::vector<ContactResult>& contacts) {
  PressedContacts s;
  for (const ContactResult& c : contacts) {
    if (c.state != ContactResult::State::kStick && c.state != ContactResult::State::kSlip) {
      continue;
    }
    const double penetration = std::isfinite(c.signed_distance_m) ? -c.signed_distance_m : 0.0;
    ++s.count;
    s.mean_penetration_m += std::max(0.0, penetration);
    s.max_penetration_m = std::max(s.max_penetration_m, penetration);
    s.mean_slip_speed += c.slip_velocity_W.norm();
    s.mean_stiction_tolerance += c.effective_stiction_tolerance_m_per_s;
  }
  if (s.count > 0) {
    s.mean_penetration_m /= s.count;
    s.mean_slip_speed /= s.count;
    s.mean_stiction_tolerance /= s.count;
  }
  return s;
}

}  // namespace

SolverLog::SolverLog(const std::string& path, const World& world, bool hessian_condition)
    : file_(path, "solver log", kSolverLogHeader), hessian_condition_(hessian_condition) {
  if (!hessian_condition) return;
  if (IsRigidModel(world.approximation())) {
    throw std::invalid_argument(
        "--hessian-condition: the rigid model's phase 2 moves the velocities off the convex "
        "problem's minimizer; use a compliant model");
  }
  if (world.contact_settings().integrator.scheme == TimeIntegration::Scheme::kErrorControlled) {
    throw std::invalid_argument("--hessian-condition needs fixed steps, not error control");
  }
  evaluator_.set_parameters(world.solver().parameters());
}

double SolverLog::HessianCondition(const World& world) {
  const ConvexProblem& problem = world.last_problem();
  evaluator_.EvaluateCost(problem, world.v(), &gradient_, &hessian_);
  if (hessian_.rows() == 0) return std::numeric_limits<double>::quiet_NaN();
  eigen_.compute(hessian_, Eigen::EigenvaluesOnly);
  const Eigen::VectorXd& lambda = eigen_.eigenvalues();  // ascending
  return lambda(lambda.size() - 1) / lambda(0);
}

void SolverLog::Write(const World& world) {
  const StepStats& step = world.last_stats();
  const ConvexSolverStats& solver = world.last_solver_stats();
  const PressedContacts pressed = Summarize(world.contacts());
  fmt::memory_buffer& row = file_.BeginRow();
  auto out = std::back_inserter(row);
  fmt::format_to(out, "{:.9g},{:.9g},{},{:d},{:.9g},{:.9g},{:.17g},{},{},{}", world.time(),
                 step.dt_s, step.iterations, step.converged, solver.residual, solver.tolerance,
                 solver.cost, step.num_constraints, step.num_contacts, pressed.count);
  fmt::format_to(out, ",{:.9g},{:.9g},{:.9g},{:.9g},", pressed.mean_penetration_m,
                 pressed.max_penetration_m, pressed.mean_slip_speed,
                 pressed.mean_stiction_tolerance);
  if (hessian_condition_) fmt::format_to(out, "{:.9g}", HessianCondition(world));
  file_.EndRow();
}

NewtonLog::NewtonLog(const std::string& path, World* world)
    : file_(path, "Newton log", kNewtonLogHeader) {
  world->solver().set_record_cost_history(true);
}

void NewtonLog::Write(const World& world, long long step) {
  const std::vector<double>& costs = world.last_solver_stats().cost_history;
  for (size_t k = 0; k < costs.size(); ++k) {
    fmt::format_to(std::back_inserter(file_.BeginRow()), "{},{:.9g},{},{:.17g}", step, world.time(),
                   k, costs[k]);
    file_.EndRow();
  }
}

}  // namespace contactlab
