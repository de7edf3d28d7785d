#include "app/runtime/snapshot.h"

#include <algorithm>
#include <cmath>

namespace contactlab {
namespace {

// Sizes `out`'s per-face arrays for this many faces (resize() keeps the capacity: nothing is
// allocated once they have held this many) and zeroes the tractions and the maximum pressure.
void SizeFaceArrays(size_t num_faces, HydroelasticSnapshot* out) {
  out->triangle_vertices_W.resize(3 * num_faces);
  out->vertex_pressure_Pa.resize(3 * num_faces);
  out->face_centroid_W.resize(num_faces);
  out->face_normal_W.resize(num_faces);
  out->face_area_m2.resize(num_faces);
  out->face_pressure_Pa.resize(num_faces);
  out->face_normal_traction_Pa.assign(num_faces, Eigen::Vector3f::Zero());
  out->face_tangential_traction_Pa.assign(num_faces, Eigen::Vector3f::Zero());
  out->max_pressure_Pa = 0;
}

// The patch's surface faces from index first_face on: corners, pressures, centroids, normals
// and areas; the patch's area and maximum pressure. Returns Σ A_f·c_f (for the centre of
// pressure of a patch without force).
Eigen::Vector3d CopyFaces(const hydroelastic::ContactSurface& surface, int first_face,
                          PatchSnapshot* p, HydroelasticSnapshot* out) {
  Eigen::Vector3d area_centroid = Eigen::Vector3d::Zero();
  for (int f = 0; f < p->num_faces; ++f) {
    const hydroelastic::ContactFace& face = surface.faces[f];
    const int k = first_face + f;
    for (int corner = 0; corner < 3; ++corner) {
      const int v = face.vertices[corner];
      // A malformed index falls back to the face centroid rather than reading out of range.
      const bool valid = v >= 0 && static_cast<size_t>(v) < surface.vertices_W.size() &&
                         static_cast<size_t>(v) < surface.vertex_pressure_Pa.size();
      out->triangle_vertices_W[3 * k + corner] =
          (valid ? surface.vertices_W[v] : face.centroid_W).cast<float>();
      const float pressure =
          static_cast<float>(valid ? surface.vertex_pressure_Pa[v] : face.pressure_Pa);
      out->vertex_pressure_Pa[3 * k + corner] = pressure;
      p->max_pressure_Pa = std::max(p->max_pressure_Pa, pressure);
    }
    out->face_centroid_W[k] = face.centroid_W.cast<float>();
    out->face_normal_W[k] = face.normal_W.cast<float>();
    out->face_area_m2[k] = static_cast<float>(face.area_m2);
    out->face_pressure_Pa[k] = static_cast<float>(face.pressure_Pa);
    p->max_pressure_Pa = std::max(p->max_pressure_Pa, static_cast<float>(face.pressure_Pa));
    p->area_m2 += face.area_m2;
    area_centroid += face.area_m2 * face.centroid_W;
  }
  return area_centroid;
}

// The faces that became constraints: traction = the solver's face force / A_f (a merged
// polygon's faces all carry its mean traction). The centre of pressure: the contacts' points
// weighted by their normal force, else the faces' area centroid.
void CopyTractions(const HydroelasticPatch& in, const std::vector<ContactResult>& contacts,
                   int first_face, const Eigen::Vector3d& area_centroid, PatchSnapshot* p,
                   HydroelasticSnapshot* out) {
  Eigen::Vector3d weighted_centroid = Eigen::Vector3d::Zero();
  double total_normal_N = 0;
  const int end = std::min(in.first_contact + in.num_contacts, static_cast<int>(contacts.size()));
  for (int c = std::max(in.first_contact, 0); c < end; ++c) {
    const ContactResult& r = contacts[c];
    const int f = r.hydroelastic_face;
    const int n = r.hydroelastic_num_faces;  // 0: a patch's pooled tiny polygons
    if (f < 0 || f + n > p->num_faces) continue;
    const double area_m2 = r.face_area_m2;
    if (!(area_m2 > 0)) continue;
    for (int k = f; k < f + n; ++k) {
      out->face_normal_traction_Pa[first_face + k] = (r.normal_force_W / area_m2).cast<float>();
      out->face_tangential_traction_Pa[first_face + k] =
          (r.friction_force_W / area_m2).cast<float>();
    }
    const double fn = r.normal_force_W.norm();
    weighted_centroid += fn * r.position_W;
    total_normal_N += fn;
  }
  if (total_normal_N > 0) {
    p->center_of_pressure_W = weighted_centroid / total_normal_N;
  } else if (p->area_m2 > 0) {
    p->center_of_pressure_W = area_centroid / p->area_m2;
  } else {
    p->center_of_pressure_W.setZero();
  }
}

// Flattens World::hydroelastic_patches() into `out` (HydroelasticSnapshot) without allocating
// once its vectors have held this many faces.
void FillHydroelastic(const World& world, HydroelasticSnapshot* out) {
  const std::vector<HydroelasticPatch>& patches = world.hydroelastic_patches();
  size_t num_faces = 0;
  for (const HydroelasticPatch& p : patches) {
    if (p.surface != nullptr) num_faces += p.surface->faces.size();
  }
  out->patches.resize(patches.size());
  SizeFaceArrays(num_faces, out);
  int first_face = 0;
  for (size_t i = 0; i < patches.size(); ++i) {
    const HydroelasticPatch& in = patches[i];
    PatchSnapshot& p = out->patches[i];
    p.geometry_a = in.geometry_a;
    p.geometry_b = in.geometry_b;
    p.body_a = in.body_a;
    p.body_b = in.body_b;
    p.first_face = first_face;
    p.num_faces = in.surface != nullptr ? static_cast<int>(in.surface->faces.size()) : 0;
    p.area_m2 = 0;
    p.normal_force_W = in.normal_force_W;
    p.friction_force_W = in.friction_force_W;
    p.max_pressure_Pa = 0;
    const Eigen::Vector3d area_centroid =
        p.num_faces > 0 ? CopyFaces(*in.surface, first_face, &p, out) : Eigen::Vector3d::Zero();
    CopyTractions(in, world.contacts(), first_face, area_centroid, &p, out);
    out->max_pressure_Pa = std::max(out->max_pressure_Pa, p.max_pressure_Pa);
    first_face += p.num_faces;
  }
}

}  // namespace

void FillSnapshot(const World& world, uint64_t scene_generation, uint64_t step_index, Snapshot* s) {
  const std::shared_ptr<const SceneSpec>& scene = world.shared_scene();
  s->scene = scene;
  s->scene_generation = scene_generation;
  s->step_index = step_index;
  s->time_s = world.time();
  const int nb = static_cast<int>(world.scene().bodies.size());
  const int ng = world.num_geometries();
  s->body_poses.resize(nb);
  s->body_velocities.resize(nb);
  s->net_normal_force.resize(nb);
  s->net_friction_force.resize(nb);
  for (int b = 0; b < nb; ++b) {
    s->body_poses[b] = world.BodyPose(b);
    s->body_velocities[b] = world.BodyVelocity(b);
    s->net_normal_force[b] = world.NetNormalForce(b);
    s->net_friction_force[b] = world.NetFrictionForce(b);
  }
  s->geometry_poses.resize(ng);
  s->geometry_body.resize(ng);
  s->geometries.resize(ng);
  s->geometry_hydroelastic.resize(ng);
  for (int g = 0; g < ng; ++g) {
    s->geometry_poses[g] = world.GeometryPose(g);
    s->geometry_body[g] = world.geometry_body(g);
    s->geometry_hydroelastic[g] = world.hydroelastic_properties(g);
  }
  // Into the shared scene, which snapshots keep alive beyond the world.
  for (int g = 0; g < ng; ++g) s->geometries[g] = &world.geometry(g);
  s->contacts.assign(world.contacts().begin(), world.contacts().end());
  FillHydroelastic(world, &s->hydroelastic);
  s->stats = world.last_stats();
  s->contact_settings = world.contact_settings();
  s->position_error_by_body.assign(world.position_error_by_body().begin(),
                                   world.position_error_by_body().end());
}

const ContactResult* StrongestContact(const World& world, int scene_body) {
  const ContactResult* strongest = nullptr;
  double strongest_force = -1;
  for (const ContactResult& c : world.contacts()) {
    if (c.body_a != scene_body && c.body_b != scene_body) continue;
    const double f = c.normal_force_W.norm();
    if (f > strongest_force) {
      strongest_force = f;
      strongest = &c;
    }
  }
  return strongest;
}

}  // namespace contactlab
