#include "engine/solver/tree_ordering.h"

#include <cholmod.h>

#include <algorithm>
#include <numeric>
#include <utility>

namespace contactlab {

bool TreeEliminationOrder(const BlockSparseHessian& H, std::vector<int>* order) {
  const int num_trees = H.num_trees();
  order->resize(num_trees);
  std::iota(order->begin(), order->end(), 0);
  const int num_pairs = H.num_off_diagonal_blocks();
  if (num_trees < 2 || num_pairs == 0) return true;
  cholmod_common common;
  cholmod_start(&common);
  common.print = 0;
  cholmod_sparse* graph =
      cholmod_allocate_sparse(num_trees, num_trees, num_pairs, /*sorted=*/1, /*packed=*/1,
                              /*stype=*/1, CHOLMOD_PATTERN, &common);
  bool ok = graph != nullptr;
  if (ok) {
    // Pairs are sorted by (a, b); the upper pattern wants columns b with rows a < b.
    std::vector<std::pair<int, int>> by_column(num_pairs);
    for (int k = 0; k < num_pairs; ++k) {
      by_column[k] = {H.off_diagonal_pair(k).second, H.off_diagonal_pair(k).first};
    }
    std::sort(by_column.begin(), by_column.end());
    int* Gp = static_cast<int*>(graph->p);
    int* Gi = static_cast<int*>(graph->i);
    std::fill(Gp, Gp + num_trees + 1, 0);
    for (int k = 0; k < num_pairs; ++k) {
      Gi[k] = by_column[k].second;
      ++Gp[by_column[k].first + 1];
    }
    for (int t = 0; t < num_trees; ++t) Gp[t + 1] += Gp[t];
    ok = cholmod_amd(graph, nullptr, 0, order->data(), &common) != 0;
    cholmod_free_sparse(&graph, &common);
  }
  cholmod_finish(&common);
  return ok;
}

}  // namespace contactlab
