// Peg-in-hole alignment against hand-worked poses of the default scene's peg and hole.
#include "app/peg_alignment.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "io/scene_loader.h"

namespace contactlab {
namespace {

class PegAlignmentTest : public ::testing::Test {
 protected:
  PegAlignmentTest() : world_(LoadSceneFile(ResolveScenePath("peg_in_hole"))) {}
  World world_;
};

TEST_F(PegAlignmentTest, FindsTheHoleOfTheDefaultScene) {
  const std::optional<PegHole> hole = FindPegHole(world_);
  ASSERT_TRUE(hole.has_value());
  EXPECT_EQ(hole->peg, world_.scene().FindBody("peg"));
  // The hole is wider than the peg (a clearance), and its centre is the block's origin.
  EXPECT_GT(hole->hole_half_width_m, std::min(hole->peg_half_m.x(), hole->peg_half_m.y()));
  EXPECT_EQ(hole->hole_center_W, world_.BodyPose(hole->block).translation());
  World no_hole(LoadSceneFile(ResolveScenePath("conveyor")));
  EXPECT_FALSE(FindPegHole(no_hole).has_value());
}

TEST_F(PegAlignmentTest, AnUprightPegOffsetAndAboveTheHole) {
  const PegHole hole = *FindPegHole(world_);
  const double hz = hole.peg_half_m.z();
  Eigen::Isometry3d X_WP = Eigen::Isometry3d::Identity();
  // Its bottom 20 mm above the top, its axis 3 mm along x and 4 mm along y from the hole's.
  X_WP.translation() = hole.hole_center_W + Eigen::Vector3d(0.003, 0.004, 0);
  X_WP.translation().z() = hole.block_top_z_m + 0.02 + hz;
  const PegAlignment a = MeasurePegAlignment(hole, X_WP);
  EXPECT_NEAR(a.height_above_hole_m, 0.02, 1e-12);
  EXPECT_NEAR(a.lateral_offset_m, 0.005, 1e-12);
  EXPECT_NEAR(a.tilt_rad, 0.0, 1e-12);
  EXPECT_EQ(a.insertion_depth_m, 0.0);
  EXPECT_FALSE(a.inserted);
  ASSERT_TRUE(a.landing_point_W.has_value());
  EXPECT_LT((*a.landing_point_W -
             Eigen::Vector3d(X_WP.translation().x(), X_WP.translation().y(), hole.block_top_z_m))
                .norm(),
            1e-12);
  // 15 mm down into the hole, axis inside the footprint: inserted.
  X_WP.translation().z() -= 0.035;
  const PegAlignment in = MeasurePegAlignment(hole, X_WP);
  EXPECT_NEAR(in.insertion_depth_m, 0.015, 1e-12);
  EXPECT_TRUE(in.inserted);
}

TEST_F(PegAlignmentTest, ATiltedPegLandsWhereItsAxisMeetsTheTop) {
  const PegHole hole = *FindPegHole(world_);
  const double tilt = 0.2;  // about x: the axis leans toward −y going up, +y going down
  Eigen::Isometry3d X_WP = Eigen::Isometry3d::Identity();
  X_WP.linear() = Eigen::AngleAxisd(tilt, Eigen::Vector3d::UnitX()).toRotationMatrix();
  X_WP.translation() = hole.hole_center_W + Eigen::Vector3d(0, 0, 0.1);
  const PegAlignment a = MeasurePegAlignment(hole, X_WP);
  EXPECT_NEAR(a.tilt_rad, tilt, 1e-12);
  // The axis bottom is at p − h z_W; from there it goes down h' = (its height over the top)
  // along −z_W: the landing point is h'·tan(tilt) further along −y·sin... worked out directly:
  const Eigen::Vector3d z_W(0, -std::sin(tilt), std::cos(tilt));
  const Eigen::Vector3d bottom = X_WP.translation() - hole.peg_half_m.z() * z_W;
  const double s = (hole.block_top_z_m - bottom.z()) / z_W.z();
  ASSERT_TRUE(a.landing_point_W.has_value());
  EXPECT_LT((*a.landing_point_W - (bottom + s * z_W)).norm(), 1e-12);
  EXPECT_NEAR(a.landing_point_W->z(), hole.block_top_z_m, 1e-12);
  EXPECT_GT(a.landing_point_W->y(), X_WP.translation().y());  // it lands toward +y
  // The outline: four corners on the top, the hole's half width from its axis.
  for (const Eigen::Vector3d& c : HoleOutline(hole)) {
    EXPECT_EQ(c.z(), hole.block_top_z_m);
    EXPECT_NEAR((c - hole.hole_center_W).head<2>().cwiseAbs().maxCoeff(), hole.hole_half_width_m,
                1e-15);
  }
}

}  // namespace
}  // namespace contactlab
