#include "engine/solver/constraint_islands.h"

#include <numeric>

namespace contactlab {

int ConstraintIslands::Root(int tree) {
  while (parent_[tree] != tree) tree = parent_[tree] = parent_[parent_[tree]];  // path halving
  return tree;
}

void ConstraintIslands::Compute(const ConvexProblem& problem) {
  const int num_trees = problem.num_trees();
  parent_.resize(num_trees);
  std::iota(parent_.begin(), parent_.end(), 0);
  constrained_.assign(num_trees, 0);
  for (int i = 0; i < problem.num_constraints(); ++i) {
    const auto& e = problem.entry(i);
    constrained_[e.tree[0]] = 1;
    if (e.num_cliques == 2) {
      constrained_[e.tree[1]] = 1;
      const int a = Root(e.tree[0]), b = Root(e.tree[1]);
      if (a != b) parent_[std::max(a, b)] = std::min(a, b);  // the root is the lowest tree
    }
  }
  // Islands numbered in the order of their lowest tree; then a counting sort of the trees and
  // the constraints by island keeps the problem's order within each island.
  tree_island_.assign(num_trees, -1);
  free_trees_.clear();
  int num_islands = 0;
  for (int t = 0; t < num_trees; ++t) {
    if (!constrained_[t]) {
      free_trees_.push_back(t);
    } else {
      const int r = Root(t);
      tree_island_[t] = r == t ? num_islands++ : tree_island_[r];
    }
  }
  const auto sort_by_island = [&](int count, auto island_of, std::vector<int>* start,
                                  std::vector<int>* items) {
    start->assign(num_islands + 1, 0);
    for (int j = 0; j < count; ++j) {
      if (island_of(j) >= 0) ++(*start)[island_of(j) + 1];
    }
    std::partial_sum(start->begin(), start->end(), start->begin());
    items->resize(start->back());
    cursor_.assign(start->begin(), start->end() - 1);
    for (int j = 0; j < count; ++j) {
      if (island_of(j) >= 0) (*items)[cursor_[island_of(j)]++] = j;
    }
  };
  sort_by_island(
      num_trees, [&](int t) { return tree_island_[t]; }, &island_tree_start_, &island_trees_);
  sort_by_island(
      problem.num_constraints(), [&](int i) { return tree_island_[problem.entry(i).tree[0]]; },
      &island_constraint_start_, &island_constraints_);
}

void ConstraintIslands::Reserve(const ConvexProblem& problem, ExtractScratch* scratch) {
  // An island holds at most every tree: the bound needs no look at the islands.
  scratch->local_tree.reserve(problem.num_trees());
  scratch->island_tree_nv.reserve(problem.num_trees());
  scratch->local_body.reserve(problem.num_body_jacobians());
}

void ConstraintIslands::Extract(const ConvexProblem& problem, int island,
                                ConvexProblem* island_problem, ExtractScratch* scratch) const {
  const std::span<const int> trees = this->trees(island);
  std::vector<int>& local_tree = scratch->local_tree;
  std::vector<int>& local_body = scratch->local_body;
  local_tree.resize(problem.num_trees());
  scratch->island_tree_nv.resize(trees.size());
  for (size_t k = 0; k < trees.size(); ++k) {
    local_tree[trees[k]] = static_cast<int>(k);
    scratch->island_tree_nv[k] = problem.tree_nv(trees[k]);
  }
  island_problem->Reset(scratch->island_tree_nv);
  for (size_t k = 0; k < trees.size(); ++k) {
    const int t = trees[k], local = static_cast<int>(k);
    island_problem->mutable_tree_A(local) = problem.tree_A(t);
    island_problem->mutable_free_motion_velocity().segment(island_problem->tree_start(local),
                                                           problem.tree_nv(t)) =
        problem.free_motion_velocity().segment(problem.tree_start(t), problem.tree_nv(t));
  }
  local_body.assign(problem.num_body_jacobians(), -1);
  const auto local_body_index = [&](int body) {
    if (local_body[body] < 0) {
      local_body[body] =
          island_problem->AddBodyJacobian(local_tree[problem.body_jacobian_tree(body)]);
      island_problem->mutable_body_jacobian(local_body[body]) = problem.body_jacobian(body);
    }
    return local_body[body];
  };
  for (const int i : constraints(island)) {
    const auto& e = problem.entry(i);
    const int local = island_problem->AddConstraint(
        e.constraint, local_tree[e.tree[0]], e.num_cliques == 2 ? local_tree[e.tree[1]] : -1);
    for (int c = 0; c < e.num_cliques; ++c) {
      island_problem->mutable_jacobian(local, c) = problem.jacobian(i, c);
    }
    island_problem->mutable_bias(local) = problem.bias().segment(e.row_start, e.num_rows);
    if (const ConvexProblem::ContactFrame* frame = problem.contact_frame(i)) {
      ConvexProblem::ContactFrame local_frame = *frame;
      for (int c = 0; c < e.num_cliques; ++c) {
        local_frame.body[c] = local_body_index(frame->body[c]);
      }
      island_problem->SetContactFrame(local, local_frame);
    }
  }
}

}  // namespace contactlab
