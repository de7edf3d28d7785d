#include "engine/solver/contact_constraint_factory.h"

#include <algorithm>

namespace contactlab {

void ContactConstraintFactory::Reset(const ContactSettings& settings, int num_contacts) {
  settings_ = settings;
  contacts_.resize(num_contacts);  // keeps the capacity: no allocation once warm
}

bool ContactConstraintFactory::needs_delassus_diagonal() const {
  return settings_.approximation == ContactApproximation::kSap ||
         settings_.approximation == ContactApproximation::kRegularizedLagged;
}

bool UsesParameter(ContactApproximation approximation, ContactParameter parameter) {
  return UnusedParameterReason(approximation, parameter)[0] == '\0';
}

const char* UnusedParameterReason(ContactApproximation approximation, ContactParameter parameter) {
  const bool sap = approximation == ContactApproximation::kSap;
  if (IsRigidModel(approximation)) {
    return parameter == ContactParameter::kFriction || parameter == ContactParameter::kRestitution
               ? ""
               : "the rigid model (Drumwright & Shell) has no stiffness, dissipation, stiction "
                 "tolerance or pressure field: it reads only mu and the restitution";
  }
  switch (parameter) {
    case ContactParameter::kHuntCrossley:
      return sap ? "SAP dissipates through its relaxation time tau_d, not Hunt & Crossley's d" : "";
    case ContactParameter::kRelaxationTime:
      return sap ? ""
                 : "only SAP has a relaxation time; this approximation uses Hunt & Crossley's d";
    case ContactParameter::kStictionTolerance:
      return sap ? "SAP regularizes friction by sigma*w_t (its own stiction tolerance "
                   "mu*R_t*gamma_n)"
                 : "";
    case ContactParameter::kRestitution:
      return "only the rigid model (drumwright_shell) has a restitution coefficient; compliant "
             "contact dissipates through its damping";
    case ContactParameter::kStiffness:
    case ContactParameter::kFriction:
    case ContactParameter::kHydroelasticModulus:
      return "";
  }
  return "";
}

double ContactHorizon(ContactApproximation approximation, const ContactProperties& pair,
                      double dt_s) {
  return approximation == ContactApproximation::kSap ? dt_s + pair.relaxation_time_s : dt_s;
}

bool MayAct(double signed_distance_m, double horizon_s, double friction, double normal_velocity,
            double slip_speed) {
  return normal_velocity - friction * slip_speed < -signed_distance_m / horizon_s;
}

const Constraint* ContactConstraintFactory::Make(int c, const ContactProperties& pair,
                                                 const ContactConfiguration& config, double dt_s,
                                                 const DelassusDiagonal& w) {
  // Hunt & Crossley normal law of Lagged and Similar (§2.2).
  HuntCrossleyNormal normal;
  normal.dt_s = dt_s;
  normal.stiffness_N_per_m = pair.stiffness_N_per_m;
  normal.dissipation_s_per_m = pair.hunt_crossley_s_per_m;
  normal.penetration_m = -config.signed_distance_m;
  normal.elastic_force_N = config.elastic_force_N;

  switch (settings_.approximation) {
    case ContactApproximation::kSap: {
      SapContact::Parameters p;
      p.stiffness_N_per_m = pair.stiffness_N_per_m;
      p.relaxation_time_s = pair.relaxation_time_s;
      p.friction = pair.friction;
      p.sigma = settings_.sap_sigma;
      return &contacts_[c].emplace<SapContact>(p, dt_s, config.signed_distance_m, w);
    }
    case ContactApproximation::kLagged:
    case ContactApproximation::kRegularizedLagged: {
      LaggedContact::Parameters p;
      p.friction = pair.friction;
      p.stiction_tolerance_m_per_s = settings_.stiction_tolerance_m_per_s;
      p.regularization_sigma = settings_.approximation == ContactApproximation::kRegularizedLagged
                                   ? settings_.sap_sigma
                                   : 0.0;
      return &contacts_[c].emplace<LaggedContact>(normal, p,
                                                  config.previous_normal_velocity_m_per_s, w);
    }
    case ContactApproximation::kSimilar: {
      SimilarContact::Parameters p;
      p.friction = pair.friction;
      p.stiction_tolerance_m_per_s = settings_.stiction_tolerance_m_per_s;
      return &contacts_[c].emplace<SimilarContact>(normal, p);
    }
    case ContactApproximation::kDrumwrightShell:
      return &contacts_[c].emplace<RigidContact>();
  }
  return nullptr;
}

std::optional<SapContact::Region> ContactConstraintFactory::SapRegion(
    int c, const Eigen::Vector3d& v_c) const {
  const auto* sap = std::get_if<SapContact>(&contacts_[c]);
  if (sap == nullptr) return std::nullopt;
  return sap->CalcRegion(v_c);
}

ContactModelDiagnostics ContactConstraintFactory::Diagnose(int c, const ContactProperties& pair,
                                                           double dt_s, double normal_impulse,
                                                           double slip_speed) const {
  ContactModelDiagnostics d;
  d.requested_stiffness_N_per_m = pair.stiffness_N_per_m;
  const auto& contact = contacts_[c];
  if (const auto* sap = std::get_if<SapContact>(&contact)) {
    const SapContact::Data& s = sap->data();
    const double dt_plus_tau = dt_s + pair.relaxation_time_s;
    d.gliding_offset_m = s.friction * dt_plus_tau * slip_speed;
    d.effective_stiction_tolerance_m_per_s = s.friction * s.R_t * std::max(normal_impulse, 0.0);
    // The regularized stiffness, softened by the friction coupling μ̃² = μ²R_t/R_n while sliding.
    const double k = 1.0 / (dt_s * dt_plus_tau * s.R_n);
    // The compliance term 1/(δt k (δt + τ_d)) lost the max of R_n to the near-rigid one.
    d.near_rigid = s.R_n > 1.0 / (dt_s * pair.stiffness_N_per_m * dt_plus_tau);
    const bool sliding = slip_speed > d.effective_stiction_tolerance_m_per_s;
    d.effective_stiffness_N_per_m = sliding ? k / (1 + s.friction * s.friction * s.R_t / s.R_n) : k;
  } else if (const auto* lagged = std::get_if<LaggedContact>(&contact)) {
    d.effective_stiffness_N_per_m = lagged->data().normal.stiffness_N_per_m;
    d.effective_stiction_tolerance_m_per_s = lagged->data().epsilon_m_per_s;
  } else if (const auto* similar = std::get_if<SimilarContact>(&contact)) {
    const SimilarContact::Data& s = similar->data();
    d.gliding_offset_m = s.friction * dt_s * slip_speed;
    d.effective_stiffness_N_per_m =
        s.normal.stiffness_N_per_m * (1 + s.friction * s.normal.dissipation_s_per_m * slip_speed);
    d.effective_stiction_tolerance_m_per_s = s.epsilon_m_per_s;
  } else if (std::holds_alternative<RigidContact>(contact)) {
    // Rigid (§8): no stiffness in force, and a sticking contact's slip is phase 2's residual,
    // zero to rounding after its least-squares polish, within its gap otherwise.
    d.effective_stiction_tolerance_m_per_s = 1e-6;
  }
  return d;
}

}  // namespace contactlab
