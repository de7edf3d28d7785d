#include "engine/world/step_results.h"

#include <optional>

#include "engine/solver/contact_constraints.h"

namespace contactlab {
namespace {

// A pressed contact sticks or slips by its approximation's own regime (docs/contact-model.md
// §2.5): SAP by the region of the friction cone its impulse was projected into (§2.1), whatever
// v_s; Lagged and Similar, whose friction is smooth, by slip within twice their soft-norm width
// ε (v_s; regularized Lagged's max(v_s, σ·w_t·μ·γ_n0), §2.3).
ContactResult::State ContactState(double normal_impulse, const Eigen::Vector3d& v_c,
                                  std::optional<SapContact::Region> sap_region,
                                  double epsilon_m_per_s) {
  if (normal_impulse <= 0) {
    return v_c.z() > 0 ? ContactResult::State::kSeparating : ContactResult::State::kMargin;
  }
  const bool sticks = sap_region ? *sap_region == SapContact::Region::kStiction
                                 : v_c.head<2>().norm() <= 2 * epsilon_m_per_s;
  return sticks ? ContactResult::State::kStick : ContactResult::State::kSlip;
}

void SetHydroelasticFields(const ContactCandidate& candidate, ContactResult* r) {
  const bool face = candidate.patch >= 0;
  r->hydroelastic_patch = face ? candidate.patch : -1;
  r->hydroelastic_face = face ? candidate.face : -1;
  r->hydroelastic_num_faces = face ? candidate.num_faces : 0;
  r->face_area_m2 = face ? candidate.face_area_m2 : 0;
  r->pressure_Pa = face ? candidate.face_pressure_Pa : 0;
}

// The distance a contact reports (docs/contact-model.md §5): a point contact's φ0; for a face
// set −δ, the penetration its pressure field implies, not the solver's φ0 = −f0/k — the rest
// offset of the set's spring, which grows without bound where n̂ runs across the field.
double ReportedSignedDistance(const ContactCandidate& candidate) {
  return candidate.patch >= 0 ? -candidate.face_penetration_m : candidate.point.signed_distance_m;
}

}  // namespace

void StepResults::ZeroForces() {
  for (auto& f : net_normal_force) f.setZero();
  for (auto& f : net_friction_force) f.setZero();
}

void StepResults::Clear() {
  contacts.clear();
  ZeroForces();
}

void CollectStepResults(const WorldModel& model, const std::vector<ContactCandidate>& candidates,
                        const ProblemBuilder& builder,
                        const Eigen::Ref<const Eigen::VectorXd>& impulses,
                        const Eigen::Ref<const Eigen::VectorXd>& constraint_velocities, double dt_s,
                        std::vector<HydroelasticPatch>* patches, StepResults* results) {
  const auto& gamma = impulses;
  const auto& vc = constraint_velocities;
  const int nc = static_cast<int>(candidates.size());
  results->contacts.resize(nc);
  results->net_normal_force.resize(model.num_bodies());
  results->net_friction_force.resize(model.num_bodies());
  results->ZeroForces();
  for (HydroelasticPatch& patch : *patches) {
    patch.normal_force_W.setZero();
    patch.friction_force_W.setZero();
  }
  for (int c = 0; c < nc; ++c) {
    const ContactCandidate& candidate = candidates[c];
    const ConvexProblem::ConstraintEntry& e =
        builder.problem().entry(builder.contact_constraint(c));
    const Eigen::Vector3d g = gamma.segment<3>(e.row_start);
    const Eigen::Vector3d v_c = vc.segment<3>(e.row_start);
    const Eigen::Matrix3d& R = builder.contact_frame(c);
    ContactResult& r = results->contacts[c];
    r.geometry_a = candidate.geometry_a;
    r.geometry_b = candidate.geometry_b;
    r.body_a = model.geometry(candidate.geometry_a).scene_body;
    r.body_b = model.geometry(candidate.geometry_b).scene_body;
    r.position_W = candidate.point.Midpoint();
    r.normal_W = candidate.point.normal_W;
    r.signed_distance_m = ReportedSignedDistance(candidate);
    r.normal_force_W = R.col(2) * (g.z() / dt_s);
    r.friction_force_W = R.leftCols<2>() * (g.head<2>() / dt_s);
    r.slip_velocity_W = R.leftCols<2>() * v_c.head<2>();
    r.normal_velocity = v_c.z();
    const ContactModelDiagnostics d = builder.contact_factory().Diagnose(
        c, builder.contact_pair(c), dt_s, g.z(), v_c.head<2>().norm());
    r.state = ContactState(g.z(), v_c, builder.contact_factory().SapRegion(c, v_c),
                           d.effective_stiction_tolerance_m_per_s);
    r.signed_distance_end_m = r.signed_distance_m + dt_s * v_c.z();
    r.gliding_offset_m = d.gliding_offset_m;
    r.effective_stiffness_N_per_m = d.effective_stiffness_N_per_m;
    r.effective_stiction_tolerance_m_per_s = d.effective_stiction_tolerance_m_per_s;
    r.requested_stiffness_N_per_m = d.requested_stiffness_N_per_m;
    r.near_rigid = d.near_rigid;
    SetHydroelasticFields(candidate, &r);
    if (candidate.patch >= 0) {
      (*patches)[candidate.patch].normal_force_W += r.normal_force_W;
      (*patches)[candidate.patch].friction_force_W += r.friction_force_W;
    }
    results->net_normal_force[r.body_b] += r.normal_force_W;
    results->net_friction_force[r.body_b] += r.friction_force_W;
    results->net_normal_force[r.body_a] -= r.normal_force_W;
    results->net_friction_force[r.body_a] -= r.friction_force_W;
  }
}

}  // namespace contactlab
