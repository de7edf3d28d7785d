// Bounding-volume hierarchy (axis-aligned boxes in the mesh frame) over the tets of a volume
// mesh or the triangles of a surface mesh (paper §VI-B.1: "a BVH is built on top of this mesh
// for broad phase"). Built once per mesh; queries take the relative pose of the other mesh so
// the cost grows with the number of overlapping primitives, not with the mesh size.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <array>
#include <vector>

namespace contactlab::hydroelastic {

// Whether two axis-aligned boxes (centres c, half sizes e, one frame) overlap or touch.
inline bool BoxesOverlap(const Eigen::Vector3d& c1, const Eigen::Vector3d& e1,
                         const Eigen::Vector3d& c2, const Eigen::Vector3d& e2) {
  return ((c1 - c2).cwiseAbs() - e1 - e2).maxCoeff() <= 0.0;
}

struct BvhNode {
  Eigen::Vector3d center;       // box centre in the mesh frame [m]
  Eigen::Vector3d half_extent;  // box half sizes [m]
  int left = -1, right = -1;    // children (−1 for a leaf)
  int begin = 0, count = 0;     // leaf: primitives order[begin, begin + count)
  bool is_leaf() const { return left < 0; }
};

class Bvh {
 public:
  Bvh() = default;
  // One box per primitive: the bounds of `points` over each element's vertex indices.
  template <size_t N>
  static Bvh Build(const std::vector<Eigen::Vector3d>& points,
                   const std::vector<std::array<int, N>>& elements);

  const std::vector<BvhNode>& nodes() const { return nodes_; }
  const std::vector<int>& order() const { return order_; }
  bool empty() const { return nodes_.empty(); }

  // Calls visit(i, j) for every pair of primitives i of *this and j of `other` whose boxes
  // overlap, with other's frame posed at X_AB in this frame. `stack` is scratch space.
  template <typename Visit>
  void ForEachOverlap(const Bvh& other, const Eigen::Isometry3d& X_AB,
                      std::vector<std::pair<int, int>>* stack, Visit&& visit) const;
  // Calls visit(i) for every primitive whose box the plane n·x = d (frame of this mesh,
  // n unit) passes through.
  template <typename Visit>
  void ForEachPlaneCrossing(const Eigen::Vector3d& n, double d, std::vector<int>* stack,
                            Visit&& visit) const;
  // Calls visit(i) for every primitive of the leaves reached by descending from the root
  // through the nodes that prune(node) does not reject (a rejected node's subtree is skipped).
  template <typename Prune, typename Visit>
  void ForEachUnpruned(Prune&& prune, std::vector<int>* stack, Visit&& visit) const;

 private:
  struct Prim {
    Eigen::Vector3d lower, upper, centroid;
  };
  int BuildNode(std::vector<Prim>& prims, int begin, int end);

  std::vector<BvhNode> nodes_;
  std::vector<int> order_;
};

// ---- implementation of the templates ----

template <size_t N>
Bvh Bvh::Build(const std::vector<Eigen::Vector3d>& points,
               const std::vector<std::array<int, N>>& elements) {
  Bvh bvh;
  if (elements.empty()) return bvh;
  std::vector<Prim> prims(elements.size());
  for (size_t e = 0; e < elements.size(); ++e) {
    Prim& p = prims[e];
    p.lower = p.upper = points[elements[e][0]];
    for (int v : elements[e]) {
      p.lower = p.lower.cwiseMin(points[v]);
      p.upper = p.upper.cwiseMax(points[v]);
    }
    p.centroid = 0.5 * (p.lower + p.upper);
  }
  bvh.order_.resize(elements.size());
  for (size_t e = 0; e < elements.size(); ++e) bvh.order_[e] = static_cast<int>(e);
  bvh.nodes_.reserve(2 * elements.size());
  bvh.BuildNode(prims, 0, static_cast<int>(elements.size()));
  return bvh;
}

template <typename Visit>
void Bvh::ForEachOverlap(const Bvh& other, const Eigen::Isometry3d& X_AB,
                         std::vector<std::pair<int, int>>* stack, Visit&& visit) const {
  if (nodes_.empty() || other.nodes_.empty()) return;
  const Eigen::Matrix3d R = X_AB.linear();
  const Eigen::Matrix3d R_abs = R.cwiseAbs();
  const Eigen::Vector3d p = X_AB.translation();
  stack->clear();
  stack->emplace_back(0, 0);
  while (!stack->empty()) {
    const auto [ia, ib] = stack->back();
    stack->pop_back();
    const BvhNode& a = nodes_[ia];
    const BvhNode& b = other.nodes_[ib];
    // Box of b expressed in A: the tight AABB of the rotated box (|R| e).
    const Eigen::Vector3d c = R * b.center + p;
    const Eigen::Vector3d e = R_abs * b.half_extent;
    if (!BoxesOverlap(c, e, a.center, a.half_extent)) continue;
    if (a.is_leaf() && b.is_leaf()) {
      for (int i = a.begin; i < a.begin + a.count; ++i) {
        for (int j = b.begin; j < b.begin + b.count; ++j) visit(order_[i], other.order_[j]);
      }
    } else if (b.is_leaf() ||
               (!a.is_leaf() && a.half_extent.squaredNorm() >= b.half_extent.squaredNorm())) {
      stack->emplace_back(a.left, ib);
      stack->emplace_back(a.right, ib);
    } else {
      stack->emplace_back(ia, b.left);
      stack->emplace_back(ia, b.right);
    }
  }
}

template <typename Visit>
void Bvh::ForEachPlaneCrossing(const Eigen::Vector3d& n, double d, std::vector<int>* stack,
                               Visit&& visit) const {
  const Eigen::Vector3d n_abs = n.cwiseAbs();
  ForEachUnpruned(
      [&](const BvhNode& node) {
        return std::abs(n.dot(node.center) - d) > n_abs.dot(node.half_extent);
      },
      stack, visit);
}

template <typename Prune, typename Visit>
void Bvh::ForEachUnpruned(Prune&& prune, std::vector<int>* stack, Visit&& visit) const {
  if (nodes_.empty()) return;
  stack->clear();
  stack->push_back(0);
  while (!stack->empty()) {
    const BvhNode& node = nodes_[stack->back()];
    stack->pop_back();
    if (prune(node)) continue;
    if (node.is_leaf()) {
      for (int i = node.begin; i < node.begin + node.count; ++i) visit(order_[i]);
    } else {
      stack->push_back(node.left);
      stack->push_back(node.right);
    }
  }
}

}  // namespace contactlab::hydroelastic
