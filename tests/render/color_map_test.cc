// The pressure colour map (viridis) against its published values, its monotone lightness, and
// the patch layer's pure helpers: the pressure range, the arrows' side and scales.
#include "render/color_map.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "render/palette.h"
#include "render/patch_layer.h"
#include "render/render_layers.h"
#include "render/rgb8.h"

namespace contactlab {
namespace {

void ExpectNear(Rgb8 actual, Rgb8 expected, int tolerance) {
  EXPECT_NEAR(actual.r, expected.r, tolerance);
  EXPECT_NEAR(actual.g, expected.g, tolerance);
  EXPECT_NEAR(actual.b, expected.b, tolerance);
}

// CIE L* of an sRGB colour (0–1): the perceived lightness.
double Lightness(const Eigen::Vector3f& srgb) {
  auto linear = [](double c) {
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  };
  const double y =
      0.2126 * linear(srgb.x()) + 0.7152 * linear(srgb.y()) + 0.0722 * linear(srgb.z());
  return y > 216.0 / 24389.0 ? 116.0 * std::cbrt(y) - 16.0 : y * 24389.0 / 27.0;
}

TEST(PressureColorMap, MatchesViridis) {
  // matplotlib's viridis: #440154 at 0, #3B528B at 0.25, #21918C at 0.5, #5EC962 at 0.75,
  // #FDE725 at 1.
  ExpectNear(PressureColorMap8(0.0f), Rgb8{0x44, 0x01, 0x54}, 0);
  ExpectNear(PressureColorMap8(0.25f), Rgb8{0x3b, 0x52, 0x8b}, 1);
  ExpectNear(PressureColorMap8(0.5f), Rgb8{0x21, 0x91, 0x8c}, 1);
  ExpectNear(PressureColorMap8(0.75f), Rgb8{0x5e, 0xc9, 0x62}, 1);
  ExpectNear(PressureColorMap8(1.0f), Rgb8{0xfd, 0xe7, 0x25}, 0);
}

TEST(PressureColorMap, LightnessRisesMonotonically) {
  // From dark (L* ≈ 16) to light (L* ≈ 92), never going back: higher pressure always reads
  // lighter, also in grey scale.
  double previous = -1;
  for (int i = 0; i <= 1000; ++i) {
    const double l = Lightness(PressureColorMap(static_cast<float>(i) / 1000.0f));
    EXPECT_GT(l, previous) << "t = " << i / 1000.0;
    previous = l;
  }
  EXPECT_LT(Lightness(PressureColorMap(0.0f)), 20.0);
  EXPECT_GT(Lightness(PressureColorMap(1.0f)), 85.0);
}

TEST(PressureColorMap, ClampsAndTable) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ExpectNear(PressureColorMap8(-3.0f), PressureColorMap8(0.0f), 0);
  ExpectNear(PressureColorMap8(nan), PressureColorMap8(0.0f), 0);
  ExpectNear(PressureColorMap8(7.0f), PressureColorMap8(1.0f), 0);
  ExpectNear(PressureColorMap8(std::numeric_limits<float>::infinity()), PressureColorMap8(1.0f), 0);
  const auto table = PressureColorMapTable();
  for (int i = 0; i < 256; ++i) {
    ExpectNear(Rgb8{table[3 * i], table[3 * i + 1], table[3 * i + 2]},
               PressureColorMap8(static_cast<float>(i) / 255.0f), 0);
  }
}

TEST(PressureColorMap, NormalizedPressure) {
  EXPECT_FLOAT_EQ(NormalizedPressure(500.0f, 0.0f, 2000.0f), 0.25f);
  EXPECT_FLOAT_EQ(NormalizedPressure(1.5e5f, 1e5f, 2e5f), 0.5f);
  EXPECT_EQ(NormalizedPressure(-10.0f, 0.0f, 2000.0f), 0.0f);
  EXPECT_EQ(NormalizedPressure(5000.0f, 0.0f, 2000.0f), 1.0f);
  EXPECT_EQ(NormalizedPressure(100.0f, 0.0f, 0.0f), 0.0f) << "empty range";
  EXPECT_EQ(NormalizedPressure(100.0f, 10.0f, 5.0f), 0.0f) << "inverted range";
  EXPECT_EQ(NormalizedPressure(std::numeric_limits<float>::quiet_NaN(), 0.0f, 1.0f), 0.0f);
  EXPECT_EQ(NormalizedPressure(1.0f, 0.0f, std::numeric_limits<float>::infinity()), 0.0f);
}

// One patch of two faces between geometry 1 (A, compliant) and geometry 0 (B, e.g. the
// ground), pressed down by 10 N and dragged along +x by 2 N on B.
Snapshot OnePatch() {
  Snapshot s;
  HydroelasticSnapshot& h = s.hydroelastic;
  PatchSnapshot p;
  p.geometry_a = 1;
  p.geometry_b = 0;
  p.body_a = 1;
  p.body_b = 0;
  p.first_face = 0;
  p.num_faces = 2;
  p.area_m2 = 0.002;
  p.normal_force_W = Eigen::Vector3d(0, 0, -10);
  p.friction_force_W = Eigen::Vector3d(2, 0, 0);
  p.center_of_pressure_W = Eigen::Vector3d(0.1, 0.2, 0);
  p.max_pressure_Pa = 6000;
  h.patches.push_back(p);
  for (int f = 0; f < 2; ++f) {
    for (int k = 0; k < 3; ++k) {
      h.triangle_vertices_W.emplace_back(0.01f * f + 0.01f * k, 0.01f * (k == 2), 0.0f);
      h.vertex_pressure_Pa.push_back(4000.0f + 1000.0f * f);
    }
    h.face_centroid_W.emplace_back(0.01f * f, 0.0f, 0.0f);
    h.face_normal_W.emplace_back(0.0f, 0.0f, -1.0f);
    h.face_area_m2.push_back(0.001f);
    h.face_pressure_Pa.push_back(5000.0f);
    h.face_normal_traction_Pa.emplace_back(0.0f, 0.0f, -5000.0f);
    h.face_tangential_traction_Pa.emplace_back(1000.0f, 0.0f, 0.0f);
  }
  h.max_pressure_Pa = 6000;
  return s;
}

TEST(PatchLayer, PressureRangeFallsBackToTheSnapshotMaximum) {
  const Snapshot s = OnePatch();
  RenderLayers layers;
  layers.pressure_min_Pa = 100;
  layers.pressure_max_Pa = 2e4f;
  PressureRange r = EffectivePressureRange(layers, s.hydroelastic);
  EXPECT_EQ(r.min_Pa, 100.0f);
  EXPECT_EQ(r.max_Pa, 2e4f);
  layers.pressure_max_Pa = 0;  // unset (auto before the UI's first frame)
  r = EffectivePressureRange(layers, s.hydroelastic);
  EXPECT_EQ(r.min_Pa, 0.0f);
  EXPECT_EQ(r.max_Pa, 6000.0f);
  layers.pressure_max_Pa = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(EffectivePressureRange(layers, s.hydroelastic).max_Pa, 6000.0f);
}

TEST(PatchLayer, ArrowsShowTheForceOnTheLaterGeometry) {
  // Geometry 1 (the compliant box) is later than the ground (0): its arrows show the force on
  // the box, the opposite of the force on B, as a point contact's arrow would.
  Snapshot s = OnePatch();
  EXPECT_EQ(PatchArrowSign(s.hydroelastic.patches[0]), -1.0f);
  RenderLayers layers;
  std::vector<PatchArrow> arrows;
  PatchArrows(s, layers, &arrows);
  ASSERT_EQ(arrows.size(), 2u) << "net normal and friction, no traction by default";
  EXPECT_TRUE(arrows[0].origin_W.isApprox(Eigen::Vector3f(0.1f, 0.2f, 0.0f)));
  EXPECT_TRUE(arrows[0].vector.isApprox(Eigen::Vector3f(0, 0, 10)));  // 10 N up, unscaled
  EXPECT_EQ(arrows[0].color.r, kNormalForceColor.r);
  EXPECT_TRUE(arrows[1].vector.isApprox(Eigen::Vector3f(-2, 0, 0)));
  EXPECT_FALSE(arrows[0].traction);

  layers.traction_arrows = true;
  layers.normal_forces = layers.friction_forces = false;
  PatchArrows(s, layers, &arrows);
  ASSERT_EQ(arrows.size(), 4u) << "normal and tangential traction per face";
  for (const PatchArrow& a : arrows) EXPECT_TRUE(a.traction);
  EXPECT_TRUE(arrows[0].vector.isApprox(Eigen::Vector3f(0, 0, 5e3f)));  // 5 kPa
  EXPECT_TRUE(arrows[1].vector.isApprox(Eigen::Vector3f(-1e3f, 0, 0)));
  EXPECT_TRUE(arrows[2].origin_W.isApprox(Eigen::Vector3f(0.01f, 0, 0)));

  // The same pair the other way round (A earlier): the force on B as given.
  std::swap(s.hydroelastic.patches[0].geometry_a, s.hydroelastic.patches[0].geometry_b);
  EXPECT_EQ(PatchArrowSign(s.hydroelastic.patches[0]), 1.0f);
  PatchArrows(s, layers, &arrows);
  EXPECT_TRUE(arrows[0].vector.isApprox(Eigen::Vector3f(0, 0, -5e3f)));

  // Patch layer off: no net arrows (the faces' own arrows are drawn instead); traction stays.
  layers.contact_patches = false;
  layers.normal_forces = true;
  PatchArrows(s, layers, &arrows);
  EXPECT_EQ(arrows.size(), 4u);
}

TEST(PatchLayer, FaceContactsGiveWayToThePatch) {
  Snapshot s = OnePatch();
  ContactResult face, point;
  face.hydroelastic_patch = 0;
  face.hydroelastic_face = 1;
  RenderLayers layers;
  EXPECT_TRUE(ShownAsPatch(face, s, layers));
  EXPECT_FALSE(ShownAsPatch(point, s, layers));
  face.hydroelastic_patch = 3;  // no such patch in the snapshot: drawn as a point
  EXPECT_FALSE(ShownAsPatch(face, s, layers));
  face.hydroelastic_patch = 0;
  layers.contact_patches = false;
  EXPECT_FALSE(ShownAsPatch(face, s, layers));

  std::vector<char> marks;
  MarkPatchGeometries(s.hydroelastic, true, 3, &marks);
  EXPECT_EQ(marks, (std::vector<char>{1, 1, 0}));
  MarkPatchGeometries(s.hydroelastic, false, 3, &marks);
  EXPECT_EQ(marks, (std::vector<char>{0, 0, 0}));
  MarkPatchGeometries(s.hydroelastic, true, 1, &marks);  // out-of-range index ignored
  EXPECT_EQ(marks, (std::vector<char>{1}));
}

}  // namespace
}  // namespace contactlab
