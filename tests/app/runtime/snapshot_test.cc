// FillSnapshot's copy of the hydroelastic contact patches (docs/contact-model.md §5) for the
// renderer, checked on the hydro_box scene against known answers: at rest the patch is the
// box's whole 10 × 10 cm bottom face, its normal traction carries the weight of the box and
// the ball on it, and a warm refill reuses the storage.
#include "app/runtime/snapshot.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "engine/world/world.h"
#include "test_support/hydro_box_scene.h"

namespace contactlab {
namespace {

constexpr double kG = 9.81;

double TriangleArea(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c) {
  return 0.5 * (b - a).cast<double>().cross((c - a).cast<double>()).norm();
}

class SnapshotHydroelasticTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scene_ = std::make_shared<const SceneSpec>(testing::HydroBoxScene());
    world_ = std::make_unique<World>(scene_);
    for (int i = 0; i < 1000; ++i) ASSERT_TRUE(world_->Step());  // 1 s: at rest
    FillSnapshot(*world_, 1, 1000, &snapshot_);
  }
  std::shared_ptr<const SceneSpec> scene_;
  std::unique_ptr<World> world_;
  Snapshot snapshot_;
};

TEST_F(SnapshotHydroelasticTest, CopiesTheRestingBoxPatch) {
  const HydroelasticSnapshot& h = snapshot_.hydroelastic;
  ASSERT_EQ(world_->hydroelastic_patches().size(), 1u);
  ASSERT_EQ(h.patches.size(), 1u);
  const HydroelasticPatch& in = world_->hydroelastic_patches()[0];
  const PatchSnapshot& p = h.patches[0];
  const int box = scene_->FindBody("box"), ground = scene_->FindBody("ground");
  EXPECT_EQ(p.body_a, box) << "A is the compliant box";
  EXPECT_EQ(p.body_b, ground);
  EXPECT_EQ(p.geometry_a, in.geometry_a);
  EXPECT_EQ(p.geometry_b, in.geometry_b);
  EXPECT_EQ(p.first_face, 0);
  ASSERT_EQ(p.num_faces, static_cast<int>(in.surface->faces.size()));
  ASSERT_EQ(h.num_faces(), p.num_faces);
  ASSERT_EQ(h.triangle_vertices_W.size(), 3u * p.num_faces);
  ASSERT_EQ(h.vertex_pressure_Pa.size(), 3u * p.num_faces);
  ASSERT_GT(p.num_faces, 50) << "a 1 cm mesh under a 10 cm face";

  // The triangles tile the whole bottom face: their areas (from the copied corners) sum to
  // 10 cm × 10 cm, as do the per-face areas and the patch's.
  double triangle_area = 0, face_area = 0;
  for (int f = 0; f < h.num_faces(); ++f) {
    triangle_area += TriangleArea(h.triangle_vertices_W[3 * f], h.triangle_vertices_W[3 * f + 1],
                                  h.triangle_vertices_W[3 * f + 2]);
    face_area += h.face_area_m2[f];
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(h.triangle_vertices_W[3 * f + k].z(), 0.0f, 1e-6f) << "on the ground plane";
    }
  }
  EXPECT_NEAR(triangle_area, testing::kHydroBoxBottomArea_m2,
              1e-4 * testing::kHydroBoxBottomArea_m2);
  EXPECT_NEAR(face_area, testing::kHydroBoxBottomArea_m2, 1e-4 * testing::kHydroBoxBottomArea_m2);
  EXPECT_NEAR(p.area_m2, testing::kHydroBoxBottomArea_m2, 1e-9);

  // Pressures, centroids and normals are the world's (in float).
  const hydroelastic::ContactSurface& surface = *in.surface;
  float max_pressure = 0;
  for (int f = 0; f < h.num_faces(); ++f) {
    const hydroelastic::ContactFace& face = surface.faces[f];
    for (int k = 0; k < 3; ++k) {
      const int v = face.vertices[k];
      EXPECT_EQ(h.vertex_pressure_Pa[3 * f + k], static_cast<float>(surface.vertex_pressure_Pa[v]));
      EXPECT_EQ(h.triangle_vertices_W[3 * f + k], surface.vertices_W[v].cast<float>());
      max_pressure = std::max(max_pressure, h.vertex_pressure_Pa[3 * f + k]);
    }
    EXPECT_EQ(h.face_pressure_Pa[f], static_cast<float>(face.pressure_Pa));
    EXPECT_EQ(h.face_centroid_W[f], face.centroid_W.cast<float>());
    EXPECT_LT((h.face_normal_W[f] - Eigen::Vector3f(0, 0, -1)).norm(), 1e-6f)
        << "from the box (A) into the ground (B)";
    max_pressure = std::max(max_pressure, h.face_pressure_Pa[f]);
  }
  EXPECT_EQ(h.max_pressure_Pa, max_pressure);
  EXPECT_EQ(p.max_pressure_Pa, max_pressure);

  // Known answer at rest: the normal traction integrated over the patch is the weight of the
  // box and the ball on it, pushing the ground (B) down; no friction; the mean pressure is that
  // weight over the area (1.3 kg g / 0.01 m² = 1275 Pa), centred under the box.
  const double weight_N = (testing::kHydroBoxMass_kg + testing::kHydroBoxTopBallMass_kg) * kG;
  Eigen::Vector3d normal = Eigen::Vector3d::Zero(), tangential = Eigen::Vector3d::Zero();
  double pressure_force = 0;
  for (int f = 0; f < h.num_faces(); ++f) {
    normal += h.face_normal_traction_Pa[f].cast<double>() * h.face_area_m2[f];
    tangential += h.face_tangential_traction_Pa[f].cast<double>() * h.face_area_m2[f];
    pressure_force += static_cast<double>(h.face_pressure_Pa[f]) * h.face_area_m2[f];
  }
  EXPECT_NEAR(normal.z(), -weight_N, 2e-3 * weight_N);
  EXPECT_NEAR(normal.head<2>().norm(), 0.0, 1e-4 * weight_N);
  EXPECT_LT(tangential.norm(), 1e-4 * weight_N);
  const double mean_pressure_Pa = weight_N / testing::kHydroBoxBottomArea_m2;  // 1275 Pa
  EXPECT_NEAR(pressure_force / testing::kHydroBoxBottomArea_m2, mean_pressure_Pa,
              0.01 * mean_pressure_Pa);
  EXPECT_NEAR(p.normal_force_W.z(), -weight_N, 2e-3 * weight_N);
  EXPECT_LT(p.center_of_pressure_W.head<2>().norm(), 1e-3);
  EXPECT_NEAR(p.center_of_pressure_W.z(), 0.0, 1e-6);

  // Every face contact of the snapshot points at a face of this patch with its traction.
  int faces_with_contact = 0;
  for (const ContactResult& c : snapshot_.contacts) {
    if (c.hydroelastic_patch < 0) continue;
    ASSERT_EQ(c.hydroelastic_patch, 0);
    ASSERT_GE(c.hydroelastic_face, 0);
    ASSERT_LT(c.hydroelastic_face, p.num_faces);
    const Eigen::Vector3d expected = c.normal_force_W / c.face_area_m2;
    EXPECT_LT((h.face_normal_traction_Pa[c.hydroelastic_face].cast<double>() - expected).norm(),
              1e-5 * expected.norm() + 1e-6);
    ++faces_with_contact;
  }
  EXPECT_EQ(faces_with_contact, in.num_contacts);
}

