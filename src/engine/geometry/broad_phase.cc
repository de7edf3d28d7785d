#include "engine/geometry/broad_phase.h"

#include <algorithm>

namespace contactlab {

void BroadPhase::Sort(const std::vector<Aabb>& boxes) {
  const int n = static_cast<int>(boxes.size());
  // Rebuild the membership when the set of boxes changed; otherwise keep the previous order,
  // which is nearly sorted after one step of motion.
  bool rebuild = static_cast<int>(order_.size() + unbounded_.size()) != n;
  for (size_t k = 0; k < order_.size() && !rebuild; ++k) {
    rebuild = order_[k] >= n || boxes[order_[k]].IsUnbounded();
  }
  for (size_t k = 0; k < unbounded_.size() && !rebuild; ++k) {
    rebuild = unbounded_[k] >= n || !boxes[unbounded_[k]].IsUnbounded();
  }
  if (rebuild) {
    order_.clear();
    unbounded_.clear();
    for (int i = 0; i < n; ++i) (boxes[i].IsUnbounded() ? unbounded_ : order_).push_back(i);
  }

  // Sweep along the axis of largest spread of the centres: the fewest boxes overlap there.
  Eigen::Vector3d sum = Eigen::Vector3d::Zero(), sum2 = Eigen::Vector3d::Zero();
  for (int i : order_) {
    const Eigen::Vector3d c = 0.5 * (boxes[i].lower + boxes[i].upper);
    sum += c;
    sum2 += c.cwiseProduct(c);
  }
  if (!order_.empty()) {
    const double count = static_cast<double>(order_.size());
    const Eigen::Vector3d variance = sum2 / count - (sum / count).cwiseAbs2();
    int best_axis = axis_;
    variance.maxCoeff(&best_axis);
    // Hysteresis: a switch re-sorts from scratch, so only switch for a clear gain.
    if (best_axis != axis_ && variance[best_axis] > 1.2 * variance[axis_]) axis_ = best_axis;
  }

  // Insertion sort by lower bound (index breaks ties so the order is deterministic): O(n) on
  // the nearly-sorted order of the previous call, and no allocation.
  const int axis = axis_;
  auto less = [&](int i, int j) {
    const double li = boxes[i].lower[axis], lj = boxes[j].lower[axis];
    return li < lj || (li == lj && i < j);
  };
  for (size_t k = 1; k < order_.size(); ++k) {
    const int key = order_[k];
    size_t m = k;
    while (m > 0 && less(key, order_[m - 1])) {
      order_[m] = order_[m - 1];
      --m;
    }
    order_[m] = key;
  }
}

}  // namespace contactlab
