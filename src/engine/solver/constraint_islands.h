// Islands of a convex problem (docs/contact-model.md §4.2): the connected components of the
// graph whose nodes are the trees and whose edges are the constraints coupling two trees. A and
// every ℓ_i act within one island, so ℓ is a sum of independent island costs and each island
// is its own, smaller convex problem; a tree without constraints moves freely (v = v*).
// Allocation-free once warmed up on problems of the same or smaller size.
#pragma once

#include <span>
#include <vector>

#include "engine/solver/convex_problem.h"

namespace contactlab {

class ConstraintIslands {
 public:
  // Finds the islands of the problem's current constraints. Islands are ordered by their
  // lowest tree; within an island, trees and constraints keep the problem's order.
  void Compute(const ConvexProblem& problem);

  int num_islands() const { return static_cast<int>(island_tree_start_.size()) - 1; }
  std::span<const int> trees(int island) const {
    return Slice(island_trees_, island_tree_start_, island);
  }
  std::span<const int> constraints(int island) const {
    return Slice(island_constraints_, island_constraint_start_, island);
  }
  // The trees no constraint touches, in the problem's order.
  std::span<const int> free_trees() const { return free_trees_; }

  // Extract's scratch: a tree's and a body Jacobian's index in the island (−1: not in it).
  struct ExtractScratch {
    std::vector<int> local_tree, local_body, island_tree_nv;
  };
  // Writes island k as a problem of its own: its trees renumbered 0… in order, their A and v*,
  // its constraints in order with their Jacobians, biases, body Jacobians and contact frames.
  // Reuses *island's and *scratch's storage (allocation-free once warmed up). Islands may be
  // extracted concurrently, each with its own scratch.
  void Extract(const ConvexProblem& problem, int island, ConvexProblem* island_problem,
               ExtractScratch* scratch) const;
  // Storage in *scratch for any island of this problem: a thread that takes a larger island
  // than it has before (the threads take islands in whatever order they come free) then
  // extracts it without allocating.
  static void Reserve(const ConvexProblem& problem, ExtractScratch* scratch);

 private:
  static std::span<const int> Slice(const std::vector<int>& items, const std::vector<int>& start,
                                    int k) {
    return {items.data() + start[k], static_cast<size_t>(start[k + 1] - start[k])};
  }
  int Root(int tree);

  std::vector<int> parent_;                 // union–find forest over trees
  std::vector<int> tree_island_;            // per tree: its island, or −1 (free)
  std::vector<unsigned char> constrained_;  // per tree: some constraint touches it
  std::vector<int> island_trees_, island_tree_start_;
  std::vector<int> island_constraints_, island_constraint_start_;
  std::vector<int> free_trees_;
  std::vector<int> cursor_;  // counting-sort scratch
};

}  // namespace contactlab
