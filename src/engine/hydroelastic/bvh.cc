#include "engine/hydroelastic/bvh.h"

#include <algorithm>

namespace contactlab::hydroelastic {

namespace {
constexpr int kMaxLeafSize = 4;
}  // namespace

// Top-down build: split at the median centroid along the longest axis of the centroid bounds.
int Bvh::BuildNode(std::vector<Prim>& prims, int begin, int end) {
  const int index = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  Eigen::Vector3d lower = prims[order_[begin]].lower, upper = prims[order_[begin]].upper;
  Eigen::Vector3d c_lower = prims[order_[begin]].centroid, c_upper = c_lower;
  for (int i = begin; i < end; ++i) {
    const Prim& p = prims[order_[i]];
    lower = lower.cwiseMin(p.lower);
    upper = upper.cwiseMax(p.upper);
    c_lower = c_lower.cwiseMin(p.centroid);
    c_upper = c_upper.cwiseMax(p.centroid);
  }
  nodes_[index].center = 0.5 * (lower + upper);
  nodes_[index].half_extent = 0.5 * (upper - lower);
  if (end - begin <= kMaxLeafSize) {
    nodes_[index].begin = begin;
    nodes_[index].count = end - begin;
    return index;
  }
  int axis = 0;
  (c_upper - c_lower).maxCoeff(&axis);
  const int mid = (begin + end) / 2;
  std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                   [&](int a, int b) { return prims[a].centroid[axis] < prims[b].centroid[axis]; });
  const int left = BuildNode(prims, begin, mid);
  const int right = BuildNode(prims, mid, end);
  nodes_[index].left = left;
  nodes_[index].right = right;
  return index;
}

}  // namespace contactlab::hydroelastic
