// Peg-in-hole alignment against hand-worked poses of the default scene's peg and hole.
#include "app/teleop/peg_alignment.h"

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

// Whether the peg's axis is in the hole's footprint, near the corners where a square and a round
// hole differ. Both default holes are 20.5 mm across (a 20 mm peg with 0.5 mm clearance,
// assets/scenes/peg_in_hole*.yaml): half width w = 10.25 mm from the axis to a side of the square
// hole, radius r = 10.25 mm of the round one (its 64-gon is inscribed in that circle,
// scripts/make_objects.py, and FindPegHole takes the nearest vertex's distance from the axis).
constexpr double kHoleHalfWidth_m = 0.5 * (0.02 + 0.0005);

// The peg upright, its axis at `offset` (xy) from the hole's and its bottom 15 mm below the
// block's top: inserted exactly when the axis is in the footprint.
PegAlignment UprightPegAt(const PegHole& hole, double x_m, double y_m) {
  Eigen::Isometry3d X_WP = Eigen::Isometry3d::Identity();
  X_WP.translation() = hole.hole_center_W + Eigen::Vector3d(x_m, y_m, 0);
  X_WP.translation().z() = hole.block_top_z_m - 0.015 + hole.peg_half_m.z();
  return MeasurePegAlignment(hole, X_WP);
}

TEST_F(PegAlignmentTest, ASquareHolesFootprintReachesIntoItsCorners) {
  const PegHole hole = *FindPegHole(world_);
  EXPECT_FALSE(hole.round_hole);
  const double w = kHoleHalfWidth_m;
  EXPECT_NEAR(hole.hole_half_width_m, w, 1e-12);
  // (0.9w, 0.9w): inside the square (each coordinate within w), though 1.27w from the axis, so
  // outside the circle of radius w, and 1.8w by |x| + |y|.
  const PegAlignment corner = UprightPegAt(hole, 0.9 * w, 0.9 * w);
  EXPECT_TRUE(corner.axis_in_footprint);
  EXPECT_NEAR(corner.lateral_offset_m, 0.9 * std::numbers::sqrt2 * w, 1e-12);
  EXPECT_NEAR(corner.insertion_depth_m, 0.015, 1e-12);
  EXPECT_TRUE(corner.inserted);
  for (const double sign : {-1.0, 1.0}) {  // every corner of the square
    EXPECT_TRUE(UprightPegAt(hole, sign * 0.9 * w, -sign * 0.9 * w).axis_in_footprint) << sign;
    EXPECT_TRUE(UprightPegAt(hole, -0.9 * w, sign * 0.9 * w).axis_in_footprint) << sign;
  }
  // Beyond one side, however near the other axis: outside (1.1w, 0.5w is 1.21w from the axis).
  for (const Eigen::Vector2d& out :
       {Eigen::Vector2d(1.1 * w, 0.5 * w), Eigen::Vector2d(0.5 * w, -1.1 * w),
        Eigen::Vector2d(-1.1 * w, 0.0)}) {
    const PegAlignment a = UprightPegAt(hole, out.x(), out.y());
    EXPECT_FALSE(a.axis_in_footprint) << out.transpose();
    EXPECT_EQ(a.insertion_depth_m, 0.0) << out.transpose();
    EXPECT_FALSE(a.inserted) << out.transpose();
  }
}

