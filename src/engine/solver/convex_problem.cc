#include "engine/solver/convex_problem.h"

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <string>

namespace contactlab {

void ConvexProblem::Reset(const std::vector<int>& tree_num_velocities) {
  tree_nv_ = tree_num_velocities;  // assignment reuses capacity
  const int num_trees = static_cast<int>(tree_nv_.size());
  tree_start_.resize(num_trees);
  A_offset_.resize(num_trees);
  nv_ = 0;
  int A_size = 0;
  for (int t = 0; t < num_trees; ++t) {
    if (tree_nv_[t] < 0) throw std::invalid_argument("ConvexProblem: negative tree size");
    tree_start_[t] = nv_;
    A_offset_[t] = A_size;
    nv_ += tree_nv_[t];
    A_size += tree_nv_[t] * tree_nv_[t];
  }
  A_arena_.assign(A_size, 0.0);
  if (v_star_.size() != nv_) v_star_.resize(nv_);
  v_star_.setZero();
  ClearConstraints();
}

void ConvexProblem::ClearConstraints() {
  entries_.clear();
  contact_frames_.clear();
  body_tree_.clear();
  body_offset_.clear();
  B_size_ = 0;
  num_rows_ = 0;
  J_size_ = 0;
  num_unset_ = 0;
}

Eigen::Map<Eigen::MatrixXd> ConvexProblem::mutable_tree_A(int t) {
  return {A_arena_.data() + A_offset_[t], tree_nv_[t], tree_nv_[t]};
}

Eigen::Map<const Eigen::MatrixXd> ConvexProblem::tree_A(int t) const {
  return {A_arena_.data() + A_offset_[t], tree_nv_[t], tree_nv_[t]};
}

int ConvexProblem::AddConstraint(const Constraint* c, int tree_a, int tree_b) {
  if (c == nullptr) throw std::invalid_argument("ConvexProblem::AddConstraint: null constraint");
  const int index = AddConstraintRows(c->num_rows(), tree_a, tree_b);
  SetConstraint(index, c);
  return index;
}

void ConvexProblem::SetConstraint(int index, const Constraint* c) {
  if (c == nullptr || c->num_rows() != entries_[index].num_rows) {
    throw std::invalid_argument("ConvexProblem::SetConstraint: null or of another size");
  }
  if (entries_[index].constraint == nullptr) --num_unset_;
  entries_[index].constraint = c;
}

int ConvexProblem::AddConstraintRows(int num_rows, int tree_a, int tree_b) {
  const int num_trees = this->num_trees();
  if (tree_a < 0 || tree_a >= num_trees || tree_b >= num_trees || tree_b == tree_a) {
    throw std::invalid_argument("ConvexProblem::AddConstraint: bad trees " +
                                std::to_string(tree_a) + ", " + std::to_string(tree_b));
  }
  ConstraintEntry e;
  e.row_start = num_rows_;
  e.num_rows = num_rows;
  e.num_cliques = tree_b >= 0 ? 2 : 1;
  e.tree[0] = tree_a;
  e.tree[1] = tree_b;
  // Jacobian arena: amortized doubling so that a warmed-up arena never reallocates.
  int needed = J_size_;
  for (int k = 0; k < e.num_cliques; ++k) needed += e.num_rows * tree_nv_[e.tree[k]];
  if (static_cast<int>(J_arena_.size()) < needed) {
    J_arena_.resize(std::max<size_t>(needed, 2 * J_arena_.size()));
  }
  for (int k = 0; k < e.num_cliques; ++k) {
    e.jacobian_offset[k] = J_size_;
    J_size_ += e.num_rows * tree_nv_[e.tree[k]];
  }
  std::fill(J_arena_.begin() + e.jacobian_offset[0], J_arena_.begin() + J_size_, 0.0);
  if (bias_.size() < num_rows_ + e.num_rows) {
    bias_.conservativeResize(std::max<Eigen::Index>(num_rows_ + e.num_rows, 2 * bias_.size()));
  }
  bias_.segment(num_rows_, e.num_rows).setZero();
  num_rows_ += e.num_rows;
  entries_.push_back(e);
  ++num_unset_;
  return static_cast<int>(entries_.size()) - 1;
}

int ConvexProblem::AddBodyJacobian(int tree) {
  if (tree < 0 || tree >= num_trees()) {
    throw std::invalid_argument("ConvexProblem::AddBodyJacobian: bad tree " + std::to_string(tree));
  }
  const int size = 6 * tree_nv_[tree];
  if (static_cast<int>(B_arena_.size()) < B_size_ + size) {
    B_arena_.resize(std::max<size_t>(B_size_ + size, 2 * B_arena_.size()));
  }
  std::fill_n(B_arena_.begin() + B_size_, size, 0.0);
  body_tree_.push_back(tree);
  body_offset_.push_back(B_size_);
  B_size_ += size;
  return static_cast<int>(body_tree_.size()) - 1;
}

Eigen::Map<Eigen::Matrix<double, 6, Eigen::Dynamic>> ConvexProblem::mutable_body_jacobian(
    int body) {
  return {B_arena_.data() + body_offset_[body], 6, tree_nv_[body_tree_[body]]};
}

Eigen::Map<const Eigen::Matrix<double, 6, Eigen::Dynamic>> ConvexProblem::body_jacobian(
    int body) const {
  return {B_arena_.data() + body_offset_[body], 6, tree_nv_[body_tree_[body]]};
}

void ConvexProblem::SetContactFrame(int index, const ContactFrame& frame) {
  ConstraintEntry& e = entries_[index];
  bool ok = e.num_rows == 3;
  for (int c = 0; c < e.num_cliques && ok; ++c) {
    const int b = frame.body[c];
    ok = b >= 0 && b < static_cast<int>(body_tree_.size()) && body_tree_[b] == e.tree[c];
  }
  if (!ok) {
    throw std::invalid_argument(
        "ConvexProblem::SetContactFrame: not a contact on its bodies' trees");
  }
  if (e.contact_frame < 0) {
    e.contact_frame = static_cast<int>(contact_frames_.size());
    contact_frames_.push_back(frame);
  } else {
    contact_frames_[e.contact_frame] = frame;
  }
}

Eigen::Map<Eigen::MatrixXd> ConvexProblem::mutable_jacobian(int index, int clique) {
  const ConstraintEntry& e = entries_[index];
  return {J_arena_.data() + e.jacobian_offset[clique], e.num_rows, tree_nv_[e.tree[clique]]};
}

Eigen::Map<const Eigen::MatrixXd> ConvexProblem::jacobian(int index, int clique) const {
  const ConstraintEntry& e = entries_[index];
  return {J_arena_.data() + e.jacobian_offset[clique], e.num_rows, tree_nv_[e.tree[clique]]};
}

Eigen::Ref<Eigen::VectorXd> ConvexProblem::mutable_bias(int index) {
  const ConstraintEntry& e = entries_[index];
  return bias_.segment(e.row_start, e.num_rows);
}

void ConvexProblem::MultiplyJ(const Eigen::VectorXd& v, Eigen::VectorXd* vc) const {
  if (vc->size() != num_rows_) vc->resize(num_rows_);
  MultiplyJ(v, Eigen::Ref<Eigen::VectorXd>(*vc));
}

void ConvexProblem::MultiplyJ(const Eigen::VectorXd& v, Eigen::Ref<Eigen::VectorXd> vc) const {
  assert(vc.size() == num_rows_);
  for (int i = 0; i < num_constraints(); ++i) {
    const ConstraintEntry& e = entries_[i];
    for (int k = 0; k < e.num_cliques; ++k) {
      const int t = e.tree[k];
      if (e.num_rows == 3 && tree_nv_[t] == 6) {  // a contact on a free body: fixed sizes
        const Eigen::Map<const Eigen::Matrix<double, 3, 6>> J(jacobian(i, k).data());
        auto out = vc.segment<3>(e.row_start);
        if (k == 0) {
          out.noalias() = J * v.segment<6>(tree_start_[t]);
        } else {
          out.noalias() += J * v.segment<6>(tree_start_[t]);
        }
        continue;
      }
      // lazyProduct: a constraint has a few rows, where Eigen's GEMV dispatch costs more than
      // the coefficient loop.
      auto out = vc.segment(e.row_start, e.num_rows);
      const auto product = jacobian(i, k).lazyProduct(v.segment(tree_start_[t], tree_nv_[t]));
      if (k == 0) {
        out.noalias() = product;
      } else {
        out.noalias() += product;
      }
    }
  }
}

void ConvexProblem::MultiplyJTranspose(const Eigen::VectorXd& gamma, Eigen::VectorXd* y) const {
  y->setZero(nv_);
  for (int i = 0; i < num_constraints(); ++i) {
    const ConstraintEntry& e = entries_[i];
    for (int k = 0; k < e.num_cliques; ++k) {
      const int t = e.tree[k];
      if (e.num_rows == 3 && tree_nv_[t] == 6) {
        const Eigen::Map<const Eigen::Matrix<double, 3, 6>> J(jacobian(i, k).data());
        y->segment<6>(tree_start_[t]).noalias() += J.transpose() * gamma.segment<3>(e.row_start);
        continue;
      }
      y->segment(tree_start_[t], tree_nv_[t]).noalias() +=
          jacobian(i, k).transpose().lazyProduct(gamma.segment(e.row_start, e.num_rows));
    }
  }
}

void ConvexProblem::MultiplyA(const Eigen::VectorXd& x, Eigen::VectorXd* y) const {
  if (y->size() != nv_) y->resize(nv_);
  for (int t = 0; t < num_trees(); ++t) {
    if (tree_nv_[t] == 6) {  // a free body: Eigen's fixed-size product, not its dynamic dispatch
      y->segment<6>(tree_start_[t]).noalias() =
          Eigen::Map<const Eigen::Matrix<double, 6, 6>>(tree_A(t).data()) *
          x.segment<6>(tree_start_[t]);
    } else {
      y->segment(tree_start_[t], tree_nv_[t]).noalias() =
          tree_A(t) * x.segment(tree_start_[t], tree_nv_[t]);
    }
  }
}

bool ConvexProblem::AllFinite() const {
  // Eigen's vectorized test ((x − x) == 0 for every entry): the arenas hold a step's every
  // Jacobian block, and an element-wise isfinite loop cost 1.5 % of a peg-in-hole step.
  const auto finite = [](const double* p, size_t n) {
    return Eigen::Map<const Eigen::ArrayXd>(p, static_cast<Eigen::Index>(n)).allFinite();
  };
  return finite(A_arena_.data(), A_arena_.size()) && v_star_.allFinite() &&
         finite(J_arena_.data(), J_size_) && bias_.head(num_rows_).allFinite();
}

}  // namespace contactlab
