// Multibody dynamics in joint coordinates (Featherstone, "Rigid Body Dynamics Algorithms",
// RBDA). All spatial quantities are world-frame 6-vectors referred to the world origin O
// (see MultibodyData): motion [ω; v_O], force [n_O; f]. In that single frame
//   V_b = V_parent + S_b v_b,
//   a_b = a_parent + Ṡ_b v_b + S_b v̇_b,
// with S_b the joint's motion subspace in world coordinates, and no coordinate transforms are
// needed between bodies (the "absolute coordinates" form of the RBDA recursions).
#include "engine/multibody/multibody.h"

#include <spdlog/spdlog.h>

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace contactlab {
namespace {

using SpatialVector = MultibodyData::SpatialVector;
using SpatialMatrix = MultibodyData::SpatialMatrix;

Eigen::Matrix3d Skew(const Eigen::Vector3d& a) {
  Eigen::Matrix3d S;
  S << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return S;
}

// Motion cross product V ×ₘ m (RBDA ch. 2): rate of change, in the world frame, of a motion
// vector m carried along by a body moving with V.
SpatialVector MotionCross(const SpatialVector& V, const SpatialVector& m) {
  SpatialVector r;
  r.head<3>() = V.head<3>().cross(m.head<3>());
  r.tail<3>() = V.tail<3>().cross(m.head<3>()) + V.head<3>().cross(m.tail<3>());
  return r;
}

// Force cross product V ×* f = −(V ×ₘ)ᵀ f (RBDA ch. 2).
SpatialVector ForceCross(const SpatialVector& V, const SpatialVector& f) {
  SpatialVector r;
  r.head<3>() = V.head<3>().cross(f.head<3>()) + V.tail<3>().cross(f.tail<3>());
  r.tail<3>() = V.head<3>().cross(f.tail<3>());
  return r;
}

// Spatial inertia about the point at offset r from the centre of mass, in the same frame
// (RBDA ch. 2): [[I_cm + m [r]×[r]×ᵀ, m [r]×], [m [r]×ᵀ, m 1]] for motion [ω; v].
// Here r = p_cm − p_point.
SpatialMatrix SpatialInertiaAbout(double m, const Eigen::Vector3d& r, const Eigen::Matrix3d& I_cm) {
  const Eigen::Matrix3d rx = Skew(r);
  SpatialMatrix I;
  I.topLeftCorner<3, 3>() = I_cm - m * rx * rx;  // [r]×ᵀ = −[r]×
  I.topRightCorner<3, 3>() = m * rx;
  I.bottomLeftCorner<3, 3>() = -m * rx;
  I.bottomRightCorner<3, 3>() = m * Eigen::Matrix3d::Identity();
  return I;
}

int NumPositions(JointType type) {
  switch (type) {
    case JointType::kFloating:
      return 7;
    case JointType::kRevolute:
    case JointType::kPrismatic:
      return 1;
    case JointType::kWeld:
      return 0;
  }
  return 0;
}

int NumVelocities(JointType type) {
  switch (type) {
    case JointType::kFloating:
      return 6;
    case JointType::kRevolute:
    case JointType::kPrismatic:
      return 1;
    case JointType::kWeld:
      return 0;
  }
  return 0;
}

const char* JointName(JointType type) {
  switch (type) {
    case JointType::kFloating:
      return "floating";
    case JointType::kRevolute:
      return "revolute";
    case JointType::kPrismatic:
      return "prismatic";
    case JointType::kWeld:
      return "weld";
  }
  return "unknown";
}

template <typename Derived>
std::string Format(const Eigen::MatrixBase<Derived>& m) {
  std::ostringstream os;
  const Eigen::IOFormat fmt(Eigen::StreamPrecision, Eigen::DontAlignCols, ", ", "; ", "", "", "[",
                            "]");
  os << m.format(fmt);
  return os.str();
}

[[noreturn]] void ThrowSpecError(const BodySpec& spec, int index, const std::string& field,
                                 const std::string& what) {
  std::ostringstream os;
  os << "body '" << spec.name << "' (index " << index << "): " << field << " " << what;
  throw std::invalid_argument(os.str());
}

// The checks of a body spec before it is added, each naming the field it rejects.
struct BodySpecCheck {
  const BodySpec& spec;
  int index;  // the index the body would get
  [[noreturn]] void Fail(const std::string& field, const std::string& what) const {
    ThrowSpecError(spec, index, field, what);
  }

  // A positive mass; a finite centre of mass; a symmetric positive definite rotational inertia
  // about it (and a warning when its principal moments break the triangle inequality).
  void Inertia() const {
    const SpatialInertiaSpec& in = spec.inertia;
    if (!std::isfinite(in.mass_kg) || in.mass_kg <= 0.0) {
      std::ostringstream os;
      os << "must be positive and finite, got " << in.mass_kg;
      Fail("mass_kg", os.str());
    }
    if (!in.com_B.allFinite()) Fail("com_B", "must be finite, got " + Format(in.com_B.transpose()));
    const Eigen::Matrix3d& I = in.inertia_about_com_B;
    if (!I.allFinite()) Fail("inertia_about_com_B", "must be finite, got " + Format(I));
    const double I_scale = I.cwiseAbs().maxCoeff();
    if ((I - I.transpose()).cwiseAbs().maxCoeff() > 1e-9 * I_scale) {
      Fail("inertia_about_com_B", "must be symmetric, got " + Format(I));
    }
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(I, Eigen::EigenvaluesOnly);
    const Eigen::Vector3d lambda = eig.eigenvalues();
    if (!(lambda.minCoeff() > 0.0)) {
      Fail("inertia_about_com_B", "must be positive definite (about the centre of mass), got " +
                                      Format(I) + " with eigenvalues " +
                                      Format(lambda.transpose()));
    }
    // Principal moments of a real body satisfy the triangle inequality; a violation usually
    // means the inertia was given about the wrong point, but is not fatal for the dynamics.
    if (lambda(0) + lambda(1) < lambda(2) * (1.0 - 1e-6)) {
      spdlog::warn(
          "body '{}': principal moments of inertia_about_com_B violate the triangle "
          "inequality ({}, {}, {} kg·m²)",
          spec.name, lambda(0), lambda(1), lambda(2));
    }
  }

  // A finite, proper rigid placement X_PJ; the identity for a floating joint, whose q is X_PB
  // itself (header conventions): a placement would silently shift the pose.
  void Placement() const {
    const Eigen::Matrix4d X = spec.X_PJ.matrix();
    if (!X.allFinite()) Fail("X_PJ", "must be finite, got " + Format(X));
    const Eigen::Matrix3d R_PJ = spec.X_PJ.linear();
    if ((R_PJ.transpose() * R_PJ - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() > 1e-9 ||
        R_PJ.determinant() < 0.0) {
      Fail("X_PJ", "rotation must be orthonormal with determinant +1, got " + Format(R_PJ));
    }
    if (spec.joint == JointType::kFloating && !X.isApprox(Eigen::Matrix4d::Identity(), 1e-12)) {
      Fail("X_PJ",
           "must be the identity for a floating joint (set the pose with "
           "SetFloatingPose), got " +
               Format(X));
    }
  }

  // A 1-dof joint's unit axis (returned exactly unit) and finite spring and damper.
  Eigen::Vector3d OneDofJoint() const {
    if (!spec.axis.allFinite()) {
      Fail("axis", "must be finite, got " + Format(spec.axis.transpose()));
    }
    const double norm = spec.axis.norm();
    if (std::abs(norm - 1.0) > 1e-6) {
      std::ostringstream os;
      os << "of a " << JointName(spec.joint) << " joint must be a unit vector, got "
         << Format(spec.axis.transpose()) << " (norm " << norm << ")";
      Fail("axis", os.str());
    }
    Scalar("damping", spec.damping, true);
    Scalar("stiffness", spec.stiffness, true);
    Scalar("rest_position", spec.rest_position, false);
    return spec.axis / norm;
  }

  void Scalar(const char* field, double value, bool non_negative) const {
    if (!std::isfinite(value) || (non_negative && value < 0.0)) {
      std::ostringstream os;
      os << (non_negative ? "must be finite and non-negative, got " : "must be finite, got ")
         << value;
      Fail(field, os.str());
    }
  }
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Model construction.

int Multibody::AddBody(const BodySpec& spec_in) {
  const int index = num_bodies();
  const BodySpecCheck check{spec_in, index};
  if (spec_in.parent < -1 || spec_in.parent >= index) {
    check.Fail("parent", "must be -1 (world) or the index of a body added before it (< " +
                             std::to_string(index) + "), got " + std::to_string(spec_in.parent));
  }
  check.Inertia();
  check.Placement();
  BodySpec spec = spec_in;
  if (spec.joint == JointType::kRevolute || spec.joint == JointType::kPrismatic) {
    spec.axis = check.OneDofJoint();  // exactly unit from here on
  } else {
    if (spec.damping != 0.0 || spec.stiffness != 0.0) {
      spdlog::warn(
          "body '{}': damping/stiffness apply to 1-dof joints only; ignored for its {} "
          "joint",
          spec.name, JointName(spec.joint));
    }
    spec.damping = 0.0;
    spec.stiffness = 0.0;
    spec.rest_position = 0.0;
  }
  bodies_.push_back(std::move(spec));
  finalized_ = false;
  return index;
}

void Multibody::Finalize() {
  const int n = num_bodies();
  body_tree_.assign(n, -1);
  q_start_.assign(n, 0);
  v_start_.assign(n, 0);
  tree_bodies_.clear();
  for (int b = 0; b < n; ++b) {
    const int parent = bodies_[b].parent;
    if (parent < 0) {
      body_tree_[b] = static_cast<int>(tree_bodies_.size());
      tree_bodies_.emplace_back();
    } else {
      body_tree_[b] = body_tree_[parent];
    }
    // Parents precede children, so each tree's list is in topological order.
    tree_bodies_[body_tree_[b]].push_back(b);
  }
  const int num_trees = static_cast<int>(tree_bodies_.size());
  tree_velocity_start_.assign(num_trees, 0);
  tree_num_velocities_.assign(num_trees, 0);
  nq_ = 0;
  nv_ = 0;
  for (int t = 0; t < num_trees; ++t) {
    tree_velocity_start_[t] = nv_;
    for (int b : tree_bodies_[t]) {
      q_start_[b] = nq_;
      v_start_[b] = nv_;
      nq_ += NumPositions(bodies_[b].joint);
      nv_ += NumVelocities(bodies_[b].joint);
    }
    tree_num_velocities_[t] = nv_ - tree_velocity_start_[t];
  }
  joint_damping_ = Eigen::VectorXd::Zero(nv_);
  joint_stiffness_ = Eigen::VectorXd::Zero(nv_);
  for (int b = 0; b < n; ++b) {
    if (NumVelocities(bodies_[b].joint) == 1) {
      joint_damping_[v_start_[b]] = bodies_[b].damping;
      joint_stiffness_[v_start_[b]] = bodies_[b].stiffness;
    }
  }
  finalized_ = true;
}

int Multibody::FindBody(const std::string& name) const {
  for (int b = 0; b < num_bodies(); ++b) {
    if (bodies_[b].name == name) return b;
  }
  return -1;
}

int Multibody::joint_num_positions(int body) const { return NumPositions(bodies_[body].joint); }
int Multibody::joint_num_velocities(int body) const { return NumVelocities(bodies_[body].joint); }

Eigen::VectorXd Multibody::DefaultPositions() const {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(nq_);
  for (int b = 0; b < num_bodies(); ++b) {
    if (bodies_[b].joint == JointType::kFloating) q[q_start_[b] + 3] = 1.0;  // quaternion w
  }
  return q;
}

void Multibody::SetFloatingPose(int body, const Eigen::Isometry3d& X_PB, Eigen::VectorXd* q) const {
  if (body < 0 || body >= num_bodies() || bodies_[body].joint != JointType::kFloating) {
    throw std::invalid_argument("SetFloatingPose: body " + std::to_string(body) +
                                " does not have a floating joint");
  }
  const int i = q_start_[body];
  const Eigen::Quaterniond quat = Eigen::Quaterniond(X_PB.linear()).normalized();
  q->segment<3>(i) = X_PB.translation();
  (*q)[i + 3] = quat.w();
  (*q)[i + 4] = quat.x();
  (*q)[i + 5] = quat.y();
  (*q)[i + 6] = quat.z();
}

MultibodyData::MultibodyData(const Multibody& model) {
  if (!model.finalized_) {
    throw std::logic_error("MultibodyData: call Multibody::Finalize() after the last AddBody");
  }
  const int n = model.num_bodies();
  q = model.DefaultPositions();
  v = Eigen::VectorXd::Zero(model.num_velocities());
  X_WB.assign(n, Eigen::Isometry3d::Identity());
  w_WB.assign(n, Eigen::Vector3d::Zero());
  v_WBo.assign(n, Eigen::Vector3d::Zero());
  joint_motion_subspace_W.resize(n);
  for (int b = 0; b < n; ++b) {
    joint_motion_subspace_W[b].setZero(6, model.joint_num_velocities(b));
  }
  spatial_velocity_W.assign(n, SpatialVector::Zero());
  p_WBcm.assign(n, Eigen::Vector3d::Zero());
  spatial_inertia_W.assign(n, SpatialMatrix::Zero());
  composite_inertia_W.assign(n, SpatialMatrix::Zero());
  velocity_product_acceleration_W.assign(n, SpatialVector::Zero());
  subtree_velocity_product_force_W.assign(n, SpatialVector::Zero());
  model.UpdateKinematics(q, v, this);
}

// ---------------------------------------------------------------------------------------------
// Kinematics and the recursive passes that depend only on (q, v).

// The joint of body b at (q, v), given its parent's pose X_WP and spatial velocity V_P: the
// body's pose X_WB and motion subspace S_b (into data), the relative spatial velocity S_b v_b
// and the velocity-product term Ṡ_b v_b (RBDA ch. 4–5).
void Multibody::CalcJointKinematics(int b, const Eigen::Isometry3d& X_WP,
                                    const Eigen::Matrix<double, 6, 1>& V_P,
                                    const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                    MultibodyData* data, Eigen::Matrix<double, 6, 1>* Sv_out,
                                    Eigen::Matrix<double, 6, 1>* Sdot_v_out) const {
  using SpatialVector = MultibodyData::SpatialVector;
  const BodySpec& body = bodies_[b];
  const int parent = body.parent;
  auto& S = data->joint_motion_subspace_W[b];
  Eigen::Isometry3d& X_WB = data->X_WB[b];
  SpatialVector& Sv = *Sv_out;
  SpatialVector& Sdot_v = *Sdot_v_out;
  const int iq = q_start_[b];
  const int iv = v_start_[b];
  switch (body.joint) {
    case JointType::kFloating: {
      const Eigen::Quaterniond quat =
          Eigen::Quaterniond(q[iq + 3], q[iq + 4], q[iq + 5], q[iq + 6]).normalized();
      Eigen::Isometry3d X_PB = Eigen::Isometry3d::Identity();
      X_PB.linear() = quat.toRotationMatrix();
      X_PB.translation() = q.segment<3>(iq);
      // v = [ω; v_o] in P's frame about B's origin p_B. Relative spatial velocity at O:
      // angular ω_r = R_WP ω, linear u + p_B × ω_r with u = R_WP v_o, so
      // S = [[R_WP, 0], [[p_B]× R_WP, R_WP]].
      // Ṡ v at fixed v: R_WP turns with ω_P and p_B moves with v_WBo. Expanding (Jacobi
      // identity) gives V_P ×ₘ (S v) plus the drift u × ω_r of the relative screw axis.
      S.setZero();
      if (parent < 0) {
        // Root (the common free-body case): R_WP = 1, V_P = 0.
        X_WB = X_PB;
        const Eigen::Vector3d p_B = X_WB.translation();
        S.topLeftCorner<3, 3>().setIdentity();
        S.bottomLeftCorner<3, 3>() = Skew(p_B);
        S.bottomRightCorner<3, 3>().setIdentity();
        const Eigen::Vector3d w_r = v.segment<3>(iv);
        const Eigen::Vector3d u = v.segment<3>(iv + 3);
        Sv.head<3>() = w_r;
        Sv.tail<3>() = p_B.cross(w_r) + u;
        Sdot_v.tail<3>() = u.cross(w_r);
      } else {
        X_WB = X_WP * X_PB;
        const Eigen::Matrix3d& R_WP = X_WP.linear();
        const Eigen::Vector3d p_B = X_WB.translation();
        S.topLeftCorner<3, 3>() = R_WP;
        S.bottomLeftCorner<3, 3>() = Skew(p_B) * R_WP;
        S.bottomRightCorner<3, 3>() = R_WP;
        const Eigen::Vector3d w_r = R_WP * v.segment<3>(iv);
        const Eigen::Vector3d u = R_WP * v.segment<3>(iv + 3);
        Sv.head<3>() = w_r;
        Sv.tail<3>() = p_B.cross(w_r) + u;
        Sdot_v = MotionCross(V_P, Sv);
        Sdot_v.tail<3>() += u.cross(w_r);
      }
      break;
    }
    case JointType::kRevolute: {
      const Eigen::Isometry3d X_WJ = X_WP * body.X_PJ;
      X_WB = X_WJ;
      X_WB.linear() = X_WJ.linear() * Eigen::AngleAxisd(q[iq], body.axis).toRotationMatrix();
      // Rotation about the axis line through the joint origin o: S = [a; o × a].
      const Eigen::Vector3d a = X_WJ.linear() * body.axis;
      const Eigen::Vector3d o = X_WJ.translation();
      S.col(0).head<3>() = a;
      S.col(0).tail<3>() = o.cross(a);
      Sv = S.col(0) * v[iv];
      // The axis line is fixed in P, so Ṡ = V_P ×ₘ S.
      Sdot_v = MotionCross(V_P, Sv);
      break;
    }
    case JointType::kPrismatic: {
      const Eigen::Isometry3d X_WJ = X_WP * body.X_PJ;
      const Eigen::Vector3d a = X_WJ.linear() * body.axis;
      X_WB = X_WJ;
      X_WB.translation() += a * q[iq];
      S.col(0).head<3>().setZero();
      S.col(0).tail<3>() = a;
      Sv = S.col(0) * v[iv];
      Sdot_v = MotionCross(V_P, Sv);  // direction fixed in P
      break;
    }
    case JointType::kWeld:
      X_WB = X_WP * body.X_PJ;
      break;
  }
}

void Multibody::UpdateKinematics(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                 MultibodyData* data) const {
  if (!finalized_) {
    throw std::logic_error("UpdateKinematics: call Multibody::Finalize() after the last AddBody");
  }
  if (q.size() != nq_ || v.size() != nv_) {
    throw std::invalid_argument("UpdateKinematics: expected q of size " + std::to_string(nq_) +
                                " and v of size " + std::to_string(nv_) + ", got " +
                                std::to_string(q.size()) + " and " + std::to_string(v.size()));
  }
  data->q = q;
  data->v = v;
  const int n = num_bodies();

  // Forward pass (parents first): poses, S_b, V_b, inertias, and the velocity-product
  // accelerations a_b = a_parent + Ṡ_b v_b of RNEA with v̇ = 0 (RBDA ch. 5).
  for (int b = 0; b < n; ++b) {
    const BodySpec& body = bodies_[b];
    const int parent = body.parent;
    const Eigen::Isometry3d X_WP = parent < 0 ? Eigen::Isometry3d::Identity() : data->X_WB[parent];
    SpatialVector V_P = SpatialVector::Zero();
    SpatialVector a_P = SpatialVector::Zero();
    if (parent >= 0) {
      V_P = data->spatial_velocity_W[parent];
      a_P = data->velocity_product_acceleration_W[parent];
    }
    SpatialVector Sv = SpatialVector::Zero();  // relative spatial velocity S_b v_b
    SpatialVector Sdot_v = SpatialVector::Zero();
    CalcJointKinematics(b, X_WP, V_P, q, v, data, &Sv, &Sdot_v);
    const Eigen::Isometry3d& X_WB = data->X_WB[b];

    const SpatialVector V = V_P + Sv;
    data->spatial_velocity_W[b] = V;
    data->w_WB[b] = V.head<3>();
    data->v_WBo[b] = V.tail<3>() + V.head<3>().cross(X_WB.translation());
    data->velocity_product_acceleration_W[b] = a_P + Sdot_v;

    const SpatialInertiaSpec& in = body.inertia;
    const Eigen::Matrix3d& R_WB = X_WB.linear();
    const Eigen::Vector3d p_cm = X_WB * in.com_B;
    data->p_WBcm[b] = p_cm;
    const SpatialMatrix I_b =
        SpatialInertiaAbout(in.mass_kg, p_cm, R_WB * in.inertia_about_com_B * R_WB.transpose());
    data->spatial_inertia_W[b] = I_b;
    // Seeds of the backward pass below: the body's own inertia and its RNEA force
    // f_b = I_b a_b + V_b ×* (I_b V_b) (RBDA ch. 5).
    data->composite_inertia_W[b] = I_b;
    data->subtree_velocity_product_force_W[b] =
        I_b * data->velocity_product_acceleration_W[b] + ForceCross(V, I_b * V);
  }

  // Backward pass: composite inertias for CRBA (RBDA ch. 6) and subtree sums of the RNEA
  // forces. Children have larger indices than their parents, so when b is reached every
  // descendant has already been folded into it; all quantities share the world frame, so the
  // accumulation is a plain sum.
  for (int b = n - 1; b >= 0; --b) {
    const int parent = bodies_[b].parent;
    if (parent < 0) continue;
    data->composite_inertia_W[parent] += data->composite_inertia_W[b];
    data->subtree_velocity_product_force_W[parent] += data->subtree_velocity_product_force_W[b];
  }
}

// ---------------------------------------------------------------------------------------------
// Dynamics.

namespace {

// M block of a single body on a floating joint to the world: v = [ω; v_o] about the body
// origin p_B, so M is the spatial inertia about p_B (in world axes), written out directly
// instead of Sᵀ I S (parallel-axis form, r = p_cm − p_B).
void FreeBodyMassMatrix(const BodySpec& body, const MultibodyData& data, int b,
                        Eigen::Ref<Eigen::MatrixXd> M) {
  const Eigen::Matrix3d& R_WB = data.X_WB[b].linear();
  const Eigen::Vector3d r = R_WB * body.inertia.com_B;
  M = SpatialInertiaAbout(body.inertia.mass_kg, r,
                          R_WB * body.inertia.inertia_about_com_B * R_WB.transpose());
}

}  // namespace

void Multibody::CalcTreeMassMatrixInto(const MultibodyData& data, int tree,
                                       Eigen::Ref<Eigen::MatrixXd> M) const {
  const std::vector<int>& bodies = tree_bodies_[tree];
  const int v0 = tree_velocity_start_[tree];
  if (bodies.size() == 1 && bodies_[bodies[0]].joint == JointType::kFloating) {
    FreeBodyMassMatrix(bodies_[bodies[0]], data, bodies[0], M);
    return;
  }
  // CRBA (RBDA ch. 6) in world coordinates: M_ii = S_iᵀ Ic_i S_i and, for each
  // ancestor j of i, M_ji = S_jᵀ Ic_i S_i. Blocks between bodies on different branches are 0.
  M.setZero();
  for (int i : bodies) {
    const int nd = NumVelocities(bodies_[i].joint);
    if (nd == 0) continue;
    const auto& S_i = data.joint_motion_subspace_W[i];
    MultibodyData::MotionSubspace F(6, nd);  // inline storage: no allocation
    F.noalias() = data.composite_inertia_W[i] * S_i;
    const int ci = v_start_[i] - v0;
    M.block(ci, ci, nd, nd).noalias() = S_i.transpose() * F;
    for (int j = bodies_[i].parent; j >= 0; j = bodies_[j].parent) {
      const int nj = NumVelocities(bodies_[j].joint);
      if (nj == 0) continue;
      const int cj = v_start_[j] - v0;
      M.block(cj, ci, nj, nd).noalias() = data.joint_motion_subspace_W[j].transpose() * F;
      M.block(ci, cj, nd, nj) = M.block(cj, ci, nj, nd).transpose();
    }
  }
}

void Multibody::CalcTreeMassMatrix(const MultibodyData& data, int tree, Eigen::MatrixXd* M) const {
  const int nt = tree_num_velocities_[tree];
  M->resize(nt, nt);  // no-op (no allocation) when the caller pre-sized M
  CalcTreeMassMatrixInto(data, tree, *M);
}

void Multibody::CalcMassMatrix(const MultibodyData& data, Eigen::MatrixXd* M) const {
  M->setZero(nv_, nv_);
  for (int t = 0; t < num_trees(); ++t) {
    const int v0 = tree_velocity_start_[t];
    const int nt = tree_num_velocities_[t];
    CalcTreeMassMatrixInto(data, t, M->block(v0, v0, nt, nt));
  }
}

void Multibody::CalcBiasForces(const MultibodyData& data, const Eigen::Vector3d& gravity_W,
                               Eigen::VectorXd* c) const {
  c->resize(nv_);
  // RNEA with v̇ = 0 (RBDA ch. 5): gravity enters as a fictitious upward base acceleration
  // a_0 = −g, the usual RNEA device. In world coordinates referred to O that acceleration,
  // [0; −g], is the same for every body, so the subtree force it adds is Ic_b [0; −g];
  // the velocity-product part was summed in UpdateKinematics.
  SpatialVector a_gravity;
  a_gravity << 0.0, 0.0, 0.0, -gravity_W;
  for (int b = 0; b < num_bodies(); ++b) {
    const int nd = NumVelocities(bodies_[b].joint);
    if (nd == 0) continue;
    const SpatialVector f =
        data.subtree_velocity_product_force_W[b] + data.composite_inertia_W[b] * a_gravity;
    c->segment(v_start_[b], nd).noalias() = data.joint_motion_subspace_W[b].transpose() * f;
  }
}

template <typename ColumnFn>
void Multibody::ForEachAncestorColumn(const char* caller, int rows, const MultibodyData& data,
                                      int body, Eigen::Ref<Eigen::MatrixXd> J,
                                      ColumnFn&& column) const {
  const int tree = body_tree_[body];
  if (J.rows() != rows || J.cols() != tree_num_velocities_[tree]) {
    throw std::invalid_argument(std::string(caller) + ": J must be " + std::to_string(rows) +
                                " x " + std::to_string(tree_num_velocities_[tree]));
  }
  const int v0 = tree_velocity_start_[tree];
  for (int k = body; k >= 0; k = bodies_[k].parent) {
    const auto& S = data.joint_motion_subspace_W[k];
    const int ck = v_start_[k] - v0;
    for (int i = 0; i < S.cols(); ++i) column(ck + i, S.col(i));
  }
}

void Multibody::CalcJacobianRows(const char* caller, int rows, const MultibodyData& data, int body,
                                 const Eigen::Vector3d& p_W, Eigen::Ref<Eigen::MatrixXd> J) const {
  J.setZero();
  // Each ancestor joint's motion [ω; v_O] moves the point p_W with v_O + ω × p_W (the last
  // three rows; the frame Jacobian's first three are ω itself).
  ForEachAncestorColumn(caller, rows, data, body, J, [&](int c, const auto& s) {
    if (rows == 6) J.col(c).head<3>() = s.template head<3>();
    J.col(c).tail<3>() = s.template tail<3>() + s.template head<3>().cross(p_W);
  });
}

void Multibody::AddRotatedPointJacobian(const MultibodyData& data, int body,
                                        const Eigen::Vector3d& p_W, const Eigen::Matrix3d& R,
                                        Eigen::Ref<Eigen::MatrixXd> J) const {
  ForEachAncestorColumn("AddRotatedPointJacobian", 3, data, body, J, [&](int c, const auto& s) {
    const Eigen::Vector3d v_P = s.template tail<3>() + s.template head<3>().cross(p_W);
    J.col(c) += R * v_P;
  });
}

void Multibody::CalcFrameJacobian(const MultibodyData& data, int body, const Eigen::Vector3d& p_W,
                                  Eigen::Ref<Eigen::MatrixXd> J) const {
  CalcJacobianRows("CalcFrameJacobian", 6, data, body, p_W, J);
}

void Multibody::CalcPointJacobian(const MultibodyData& data, int body, const Eigen::Vector3d& p_W,
                                  Eigen::Ref<Eigen::MatrixXd> J) const {
  CalcJacobianRows("CalcPointJacobian", 3, data, body, p_W, J);
}

void Multibody::CalcJointSpringForces(const Eigen::VectorXd& q, Eigen::VectorXd* tau) const {
  tau->setZero(nv_);
  for (int b = 0; b < num_bodies(); ++b) {
    const BodySpec& body = bodies_[b];
    if (NumVelocities(body.joint) != 1 || body.stiffness == 0.0) continue;
    (*tau)[v_start_[b]] = -body.stiffness * (q[q_start_[b]] - body.rest_position);
  }
}

void Multibody::IntegratePositions(const Eigen::VectorXd& q0, const Eigen::VectorXd& v, double dt,
                                   Eigen::VectorXd* q) const {
  // docs/contact-model.md §1 step 3: q = q0 + δt N(q0) v, then renormalize quaternions.
  if (q != &q0) *q = q0;
  for (int b = 0; b < num_bodies(); ++b) {
    const int iq = q_start_[b];
    const int iv = v_start_[b];
    switch (bodies_[b].joint) {
      case JointType::kFloating: {
        q->segment<3>(iq) += dt * v.segment<3>(iv + 3);
        // quaṫ = ½ [0, ω] ⊗ quat (ω in P's frame).
        const Eigen::Quaterniond quat(q0[iq + 3], q0[iq + 4], q0[iq + 5], q0[iq + 6]);
        const Eigen::Vector3d w = v.segment<3>(iv);
        Eigen::Quaterniond quat_dot = Eigen::Quaterniond(0.0, w.x(), w.y(), w.z()) * quat;
        Eigen::Quaterniond quat_new(quat.coeffs() + 0.5 * dt * quat_dot.coeffs());
        quat_new.normalize();
        (*q)[iq + 3] = quat_new.w();
        (*q)[iq + 4] = quat_new.x();
        (*q)[iq + 5] = quat_new.y();
        (*q)[iq + 6] = quat_new.z();
        break;
      }
      case JointType::kRevolute:
      case JointType::kPrismatic:
        (*q)[iq] += dt * v[iv];
        break;
      case JointType::kWeld:
        break;
    }
  }
}

double Multibody::CalcKineticEnergy(const MultibodyData& data) const {
  // Σ ½ (m ‖v_cm‖² + ωᵀ I_cm ω), evaluated about each centre of mass rather than as
  // ½ Vᵀ I V about O, which would lose digits far from the origin.
  double T = 0.0;
  for (int b = 0; b < num_bodies(); ++b) {
    const SpatialInertiaSpec& in = bodies_[b].inertia;
    const Eigen::Vector3d& w = data.w_WB[b];
    const Eigen::Vector3d v_cm =
        data.v_WBo[b] + w.cross(data.p_WBcm[b] - data.X_WB[b].translation());
    const Eigen::Vector3d w_B = data.X_WB[b].linear().transpose() * w;
    T += 0.5 * (in.mass_kg * v_cm.squaredNorm() + w_B.dot(in.inertia_about_com_B * w_B));
  }
  return T;
}

double Multibody::CalcPotentialEnergy(const MultibodyData& data,
                                      const Eigen::Vector3d& gravity_W) const {
  double V = 0.0;
  for (int b = 0; b < num_bodies(); ++b) {
    const BodySpec& body = bodies_[b];
    V -= body.inertia.mass_kg * gravity_W.dot(data.p_WBcm[b]);
    if (NumVelocities(body.joint) == 1 && body.stiffness != 0.0) {
      const double dq = data.q[q_start_[b]] - body.rest_position;
      V += 0.5 * body.stiffness * dq * dq;
    }
  }
  return V;
}

}  // namespace contactlab
