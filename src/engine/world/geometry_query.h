// Stage "geometry query" of a step: geometry poses, bounding boxes, the broad phase (sweep and
// prune), and the narrow phase of every candidate pair — point contacts, or the hydroelastic
// contact surface when the pair uses pressure-field contact (docs/contact-model.md §5), whose
// faces become candidates too (hydroelastic_faces.h). Point contacts in the margin whose gap
// the bodies cannot close this step are set aside (contact_reach.h). The rigid model
// (docs/contact-model.md §8) uses point contact for every pair.
#pragma once

#include <Eigen/Geometry>
#include <memory>
#include <utility>
#include <vector>

#include "engine/geometry/broad_phase.h"
#include "engine/geometry/collision.h"
#include "engine/hydroelastic/contact_surface.h"
#include "engine/hydroelastic/hydroelastic_representation.h"
#include "engine/world/contact_candidates.h"
#include "engine/world/contact_reach.h"
#include "engine/world/hydroelastic_faces.h"
#include "engine/world/world_inputs.h"
#include "engine/world/world_model.h"

namespace contactlab {

// The pair's hydroelastic representations are used (true) or point contact (false): one side
// compliant, the other compliant or rigid (ContactModel in hydroelastic_properties.h).
// *a_is_compliant tells whether a is the compliant side (A of the contact surface).
bool UsesHydroelastic(const HydroelasticRepresentation& a, const HydroelasticRepresentation& b,
                      bool* a_is_compliant = nullptr);

struct GeometryQueryResult {
  std::vector<Eigen::Isometry3d> geometry_poses;  // X_WG per geometry at the step's start
  std::vector<ContactCandidate> candidates;
  // Point contacts within the margin but out of reach this step (contact_reach.h): not in the
  // problem unless the after-check puts them back into `candidates`.
  std::vector<UnreachableContact> unreachable;
  // One per hydroelastic pair in contact; surfaces owned by the GeometryQuery.
  std::vector<HydroelasticPatch> patches;
  double hydroelastic_ms = 0;      // contact surfaces and their faces (part of the query)
  int num_hydroelastic_faces = 0;  // face candidates (merged small polygons count once)
  // Contact-surface polygons before fanning and merging (docs/contact-model.md §5): what
  // Drake's kPolygon representation makes one constraint each (the SAP paper's counts).
  int num_hydroelastic_polygons = 0;
};

class GeometryQuery {
 public:
  // Finds the contacts of the model's geometries at the bodies' current poses (dynamic bodies
  // from `data`, kinematic ones at time t), with the inputs' hydroelastic representations;
  // with `rule`, point contacts out of reach go to result->unreachable.
  // dt_s is the step's size, which bounds the reach. With `swept_margin` (error control,
  // docs/contact-model.md §1.2) each geometry's margin also covers twice the distance its speed
  // bound moves it in the step, so that no point contact the step can reach is missed however
  // large the step.
  void Run(const WorldModel& model, const MultibodyData& data, double t, double dt_s,
           const WorldInputs& inputs, const ContactReachRule* rule, GeometryQueryResult* result,
           bool swept_margin = false);

 private:
  // Every point of geometry g moves at most this fast at the step's start [m/s].
  void UpdateSpeedBounds(const WorldModel& model, const MultibodyData& data, double t, double dt_s);
  void AddHydroelasticPair(const WorldModel& model, const HydroelasticRepresentation& a_rep,
                           const HydroelasticRepresentation& b_rep, int a, int b,
                           GeometryQueryResult* result);

  std::vector<Aabb> aabbs_;
  std::vector<double> speed_bound_;
  std::vector<double> margin_;  // per geometry: the scene's, or swept (Run)
  std::vector<std::pair<int, int>> candidate_pairs_;
  BroadPhase broad_phase_;
  std::vector<ContactPoint> pair_points_;
  hydroelastic::ContactSurfaceScratch surface_scratch_;
  // Surfaces reused across steps (stable addresses: patches point into them).
  std::vector<std::unique_ptr<hydroelastic::ContactSurface>> surface_pool_;
  TinyPolygonPools tiny_polygon_pools_;
};

}  // namespace contactlab