TEST_F(SnapshotHydroelasticTest, WarmRefillReusesStorage) {
  // Snapshots are pooled and refilled every step: the same contact set must not reallocate.
  const HydroelasticSnapshot& h = snapshot_.hydroelastic;
  const auto* patches = h.patches.data();
  const auto* vertices = h.triangle_vertices_W.data();
  const auto* pressures = h.vertex_pressure_Pa.data();
  const auto* tractions = h.face_normal_traction_Pa.data();
  const int faces = h.num_faces();
  ASSERT_TRUE(world_->Step());
  FillSnapshot(*world_, 1, 1001, &snapshot_);
  ASSERT_EQ(h.num_faces(), faces) << "at rest the surface does not change";
  EXPECT_EQ(h.patches.data(), patches);
  EXPECT_EQ(h.triangle_vertices_W.data(), vertices);
  EXPECT_EQ(h.vertex_pressure_Pa.data(), pressures);
  EXPECT_EQ(h.face_normal_traction_Pa.data(), tractions);
}

TEST(SnapshotHydroelastic, PointContactSceneHasNoPatches) {
  const auto scene =
      std::make_shared<const SceneSpec>(testing::HydroBoxScene({.box_hydroelastic = false}));
  World world(*scene);
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(world.Step());
  Snapshot s;
  FillSnapshot(world, 1, 50, &s);
  EXPECT_FALSE(s.contacts.empty());
  EXPECT_TRUE(s.hydroelastic.empty());
  EXPECT_EQ(s.hydroelastic.num_faces(), 0);
  EXPECT_TRUE(s.hydroelastic.triangle_vertices_W.empty());
  EXPECT_EQ(s.hydroelastic.max_pressure_Pa, 0.0f);
}

}  // namespace
}  // namespace contactlab
