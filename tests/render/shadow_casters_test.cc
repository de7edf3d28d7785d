// When a shadow map drawn earlier still shows its casters: a quarter texel is the limit for
// any point of a caster, by translation and by turning.
#include "render/shadow_casters.h"

#include <gtest/gtest.h>

#include <cmath>

namespace contactlab {
namespace {

constexpr float kLimit_m = 1e-3f;  // what the renderer passes: a quarter of a texel

Eigen::Isometry3d At(double x, double angle_z_rad = 0) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Eigen::Vector3d(x, 0.2, 0.1);
  X.linear() = Eigen::AngleAxisd(angle_z_rad, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  return X;
}

const ShadowMapInputs kInputs{nullptr, 1, 1024, false};

// Draws the map for one caster (id 3, radius r) at X, then looks at the caster at Y.
bool ShownAfterMove(const Eigen::Isometry3d& X, const Eigen::Isometry3d& Y, float radius_m) {
  ShadowCasters casters;
  casters.Add(3, X, radius_m);
  casters.Remember(kInputs);
  casters.Clear();
  casters.Add(3, Y, radius_m);
  return casters.ShownByDrawnMap(kInputs, kLimit_m);
}

TEST(ShadowCasters, NothingDrawnShowsNothing) {
  ShadowCasters casters;
  casters.Add(3, At(0), 0.1f);
  EXPECT_FALSE(casters.ShownByDrawnMap(kInputs, kLimit_m));
}

TEST(ShadowCasters, TranslationWithinTheLimitKeepsTheMap) {
  EXPECT_TRUE(ShownAfterMove(At(0), At(0), 0.1f));
  EXPECT_TRUE(ShownAfterMove(At(0), At(0.9e-3), 0.1f));
  EXPECT_FALSE(ShownAfterMove(At(0), At(1.1e-3), 0.1f));
}

TEST(ShadowCasters, TurningMovesTheFarPointsByRadiusTimesAngle) {
  // A box of radius 0.1 m turned by θ moves its far corners by 2 · 0.1 · sin(θ/2) ≈ 0.1 θ; the
  // bound (Frobenius norm: 2 · sin(θ/2) · √2) stops at 0.1 θ √2 = 1 mm, θ ≈ 7.07 mrad.
  EXPECT_TRUE(ShownAfterMove(At(0), At(0, 6.5e-3), 0.1f));
  EXPECT_FALSE(ShownAfterMove(At(0), At(0, 7.5e-3), 0.1f));
  // A ball (radius 0 for turning) keeps its shadow however far it spins in place.
  EXPECT_TRUE(ShownAfterMove(At(0), At(0, 1.0), 0.0f));
}

TEST(ShadowCasters, AnotherCasterSetOrInputsDrawsAgain) {
  ShadowCasters casters;
  casters.Add(3, At(0), 0.1f);
  casters.Add(5, At(1), 0.1f);
  casters.Remember(kInputs);
  EXPECT_TRUE(casters.ShownByDrawnMap(kInputs, kLimit_m));
  ShadowMapInputs bigger = kInputs;
  bigger.map_size_texels = 2048;
  EXPECT_FALSE(casters.ShownByDrawnMap(bigger, kLimit_m));
  ShadowMapInputs next_scene = kInputs;
  next_scene.scene_generation = 2;
  EXPECT_FALSE(casters.ShownByDrawnMap(next_scene, kLimit_m));
  casters.Clear();  // caster 5 stopped casting (say, turned see-through): id 4
  casters.Add(3, At(0), 0.1f);
  casters.Add(4, At(1), 0.1f);
  EXPECT_FALSE(casters.ShownByDrawnMap(kInputs, kLimit_m));
  casters.Clear();  // one caster fewer
  casters.Add(3, At(0), 0.1f);
  EXPECT_FALSE(casters.ShownByDrawnMap(kInputs, kLimit_m));
}

TEST(ShadowCasters, ForgottenOrNonFinitePosesDrawAgain) {
  ShadowCasters casters;
  casters.Add(3, At(0), 0.1f);
  casters.Remember(kInputs);
  casters.Forget();
  EXPECT_FALSE(casters.ShownByDrawnMap(kInputs, kLimit_m));
  EXPECT_FALSE(ShownAfterMove(At(0), At(NAN), 0.1f));
}

}  // namespace
}  // namespace contactlab
