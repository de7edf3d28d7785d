#include "engine/geometry/broad_phase.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "geometry_test_utils.h"
#include "test_support/poses.h"

namespace contactlab {
namespace {

using testing::Pose;
using V = Eigen::Vector3d;

TEST(Aabb, BoundsEveryShapeTightly) {
  std::mt19937 rng(1);
  const double margin = 0.01;
  for (const Shape& s : testing::AllBoundedShapes()) {
    for (int k = 0; k < 20; ++k) {
      const auto X = Pose(V(0.1, -0.3, 2.0), testing::RandomRotation(rng));
      const Aabb box = ComputeAabb(s, X, margin);
      ASSERT_FALSE(box.IsUnbounded());
      V lo = V::Constant(1e9), hi = V::Constant(-1e9);
      for (int patch = 0; patch < testing::NumPatches(s); ++patch) {
        for (int i = 0; i <= 50; ++i) {
          for (int j = 0; j <= 50; ++j) {
            const V p = testing::SurfacePoint(s, X, patch, i / 50.0, j / 50.0);
            lo = lo.cwiseMin(p);
            hi = hi.cwiseMax(p);
          }
        }
      }
      // Contains every surface sample grown by the margin, and is tight (within sampling).
      EXPECT_TRUE(((lo.array() - margin) >= box.lower.array() - 1e-12).all())
          << ShapeTypeName(s.type);
      EXPECT_TRUE(((hi.array() + margin) <= box.upper.array() + 1e-12).all())
          << ShapeTypeName(s.type);
      EXPECT_LT((box.lower - (lo - V::Constant(margin))).cwiseAbs().maxCoeff(), 3e-3);
      EXPECT_LT((box.upper - (hi + V::Constant(margin))).cwiseAbs().maxCoeff(), 3e-3);
    }
  }
}

TEST(Aabb, HalfSpaces) {
  const Shape hs = Shape::HalfSpace();
  const Aabb floor = ComputeAabb(hs, Pose(V(0, 0, 0.5)), 0.01);
  EXPECT_TRUE(floor.IsUnbounded());
  EXPECT_NEAR(floor.upper.z(), 0.51, 1e-12);
  EXPECT_TRUE(std::isinf(floor.lower.z()) && std::isinf(floor.upper.x()));
  // Wall with normal −x at x = 2: solid x ≥ 2.
  const Aabb wall = ComputeAabb(hs, Pose(V(2, 0, 0), testing::Rot(-M_PI / 2, V::UnitY())), 0.01);
  EXPECT_NEAR(wall.lower.x(), 1.99, 1e-12);
  EXPECT_TRUE(std::isinf(wall.upper.x()));
  // Tilted: fully unbounded.
  const Aabb tilted = ComputeAabb(hs, Pose(V::Zero(), testing::Rot(0.3, V::UnitX())), 0.01);
  EXPECT_TRUE(std::isinf(tilted.upper.z()) && std::isinf(tilted.lower.z()));
  const Aabb ball = ComputeAabb(Shape::Sphere(0.1), Pose(V(0, 0, 0.7)), 0.0);
  EXPECT_FALSE(floor.Overlaps(ball));
  EXPECT_TRUE(tilted.Overlaps(ball));
}

std::set<std::pair<int, int>> BruteForcePairs(const std::vector<Aabb>& boxes) {
  std::set<std::pair<int, int>> pairs;
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
    for (int j = i + 1; j < static_cast<int>(boxes.size()); ++j) {
      if (boxes[i].IsUnbounded() && boxes[j].IsUnbounded()) continue;
      if (boxes[i].Overlaps(boxes[j])) pairs.emplace(i, j);
    }
  }
  return pairs;
}

TEST(BroadPhase, MatchesBruteForceOverFramesOfMotion) {
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> pos(-1.0, 1.0), vel(-0.02, 0.02);
  std::uniform_real_distribution<double> size(0.02, 0.15);
  BroadPhase broad_phase;
  std::vector<std::pair<int, int>> pairs;
  for (int n : {0, 1, 40, 160, 100}) {
    std::vector<V> p(n), v(n), h(n);
    for (int i = 0; i < n; ++i) {
      // Spread mostly along y so the sweep axis is y at first; motion then widens z.
      p[i] = V(0.3 * pos(rng), pos(rng), 0.2 * pos(rng));
      v[i] = V(vel(rng), vel(rng), 3 * std::abs(vel(rng)) * (i % 2 ? 1 : -1));
      h[i] = V(size(rng), size(rng), size(rng));
    }
    for (int frame = 0; frame < 60; ++frame) {
      std::vector<Aabb> boxes;
      for (int i = 0; i < n; ++i) {
        p[i] += v[i];
        boxes.push_back(ComputeAabb(Shape::Box(h[i]), Pose(p[i]), 0.01));
      }
      // Plus a floor and a wall when there are bodies.
      if (n > 0) {
        boxes.push_back(ComputeAabb(Shape::HalfSpace(), Pose(V(0, 0, -0.1)), 0.01));
        boxes.push_back(
            ComputeAabb(Shape::HalfSpace(), Pose(V::Zero(), testing::Rot(0.2, V::UnitX())), 0.01));
      }
      broad_phase.FindPairs(boxes, &pairs);
      std::set<std::pair<int, int>> got(pairs.begin(), pairs.end());
      EXPECT_EQ(got.size(), pairs.size()) << "duplicates";
      for (const auto& [i, j] : pairs) EXPECT_LT(i, j);
      EXPECT_EQ(got, BruteForcePairs(boxes)) << "n=" << n << " frame=" << frame;
    }
  }
}

TEST(BroadPhase, FilterExcludesPairs) {
  std::vector<Aabb> boxes;
  for (int i = 0; i < 5; ++i) {
    boxes.push_back(ComputeAabb(Shape::Sphere(0.1), Pose(V(0.05 * i, 0, 0)), 0.0));
  }
  BroadPhase broad_phase;
  std::vector<std::pair<int, int>> pairs;
  broad_phase.FindPairs(
      boxes, [](int i, int j) { return (i + j) % 2 == 0; }, &pairs);
  for (const auto& [i, j] : pairs) EXPECT_EQ((i + j) % 2, 0);
  EXPECT_FALSE(pairs.empty());
}

}  // namespace
}  // namespace contactlab
