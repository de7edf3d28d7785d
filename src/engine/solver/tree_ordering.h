// The fill-reducing elimination order of a block-sparse Newton Hessian, at the tree level
// (docs/contact-model.md §4, "Sparsity"): AMD on the tree–contact graph, so that each tree's
// velocities stay contiguous and its dense diagonal block is one supernode. Both sparse
// factorizations (BlockCholesky, SupernodalCholesky) eliminate the trees in this order.
#pragma once

#include <vector>

#include "engine/solver/block_sparse_hessian.h"

namespace contactlab {

// Trees in elimination order (a permutation of 0 … num_trees − 1). Returns false if AMD fails
// (out of memory). Allocates: call it once per block pattern, not per factorization.
bool TreeEliminationOrder(const BlockSparseHessian& H, std::vector<int>* order);

}  // namespace contactlab
