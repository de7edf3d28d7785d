// Properties over every pair of shapes in both orders, for random poses: the narrow-phase
// distance of separated pairs matches a brute-force surface minimization, the reverse order
// gives the same distance and the flipped normal, the signed distance is continuous
// (1-Lipschitz in translation) through contact, margins, and no NaN in degenerate poses.
#include <gtest/gtest.h>

#include "geometry_test_utils.h"
#include "test_support/poses.h"

namespace contactlab {
namespace {

using testing::AllBoundedShapes;
using testing::Contacts;
using testing::MinDistance;
using testing::Pose;
using testing::RandomRotation;
using V = Eigen::Vector3d;

std::string PairName(const Shape& a, const Shape& b) {
  return std::string(ShapeTypeName(a.type)) + "-" + ShapeTypeName(b.type);
}

TEST(RandomPairs, SeparatedDistanceMatchesBruteForce) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> gap(0.0, 0.05);
  std::normal_distribution<double> g;
  const auto shapes = AllBoundedShapes();
  for (const Shape& a : shapes) {
    for (const Shape& b : shapes) {
      int tested = 0;
      for (int k = 0; k < 40 && tested < 12; ++k) {
        const auto X_A = Pose(V(g(rng), g(rng), g(rng)) * 0.1, RandomRotation(rng));
        const V dir = V(g(rng), g(rng), g(rng)).normalized();
        const auto X_B =
            Pose(X_A.translation() + (0.2 + 0.15 * gap(rng) / 0.05) * dir, RandomRotation(rng));
        const double brute = std::min(testing::BruteForceDistance(a, X_A, b, X_B),
                                      testing::BruteForceDistance(b, X_B, a, X_A));
        if (brute <= 1e-4) continue;  // overlapping or touching: not this test
        ++tested;
        const double phi = SignedDistance(a, X_A, b, X_B);
        EXPECT_NEAR(phi, brute, 2e-6) << PairName(a, b);
        EXPECT_NEAR(SignedDistance(b, X_B, a, X_A), phi, 1e-9) << PairName(a, b);
        // Within the margin: reported, with the same minimum; beyond: not reported.
        auto in = Contacts(a, X_A, b, X_B, brute + 1e-3);
        ASSERT_FALSE(in.empty()) << PairName(a, b);
        EXPECT_NEAR(MinDistance(in), phi, 1e-9) << PairName(a, b);
        for (const auto& c : in) {
          // Witness points lie on the surfaces: exactly for the closest pair; the other points
          // of a manifold may sit slightly inside (e.g. the end sphere of a tilted capsule,
          // taken along the face normal).
          const double tol = c.signed_distance_m == MinDistance(in) ? 1e-6 : 2e-4;
          EXPECT_LE(std::abs(testing::PointDistance(a, X_A, c.p_A_W)), tol) << PairName(a, b);
          EXPECT_LE(std::abs(testing::PointDistance(b, X_B, c.p_B_W)), tol) << PairName(a, b);
        }
        EXPECT_TRUE(Contacts(a, X_A, b, X_B, brute - 1e-4).empty()) << PairName(a, b);
        // Reverse order: flipped normals.
        auto rev = Contacts(b, X_B, a, X_A, brute + 1e-3);
        ASSERT_FALSE(rev.empty());
        EXPECT_NEAR(MinDistance(rev), phi, 1e-9);
      }
      EXPECT_GE(tested, 5) << PairName(a, b);
    }
  }
}

TEST(RandomPairs, PenetratingPairsAreConsistentInBothOrders) {
  std::mt19937 rng(5);
  std::normal_distribution<double> g;
  const auto shapes = AllBoundedShapes();
  for (const Shape& a : shapes) {
    for (const Shape& b : shapes) {
      for (int k = 0; k < 20; ++k) {
        const auto X_A = Pose(V::Zero(), RandomRotation(rng));
        const auto X_B = Pose(0.05 * V(g(rng), g(rng), g(rng)), RandomRotation(rng));
        auto ab = Contacts(a, X_A, b, X_B);
        auto ba = Contacts(b, X_B, a, X_A);
        ASSERT_FALSE(ab.empty()) << PairName(a, b);
        ASSERT_FALSE(ba.empty()) << PairName(a, b);
        const double phi = MinDistance(ab);
        EXPECT_LT(phi, 0.0);
        // Same depth either way (box–box may pick another reference face on near-ties).
        EXPECT_NEAR(MinDistance(ba), phi, 1e-6 + 0.03 * std::abs(phi)) << PairName(a, b);
      }
    }
  }
}

TEST(RandomPairs, SignedDistanceIsContinuousThroughContact) {
  std::mt19937 rng(9);
  std::normal_distribution<double> g;
  const auto shapes = AllBoundedShapes();
  for (const Shape& a : shapes) {
    for (const Shape& b : shapes) {
      for (int k = 0; k < 4; ++k) {
        const auto X_A = Pose(V::Zero(), RandomRotation(rng));
        const Eigen::Matrix3d R_B = RandomRotation(rng);
        const V dir = V(g(rng), g(rng), g(rng)).normalized();
        const double step = 2e-4;
        double previous = std::numeric_limits<double>::quiet_NaN();
        // From clearly separated to clearly overlapping along a line.
        for (double s = 0.45; s > 0.05; s -= step) {
          const double phi = SignedDistance(a, X_A, b, Pose(s * dir, R_B));
          ASSERT_TRUE(std::isfinite(phi));
          if (!std::isnan(previous)) {
            // |Δφ| ≤ |Δx| for the exact signed distance; slack for EPA tolerance and the
            // face-over-edge preference of box–box.
            ASSERT_LE(std::abs(phi - previous), step + 2e-6 + 0.03 * std::abs(phi))
                << PairName(a, b) << " at s=" << s;
          }
          previous = phi;
        }
      }
    }
  }
}

TEST(RandomPairs, DegeneratePosesGiveNoNaN) {
  const auto shapes = AllBoundedShapes();
  const Eigen::Matrix3d rotations[] = {Eigen::Matrix3d::Identity(),
                                       testing::Rot(M_PI / 2, V::UnitX()),
                                       testing::Rot(M_PI / 4, V::UnitZ())};
  const V offsets[] = {V::Zero(), V(0, 0, 1e-13), V(1e-9, 0, 0), V(0, 0, 0.12)};
  for (const Shape& a : shapes) {
    for (const Shape& b : shapes) {
      for (const auto& R : rotations) {
        for (const V& o : offsets) {
          auto c = Contacts(a, Pose(V::Zero()), b, Pose(o, R));  // checks finiteness
          ASSERT_FALSE(c.empty()) << PairName(a, b);
          // Deterministic.
          auto d = Contacts(a, Pose(V::Zero()), b, Pose(o, R));
          ASSERT_EQ(c.size(), d.size());
          for (size_t i = 0; i < c.size(); ++i) {
            EXPECT_EQ(c[i].signed_distance_m, d[i].signed_distance_m);
            EXPECT_EQ(c[i].normal_W, d[i].normal_W);
          }
        }
      }
    }
  }
  // Zero-size shapes.
  const Shape point = Shape::Sphere(0.0), flat_box = Shape::Box(V(0.1, 0.1, 0.0));
  const Shape disk = Shape::Cylinder(0.1, 0.0), ball = Shape::Capsule(0.1, 0.0);
  for (const Shape& a : {point, flat_box, disk, ball}) {
    for (const Shape& b : {point, flat_box, disk, ball}) {
      Contacts(a, Pose(V::Zero()), b, Pose(V(0, 0, 0.001)));
      Contacts(a, Pose(V::Zero()), b, Pose(V::Zero()));
    }
  }
}

}  // namespace
}  // namespace contactlab
