#include "engine/world/hydroelastic_faces.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contactlab {
namespace {

void AppendSet(int geometry_a, int geometry_b, int patch, int first_face, int num_faces,
               const FaceSum& sum, std::vector<ContactCandidate>* out) {
  if (!(sum.stiffness_N_per_m > 0)) return;  // no pressure gradient along n̂: no spring
  ContactCandidate c;
  c.geometry_a = geometry_a;
  c.geometry_b = geometry_b;
  c.point.normal_W = sum.normal_W;
  c.point.p_A_W = c.point.p_B_W = sum.CenterOfPressure();
  c.point.signed_distance_m = -sum.elastic_force_N / sum.stiffness_N_per_m;
  c.patch = patch;
  c.face = first_face;
  c.num_faces = num_faces;
  c.face_area_m2 = sum.area_m2;
  c.face_pressure_Pa = sum.area_m2 > 0 ? sum.elastic_force_N / sum.area_m2 : 0.0;
  c.face_stiffness_N_per_m = sum.stiffness_N_per_m;
  c.face_elastic_force_N = sum.elastic_force_N;
  c.face_penetration_m = sum.Penetration();
  out->push_back(c);
}

// The pool of a patch's tiny polygons with this normal (a polygon's faces share its normal;
// pools are few, one per normal direction).
FaceSum* PoolFor(const hydroelastic::ContactFace& first, int f, TinyPolygonPools* pools) {
  for (auto& [pool_first, candidate] : *pools) {
    if (candidate.normal_W.dot(first.normal_W) > 1 - 1e-9) return &candidate;
  }
  FaceSum* pool = &pools->emplace_back(f, FaceSum()).second;
  pool->normal_W = first.normal_W;
  return pool;
}

}  // namespace

void FaceSum::Add(const hydroelastic::ContactFace& face) {
  const hydroelastic::FacePointContact fc = hydroelastic::ComputeFacePointContact(face);
  if (!fc.valid) return;
  const double area = std::max(0.0, face.area_m2);
  const double force = area * std::max(0.0, face.pressure_Pa);
  normal_W = face.normal_W;
  area_m2 += area;
  stiffness_N_per_m += fc.stiffness_N_per_m;
  elastic_force_N += force;
  force_moment += force * face.centroid_W;
  area_moment += area * face.centroid_W;
  if (std::isfinite(face.penetration_m)) {
    penetration_area_m2 += area;
    penetration_volume_m3 += area * face.penetration_m;
  }
}

double FaceSum::Penetration() const {
  return penetration_area_m2 > 0 ? penetration_volume_m3 / penetration_area_m2
                                 : std::numeric_limits<double>::quiet_NaN();
}

Eigen::Vector3d FaceSum::CenterOfPressure() const {
  if (elastic_force_N > 0) return force_moment / elastic_force_N;
  if (area_m2 > 0) return area_moment / area_m2;
  return area_moment;
}

void AppendFaceContacts(const hydroelastic::ContactSurface& surface, int a, int b, int patch,
                        TinyPolygonPools* pools, std::vector<ContactCandidate>* out) {
  pools->clear();
  const int nf = static_cast<int>(surface.faces.size());
  for (int f = 0; f < nf;) {
    const hydroelastic::ContactFace& first = surface.faces[f];
    const int count = std::clamp(first.polygon_faces, 1, nf - f);
    if (first.polygon_faces <= 0 || first.polygon_size >= kFanPolygonSize) {
      for (int k = f; k < f + count; ++k) {
        FaceSum sum;
        sum.Add(surface.faces[k]);
        AppendSet(a, b, patch, k, 1, sum, out);
      }
    } else if (first.polygon_size >= kTinyPolygonSize) {
      FaceSum sum;
      for (int k = f; k < f + count; ++k) sum.Add(surface.faces[k]);
      AppendSet(a, b, patch, f, count, sum, out);
    } else {
      FaceSum* pool = PoolFor(first, f, pools);
      for (int k = f; k < f + count; ++k) pool->Add(surface.faces[k]);
    }
    f += count;
  }
  for (const auto& [pool_first, sum] : *pools) AppendSet(a, b, patch, pool_first, 0, sum, out);
}

}  // namespace contactlab
