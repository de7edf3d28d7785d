// Helpers for the geometry tests: random rotations, consistency checks and an independent
// brute-force distance (surface sampling of one shape + exact point distance to the other + local
// refinement) to compare the narrow phase against.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "engine/geometry/collision.h"
#include "engine/geometry/shape.h"

namespace contactlab::testing {

inline Eigen::Matrix3d RandomRotation(std::mt19937& rng) {
  std::normal_distribution<double> g;
  Eigen::Quaterniond q(g(rng), g(rng), g(rng), g(rng));
  q.normalize();
  return q.toRotationMatrix();
}

// p_B − p_A = φ·n̂, unit normal, finite everything.
inline void ExpectConsistent(const ContactPoint& c, double tol = 1e-9) {
  ASSERT_TRUE(c.normal_W.allFinite());
  ASSERT_TRUE(c.p_A_W.allFinite());
  ASSERT_TRUE(c.p_B_W.allFinite());
  ASSERT_TRUE(std::isfinite(c.signed_distance_m));
  EXPECT_NEAR(c.normal_W.norm(), 1.0, 1e-9);
  EXPECT_LT((c.p_B_W - c.p_A_W - c.signed_distance_m * c.normal_W).norm(), tol);
}

inline std::vector<ContactPoint> Contacts(const Shape& a, const Eigen::Isometry3d& X_WA,
                                          const Shape& b, const Eigen::Isometry3d& X_WB,
                                          double margin = 0.01) {
  std::vector<ContactPoint> out;
  const int n = ComputeContactPoints(a, X_WA, b, X_WB, margin, &out);
  EXPECT_EQ(n, static_cast<int>(out.size()));
  for (const ContactPoint& c : out) {
    ExpectConsistent(c);
    EXPECT_LT(c.signed_distance_m, margin);
  }
  return out;
}

inline double MinDistance(const std::vector<ContactPoint>& points) {
  double d = std::numeric_limits<double>::infinity();
  for (const auto& c : points) d = std::min(d, c.signed_distance_m);
  return d;
}

// Exact signed distance from a world point to a bounded shape (negative inside; inside values
// are the depth below the nearest surface).
inline double PointDistance(const Shape& s, const Eigen::Isometry3d& X_WG,
                            const Eigen::Vector3d& p_W) {
  const Eigen::Vector3d p = X_WG.inverse() * p_W;
  switch (s.type) {
    case ShapeType::kSphere:
      return p.norm() - s.radius_m;
    case ShapeType::kBox: {
      const Eigen::Vector3d q = p.cwiseAbs() - s.half_extents_m;
      return q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0);
    }
    case ShapeType::kCylinder: {
      const double dr = std::hypot(p.x(), p.y()) - s.radius_m;
      const double dz = std::abs(p.z()) - 0.5 * s.length_m;
      return std::hypot(std::max(dr, 0.0), std::max(dz, 0.0)) + std::min(std::max(dr, dz), 0.0);
    }
    case ShapeType::kCapsule: {
      const double h = 0.5 * s.length_m;
      const double z = std::clamp(p.z(), -h, h);
      return (p - Eigen::Vector3d(0, 0, z)).norm() - s.radius_m;
    }
    case ShapeType::kHalfSpace:
      return p.z();
    case ShapeType::kConvexMesh:
      // Exact inside only (outside: a lower bound); the mesh tests compare against boxes.
      return HullPlaneDistance(*s.convex_mesh, p);
  }
  return 0;
}

// Surface point of a bounded shape from (patch, u, v), u, v ∈ [0, 1] (clamped).
inline int NumPatches(const Shape& s) {
  switch (s.type) {
    case ShapeType::kSphere:
      return 1;
    case ShapeType::kBox:
      return 6;
    default:
      return 3;
  }
}

