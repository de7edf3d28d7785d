// Hydroelastic contact surfaces (docs/contact-model.md §5; paper §VI-B and appendix X-B/X-C).
//
// Conventions: the pair is (A, B); every face normal n̂ points from A into B, i.e. B moving
// along n̂ separates the bodies, and the pressure on a face pushes B along +n̂ (the force on A is
// the opposite). Faces are triangles fanned from the area centroid of each intersection polygon
// (paper §VI-B.2: only zero-area triangles appear or vanish, so forces are continuous).
// All outputs are in the world frame W.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <array>
#include <limits>
#include <utility>
#include <vector>

#include "engine/hydroelastic/hydroelastic_geometry.h"

namespace contactlab::hydroelastic {

inline constexpr double kRigidPressureGradient = std::numeric_limits<double>::infinity();

struct ContactFace {
  std::array<int, 3> vertices{};  // into ContactSurface::vertices_W (centroid, v_i, v_i+1)
  double area_m2 = 0.0;           // A_f
  Eigen::Vector3d centroid_W = Eigen::Vector3d::Zero();  // c_f
  Eigen::Vector3d normal_W = Eigen::Vector3d::UnitZ();   // n̂_f, unit, from A into B
  double pressure_Pa = 0.0;                              // p0_f at c_f
  // g_X = |∇p_X · n̂| [Pa/m], how fast body X's pressure rises going into X;
  // kRigidPressureGradient (∞) for a rigid body.
  double g_A_Pa_per_m = 0.0;
  double g_B_Pa_per_m = 0.0;
  // The penetration the pressure field implies at c_f [m] (docs/contact-model.md §5): how deep
  // c_f lies in A plus how deep in B, each p0_f/|∇p_X|, the distance from c_f to where X's
  // pressure, linear in its tet, falls to zero (0 for a rigid side: c_f is on its surface).
  // NaN where a tet's field is so flat that this is deeper than any point of the body can lie.
  // Unlike the solver's −φ0_f = p0_f/g_f it stays a depth where n̂ runs across the field (g
  // along n̂ → 0: the side of a rigid box sunk into a pad).
  double penetration_m = 0.0;
  // The polygon this face is a piece of: its fan's faces are consecutive; on the first one,
  // polygon_faces = the fan's face count and polygon_size = the polygon's area over its tet's
  // longest edge squared (how big it is for its mesh); 0 on the other faces. The solver
  // coupling merges small polygons (World: slivers where a plane grazes a tet near an edge or
  // vertex of the surface carry next to no force but would cost constraints).
  int polygon_faces = 0;
  double polygon_size = 0.0;
};

struct ContactSurface {
  std::vector<Eigen::Vector3d> vertices_W;  // polygon vertices and centroids
  std::vector<double> vertex_pressure_Pa;   // p at each vertex (for display)
  std::vector<ContactFace> faces;

  // Keeps the capacity (so a surface reused across steps does not allocate).
  void Clear();
  bool empty() const { return faces.empty(); }
  double TotalArea_m2() const;
  // Σ_f A_f p0_f n̂_f: the force of A on B [N] (one-point quadrature per face; exact for the
  // linear pressure on each face).
  Eigen::Vector3d NetForceOnB_W() const;
  // Σ_f (c_f − o) × A_f p0_f n̂_f: moment of A's pressure on B about the point o [N m].
  Eigen::Vector3d NetMomentOnB_W(const Eigen::Vector3d& o_W) const;
  // Re-labels the pair as (B, A): normals negated and g_A, g_B swapped.
  void SwapBodies();
};

// The point-contact constraint a face becomes in the convex solver (docs/contact-model.md §5):
// g_f = g_A g_B/(g_A + g_B) (springs in series; a rigid side contributes g = ∞),
// φ0_f = −p0_f/g_f, k_f = A_f g_f, so that k_f·(−φ0_f) = A_f p0_f.
struct FacePointContact {
  double g_Pa_per_m = 0.0;
  double phi0_m = 0.0;
  double stiffness_N_per_m = 0.0;
  // false when g_f is (numerically) zero: such a face carries no stiffness and should be
  // skipped (its pressure cannot be represented by a spring).
  bool valid = false;
};
// Always finite (no NaN/∞) for any finite area and pressure and any g ≥ 0 including ∞.
FacePointContact ComputeFacePointContact(const ContactFace& face);

// Reusable traversal stacks: one per thread; after the first queries no heap allocation
// happens except growth of the output surface.
struct ContactSurfaceScratch {
  std::vector<std::pair<int, int>> pair_stack;
  std::vector<int> node_stack;
  std::vector<int> face_stack;  // compliant–rigid mesh: the rigid BVH's traversal
};

// Compliant A against rigid B (triangle mesh: rigid triangles ∩ tets, Sutherland–Hodgman; or
// half-space: plane ∩ tets). Rigid triangles whose outward normal is more than 5π/8 from A's
// pressure gradient are back faces (the far side of B inside A) and are skipped, as in Drake.
// Overwrites *out.
void ComputeContactSurface(const CompliantGeometry& A, const Eigen::Isometry3d& X_WA,
                           const RigidGeometry& B, const Eigen::Isometry3d& X_WB,
                           ContactSurfaceScratch* scratch, ContactSurface* out);

// Compliant A against compliant B: for each overlapping tet pair, the plane p_A = p_B (paper
// appendix X-B) sliced by tet A and clipped by tet B. Pairs whose plane normal is more than
// 5π/8 from either pressure gradient (inverted configurations) are skipped. Overwrites *out.
void ComputeContactSurface(const CompliantGeometry& A, const Eigen::Isometry3d& X_WA,
                           const CompliantGeometry& B, const Eigen::Isometry3d& X_WB,
                           ContactSurfaceScratch* scratch, ContactSurface* out);

}  // namespace contactlab::hydroelastic