TEST(PegAlignment, ARoundHolesFootprintIsItsCircle) {
  World world(LoadSceneFile(ResolveScenePath("peg_in_hole_mesh")));
  const std::optional<PegHole> found = FindPegHole(world);
  ASSERT_TRUE(found.has_value());
  const PegHole& hole = *found;
  EXPECT_TRUE(hole.round_hole);
  const double r = kHoleHalfWidth_m;
  EXPECT_NEAR(hole.hole_half_width_m, r, 1e-8);  // the OBJ's 9 decimals
  // (0.8r, 0.8r): within r along each axis, so inside the square around the circle, but
  // sqrt(0.8² + 0.8²) = 1.13r from the axis: outside the circle.
  for (const double sx : {-1.0, 1.0}) {
    for (const double sy : {-1.0, 1.0}) {
      const PegAlignment a = UprightPegAt(hole, sx * 0.8 * r, sy * 0.8 * r);
      EXPECT_FALSE(a.axis_in_footprint) << sx << " " << sy;
      EXPECT_EQ(a.insertion_depth_m, 0.0);
      EXPECT_FALSE(a.inserted);
    }
  }
  // (0.7r, 0.7r) is 0.99r from the axis: inside (though 1.4r by |x| + |y|); so are points just
  // inside the circle on the axes, and not those just outside.
  const PegAlignment in = UprightPegAt(hole, 0.7 * r, -0.7 * r);
  EXPECT_TRUE(in.axis_in_footprint);
  EXPECT_NEAR(in.insertion_depth_m, 0.015, 1e-12);
  EXPECT_TRUE(in.inserted);
  EXPECT_TRUE(UprightPegAt(hole, 0.0, 0.99 * r).axis_in_footprint);
  EXPECT_FALSE(UprightPegAt(hole, 0.0, -1.01 * r).axis_in_footprint);
  EXPECT_FALSE(UprightPegAt(hole, 1.01 * r, 0.0).axis_in_footprint);
}

// The alignment aid draws the rim the operator aims at: a round hole's circle (it was outlined
// by the square around it), and the landing point counts as aligned within that circle.
TEST(PegAlignment, ARoundHolesRimIsDrawnRound) {
  World world(LoadSceneFile(ResolveScenePath("peg_in_hole_mesh")));
  const PegHole hole = *FindPegHole(world);
  const double r = kHoleHalfWidth_m;
  const RimPolygon rim = HoleOutline(hole);
  EXPECT_EQ(rim.size, kRoundRimPoints);
  for (const Eigen::Vector3d& p : rim) {
    EXPECT_EQ(p.z(), hole.block_top_z_m);
    EXPECT_NEAR((p - hole.hole_center_W).head<2>().norm(), r, 1e-8) << p.transpose();
  }
  // Counter-clockwise, evenly spaced: every chord the same length, 2 r sin(π / n).
  for (int i = 0; i < rim.size; ++i) {
    const Eigen::Vector3d& a = rim.points_W[i];
    const Eigen::Vector3d& b = rim.points_W[(i + 1) % rim.size];
    EXPECT_NEAR((b - a).norm(), 2 * r * std::sin(std::numbers::pi / rim.size), 1e-8) << i;
    EXPECT_GT((a - hole.hole_center_W).head<2>().x() * (b - hole.hole_center_W).head<2>().y() -
                  (a - hole.hole_center_W).head<2>().y() * (b - hole.hole_center_W).head<2>().x(),
              0.0)
        << i;
  }
  // The peg's axis lands at (0.8r, 0.8r), inside the square but outside the circle: misaligned;
  // at (0.7r, 0.7r), inside the circle: aligned.
  EXPECT_FALSE(UprightPegAt(hole, 0.8 * r, 0.8 * r).landing_in_footprint);
  EXPECT_TRUE(UprightPegAt(hole, 0.7 * r, -0.7 * r).landing_in_footprint);
}

TEST_F(PegAlignmentTest, ASquareHolesRimIsItsFourCorners) {
  const PegHole hole = *FindPegHole(world_);
  const double w = kHoleHalfWidth_m;
  const RimPolygon rim = HoleOutline(hole);
  ASSERT_EQ(rim.size, 4);
  const Eigen::Vector2d corners[4] = {{-w, -w}, {w, -w}, {w, w}, {-w, w}};
  for (int i = 0; i < 4; ++i) {
    EXPECT_LT(((rim.points_W[i] - hole.hole_center_W).head<2>() - corners[i]).norm(), 1e-12) << i;
  }
  EXPECT_TRUE(UprightPegAt(hole, 0.9 * w, 0.9 * w).landing_in_footprint);  // in a corner
  EXPECT_FALSE(UprightPegAt(hole, 1.1 * w, 0.0).landing_in_footprint);
}

}  // namespace
}  // namespace contactlab
