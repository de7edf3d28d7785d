#include "engine/world/geometry_query.h"

#include "engine/world/contact_properties.h"
#include "engine/world/step_clock.h"

namespace contactlab {

bool UsesHydroelastic(const HydroelasticRepresentation& a, const HydroelasticRepresentation& b,
                      bool* a_is_compliant) {
  const bool a_any = a.compliant || a.rigid, b_any = b.compliant || b.rigid;
  if (a_is_compliant) *a_is_compliant = a.compliant != nullptr;
  return (a.compliant && b_any) || (b.compliant && a_any);
}

void GeometryQuery::UpdateSpeedBounds(const WorldModel& model, const MultibodyData& data, double t,
                                      double dt_s) {
  const int ng = model.num_geometries();
  speed_bound_.resize(ng);
  for (int g = 0; g < ng; ++g) {
    const int body = model.geometry(g).scene_body;
    if (!model.movable(body)) {  // static, or kinematic: a translation at its step velocity
      speed_bound_[g] = model.KinematicStepVelocity(body, t, dt_s).norm();
      continue;
    }
    const int b = model.multibody_index(body);
    const Eigen::Vector3d center = 0.5 * (aabbs_[g].lower + aabbs_[g].upper);
    const double radius = 0.5 * (aabbs_[g].upper - aabbs_[g].lower).norm();
    const Eigen::Vector3d& w = data.w_WB[b];
    speed_bound_[g] =
        (data.v_WBo[b] + w.cross(center - data.X_WB[b].translation())).norm() + w.norm() * radius;
  }
}

void GeometryQuery::Run(const WorldModel& model, const MultibodyData& data, double t, double dt_s,
                        const WorldInputs& inputs, const ContactReachRule* rule,
                        GeometryQueryResult* result, bool swept_margin) {
  const std::vector<HydroelasticRepresentation>& hydroelastic = inputs.hydroelastic;
  const int ng = model.num_geometries();
  const double margin = model.scene().contact_margin_m;
  result->geometry_poses.resize(ng);
  aabbs_.resize(ng);
  for (int g = 0; g < ng; ++g) {
    const GeometryInstance& geometry = model.geometry(g);
    result->geometry_poses[g] = model.BodyPose(geometry.scene_body, data, t) * geometry.spec->X_BG;
    aabbs_[g] = ComputeAabb(geometry.spec->shape, result->geometry_poses[g], margin);
  }
  if (rule || swept_margin) UpdateSpeedBounds(model, data, t, dt_s);
  margin_.assign(ng, margin);
  if (swept_margin) {
    // Twice the distance at the speed bound: gravity and contact may speed a body up within
    // the step, and the rule's floor speed covers a body at rest that is knocked.
    constexpr double kSafety = 2.0;
    const double floor_speed =
        rule ? rule->floor_speed_m_per_s : ContactReachRule{}.floor_speed_m_per_s;
    for (int g = 0; g < ng; ++g) {
      const int body = model.geometry(g).scene_body;
      if (!model.movable(body) && speed_bound_[g] == 0) continue;
      const double sweep = kSafety * (speed_bound_[g] + floor_speed) * dt_s;
      margin_[g] = margin + sweep;
      aabbs_[g].lower.array() -= sweep;
      aabbs_[g].upper.array() += sweep;
    }
  }
  broad_phase_.FindPairs(
      aabbs_, [&model](int i, int j) { return model.CanCollide(i, j); }, &candidate_pairs_);
  result->candidates.clear();
  result->unreachable.clear();
  result->patches.clear();
  result->hydroelastic_ms = 0;
  result->num_hydroelastic_faces = 0;
  result->num_hydroelastic_polygons = 0;
  // The rigid model has no pressure field: every pair is a point contact (§8).
  const bool rigid = IsRigidModel(inputs.contact_settings.approximation);
  for (const auto& [i, j] : candidate_pairs_) {
    bool i_is_compliant = false;
    if (!rigid && UsesHydroelastic(hydroelastic[i], hydroelastic[j], &i_is_compliant)) {
      const auto t0 = StepClock::now();
      if (i_is_compliant) {
        AddHydroelasticPair(model, hydroelastic[i], hydroelastic[j], i, j, result);
      } else {
        AddHydroelasticPair(model, hydroelastic[j], hydroelastic[i], j, i, result);
      }
      result->hydroelastic_ms += MillisecondsSince(t0);
      continue;
    }
    pair_points_.clear();
    ComputeContactPoints(model.geometry(i).spec->shape, result->geometry_poses[i],
                         model.geometry(j).spec->shape, result->geometry_poses[j],
                         margin_[i] + margin_[j] - margin, &pair_points_);
    if (!rule) {
      for (const ContactPoint& p : pair_points_) result->candidates.push_back({i, j, p});
      continue;
    }
    ContactProperties pair = CombinePointContactProperties(
        model.geometry(i).spec->contact, model.geometry(j).spec->contact, inputs.contact_settings);
    if (const ContactPairSpec* own = FindContactPair(
            inputs.contact_pairs, model.geometry(i).scene_body, model.geometry(j).scene_body)) {
      ApplyContactPair(*own, inputs.contact_settings, /*point_contact=*/true, &pair);
    }
    const double horizon = ContactHorizon(inputs.contact_settings.approximation, pair, dt_s);
    const double reach =
        rule->ReachDistance(horizon, pair.friction, speed_bound_[i] + speed_bound_[j]);
    for (const ContactPoint& p : pair_points_) {
      if (p.signed_distance_m > reach) {
        result->unreachable.push_back({{i, j, p}, horizon, pair.friction});
      } else {
        result->candidates.push_back({i, j, p});
      }
    }
  }
}

void GeometryQuery::AddHydroelasticPair(const WorldModel& model,
                                        const HydroelasticRepresentation& a_rep,
                                        const HydroelasticRepresentation& b_rep, int a, int b,
                                        GeometryQueryResult* result) {
  const size_t p = result->patches.size();
  if (p == surface_pool_.size()) {
    surface_pool_.push_back(std::make_unique<hydroelastic::ContactSurface>());
  }
  hydroelastic::ContactSurface* surface = surface_pool_[p].get();
  const Eigen::Isometry3d& X_WA = result->geometry_poses[a];
  const Eigen::Isometry3d& X_WB = result->geometry_poses[b];
  if (b_rep.compliant) {
    hydroelastic::ComputeContactSurface(*a_rep.compliant, X_WA, *b_rep.compliant, X_WB,
                                        &surface_scratch_, surface);
  } else {
    hydroelastic::ComputeContactSurface(*a_rep.compliant, X_WA, *b_rep.rigid, X_WB,
                                        &surface_scratch_, surface);
  }
  if (surface->empty()) return;  // the surface stays in the pool for the next pair
  HydroelasticPatch patch;
  patch.geometry_a = a;
  patch.geometry_b = b;
  patch.body_a = model.geometry(a).scene_body;
  patch.body_b = model.geometry(b).scene_body;
  patch.surface = surface;
  patch.first_contact = static_cast<int>(result->candidates.size());
  AppendFaceContacts(*surface, a, b, static_cast<int>(p), &tiny_polygon_pools_,
                     &result->candidates);
  patch.num_contacts = static_cast<int>(result->candidates.size()) - patch.first_contact;
  result->num_hydroelastic_faces += patch.num_contacts;
  for (const hydroelastic::ContactFace& face : surface->faces) {
    if (face.polygon_faces > 0) ++result->num_hydroelastic_polygons;  // a fan's first face
  }
  result->patches.push_back(patch);
}

}  // namespace contactlab
