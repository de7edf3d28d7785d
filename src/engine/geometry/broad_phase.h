// Broad phase: sweep-and-prune over world AABBs (grown by the contact margin), with the sort
// order kept between calls so nearly-sorted input costs O(n). Unbounded shapes (half-spaces)
// are paired with every bounded one. No allocation once capacities have grown.
#pragma once

#include <utility>
#include <vector>

#include "engine/geometry/shape.h"

namespace contactlab {

class BroadPhase {
 public:
  // Candidate pairs (i < j) of `boxes` that overlap. `boxes.size()` may change between calls.
  // `filter(i, j)` (may be empty) returns false for pairs that must not collide.
  template <class Filter>
  void FindPairs(const std::vector<Aabb>& boxes, Filter&& filter,
                 std::vector<std::pair<int, int>>* pairs);
  void FindPairs(const std::vector<Aabb>& boxes, std::vector<std::pair<int, int>>* pairs) {
    FindPairs(boxes, [](int, int) { return true; }, pairs);
  }

 private:
  void Sort(const std::vector<Aabb>& boxes);
  std::vector<int> order_;      // bounded boxes sorted by lower bound on axis_
  std::vector<int> unbounded_;  // half-spaces
  int axis_ = 0;
};

template <class Filter>
void BroadPhase::FindPairs(const std::vector<Aabb>& boxes, Filter&& filter,
                           std::vector<std::pair<int, int>>* pairs) {
  pairs->clear();
  Sort(boxes);
  for (size_t a = 0; a < order_.size(); ++a) {
    const int i = order_[a];
    const double upper = boxes[i].upper[axis_];
    for (size_t b = a + 1; b < order_.size(); ++b) {
      const int j = order_[b];
      if (boxes[j].lower[axis_] > upper) break;
      if (boxes[i].Overlaps(boxes[j]) && filter(i, j)) {
        pairs->emplace_back(std::min(i, j), std::max(i, j));
      }
    }
  }
  for (int u : unbounded_) {
    for (int i : order_) {
      if (boxes[u].Overlaps(boxes[i]) && filter(u, i)) {
        pairs->emplace_back(std::min(u, i), std::max(u, i));
      }
    }
  }
}

}  // namespace contactlab