inline Eigen::Vector3d SurfacePoint(const Shape& s, const Eigen::Isometry3d& X_WG, int patch,
                                    double u, double v) {
  u = std::clamp(u, 0.0, 1.0);
  v = std::clamp(v, 0.0, 1.0);
  const double pi = std::numbers::pi;
  Eigen::Vector3d p;
  switch (s.type) {
    case ShapeType::kSphere: {
      const double theta = pi * u, phi = 2 * pi * v;
      p = s.radius_m * Eigen::Vector3d(std::sin(theta) * std::cos(phi),
                                       std::sin(theta) * std::sin(phi), std::cos(theta));
      break;
    }
    case ShapeType::kBox: {
      const int axis = patch / 2;
      const double sign = patch % 2 ? 1.0 : -1.0;
      p[axis] = sign * s.half_extents_m[axis];
      p[(axis + 1) % 3] = (2 * u - 1) * s.half_extents_m[(axis + 1) % 3];
      p[(axis + 2) % 3] = (2 * v - 1) * s.half_extents_m[(axis + 2) % 3];
      break;
    }
    case ShapeType::kCylinder: {
      const double h = 0.5 * s.length_m, r = s.radius_m, phi = 2 * pi * v;
      if (patch == 0) {
        p = Eigen::Vector3d(r * std::cos(phi), r * std::sin(phi), (2 * u - 1) * h);
      } else {
        const double sign = patch == 1 ? 1.0 : -1.0;
        p = Eigen::Vector3d(u * r * std::cos(phi), u * r * std::sin(phi), sign * h);
      }
      break;
    }
    case ShapeType::kCapsule: {
      const double h = 0.5 * s.length_m, r = s.radius_m, phi = 2 * pi * v;
      if (patch == 0) {
        p = Eigen::Vector3d(r * std::cos(phi), r * std::sin(phi), (2 * u - 1) * h);
      } else {
        const double sign = patch == 1 ? 1.0 : -1.0;
        const double theta = 0.5 * pi * u;  // from the pole
        p = Eigen::Vector3d(r * std::sin(theta) * std::cos(phi),
                            r * std::sin(theta) * std::sin(phi), sign * (h + r * std::cos(theta)));
      }
      break;
    }
    case ShapeType::kHalfSpace:
    case ShapeType::kConvexMesh:  // not sampled (the mesh tests compare against boxes)
      p.setZero();
      break;
  }
  return X_WG * p;
}

// Minimum over the surface of A of the distance to B: a grid of samples, then pattern-search
// refinement of the best few. Accurate to ~1e-7 m for separated convex pairs.
inline double BruteForceDistance(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                                 const Eigen::Isometry3d& X_WB, int grid = 40) {
  struct Sample {
    double d;
    int patch;
    double u, v;
  };
  std::vector<Sample> samples;
  for (int patch = 0; patch < NumPatches(a); ++patch) {
    for (int i = 0; i <= grid; ++i) {
      for (int j = 0; j <= grid; ++j) {
        const double u = double(i) / grid, v = double(j) / grid;
        samples.push_back(
            {PointDistance(b, X_WB, SurfacePoint(a, X_WA, patch, u, v)), patch, u, v});
      }
    }
  }
  std::sort(samples.begin(), samples.end(),
            [](const Sample& x, const Sample& y) { return x.d < y.d; });
  double best = samples.front().d;
  for (int k = 0; k < std::min<int>(8, samples.size()); ++k) {
    Sample s = samples[k];
    double step = 1.0 / grid;
    while (step > 1e-9) {
      bool improved = false;
      for (const auto& [du, dv] :
           {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}}) {
        const double u = std::clamp(s.u + du * step, 0.0, 1.0), v = s.v + dv * step;
        const double vv = a.type == ShapeType::kBox ? std::clamp(v, 0.0, 1.0)
                                                    : v - std::floor(v);  // periodic angle
        const double d = PointDistance(b, X_WB, SurfacePoint(a, X_WA, s.patch, u, vv));
        if (d < s.d) {
          s = {d, s.patch, u, vv};
          improved = true;
        }
      }
      if (!improved) step *= 0.5;
    }
    best = std::min(best, s.d);
  }
  return best;
}

inline std::vector<Shape> AllBoundedShapes() {
  return {Shape::Sphere(0.1), Shape::Box(Eigen::Vector3d(0.15, 0.1, 0.07)),
          Shape::Cylinder(0.08, 0.25), Shape::Capsule(0.06, 0.2)};
}

}  // namespace contactlab::testing
