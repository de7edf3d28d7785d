// Tests of the multibody module against independent answers: finite differences of the
// kinematics, energy-based and Lagrangian identities, closed-form rigid-body results, and
// long integrations with known invariants (docs/contact-model.md §1 time stepping).
#include "engine/multibody/multibody.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "test_support/allocation_counter.h"

namespace contactlab {
namespace {

using Eigen::Isometry3d;
using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;
using Matrix6d = Eigen::Matrix<double, 6, 6>;
using Vector6d = Eigen::Matrix<double, 6, 1>;

constexpr double kPi = 3.14159265358979323846;

Matrix3d Skew(const Vector3d& a) {
  Matrix3d S;
  S << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return S;
}

class Random {
 public:
  explicit Random(unsigned seed) : gen_(seed) {}
  double Uniform(double lo, double hi) { return std::uniform_real_distribution<>(lo, hi)(gen_); }
  Vector3d Vec(double scale) {
    return Vector3d(Uniform(-scale, scale), Uniform(-scale, scale), Uniform(-scale, scale));
  }
  Vector3d Unit() {
    Vector3d a;
    do a = Vec(1.0);
    while (a.norm() < 0.1);
    return a.normalized();
  }
  Matrix3d Rotation() { return Eigen::AngleAxisd(Uniform(-kPi, kPi), Unit()).toRotationMatrix(); }
  Isometry3d Pose(double scale) {
    Isometry3d X = Isometry3d::Identity();
    X.linear() = Rotation();
    X.translation() = Vec(scale);
    return X;
  }
  // Inertia of a solid box with random sides, randomly rotated: SPD and physically valid.
  SpatialInertiaSpec Inertia(double mass) {
    SpatialInertiaSpec s;
    s.mass_kg = mass;
    s.com_B = Vec(0.2);
    const Vector3d l(Uniform(0.05, 0.5), Uniform(0.05, 0.5), Uniform(0.05, 0.5));
    const Vector3d d(l.y() * l.y() + l.z() * l.z(), l.x() * l.x() + l.z() * l.z(),
                     l.x() * l.x() + l.y() * l.y());
    const Matrix3d R = Rotation();
    s.inertia_about_com_B = R * (mass / 12.0 * d).asDiagonal() * R.transpose();
    return s;
  }

 private:
  std::mt19937 gen_;
};

BodySpec Spec(const std::string& name, int parent, JointType joint, Random* rng) {
  BodySpec s;
  s.name = name;
  s.parent = parent;
  s.joint = joint;
  if (joint != JointType::kFloating) s.X_PJ = rng->Pose(0.5);
  s.axis = rng->Unit();
  s.inertia = rng->Inertia(rng->Uniform(0.5, 3.0));
  return s;
}

// A forest mixing every joint type: a floating base with a revolute–prismatic–weld–floating
// chain and a revolute branch; a second free body; a revolute–prismatic arm on the world; and a
// body welded to the world (a tree without velocities).
Multibody MakeMixedForest(Random* rng) {
  Multibody mb;
  mb.AddBody(Spec("base", -1, JointType::kFloating, rng));     // 0
  mb.AddBody(Spec("link1", 0, JointType::kRevolute, rng));     // 1
  mb.AddBody(Spec("slider", 1, JointType::kPrismatic, rng));   // 2
  mb.AddBody(Spec("welded", 2, JointType::kWeld, rng));        // 3
  mb.AddBody(Spec("floater", 3, JointType::kFloating, rng));   // 4 (non-world parent)
  mb.AddBody(Spec("ground", -1, JointType::kWeld, rng));       // 5 (tree with nv = 0)
  mb.AddBody(Spec("free", -1, JointType::kFloating, rng));     // 6
  mb.AddBody(Spec("branch", 0, JointType::kRevolute, rng));    // 7 (tree 0, after tree 1)
  mb.AddBody(Spec("arm", 5, JointType::kRevolute, rng));       // 8 (child of welded root)
  mb.AddBody(Spec("forearm", 8, JointType::kPrismatic, rng));  // 9
  mb.Finalize();
  return mb;
}

VectorXd RandomPositions(const Multibody& mb, Random* rng) {
  VectorXd q = mb.DefaultPositions();
  for (int b = 0; b < mb.num_bodies(); ++b) {
    if (mb.body(b).joint == JointType::kFloating) {
      mb.SetFloatingPose(b, rng->Pose(1.0), &q);
    } else if (mb.joint_num_positions(b) == 1) {
      q[mb.position_start(b)] = rng->Uniform(-1.0, 1.0);
    }
  }
  return q;
}

VectorXd RandomVelocities(const Multibody& mb, Random* rng) {
  VectorXd v(mb.num_velocities());
  for (int i = 0; i < v.size(); ++i) v[i] = rng->Uniform(-2.0, 2.0);
  return v;
}

// A random state (q, v) of mb, and the kinematics at q (*d) and at q(±h) = integrate(q, v, ±h)
// (*dp, *dm): central differences along the motion.
void UpdateRandomStateAndNeighbours(const Multibody& mb, double h, Random* rng, VectorXd* q,
                                    VectorXd* v, MultibodyData* d, MultibodyData* dp,
                                    MultibodyData* dm) {
  *q = RandomPositions(mb, rng);
  *v = RandomVelocities(mb, rng);
  VectorXd qp, qm;
  mb.IntegratePositions(*q, *v, h, &qp);
  mb.IntegratePositions(*q, *v, -h, &qm);
  mb.UpdateKinematics(*q, *v, d);
  mb.UpdateKinematics(qp, *v, dp);
  mb.UpdateKinematics(qm, *v, dm);
}

// Angular velocity from poses at ±h: R(h) R(−h)ᵀ ≈ exp(2h [ω]×).
Vector3d AngularVelocityFd(const Matrix3d& R_plus, const Matrix3d& R_minus, double h) {
  const Eigen::AngleAxisd aa(R_plus * R_minus.transpose());
  return aa.angle() * aa.axis() / (2.0 * h);
}

// Kinetic energy body by body from the world velocities: Σ ½ (m ‖v_cm‖² + ωᵀ I_W ω).
double KineticEnergyByBodies(const Multibody& mb, const MultibodyData& d) {
  double T = 0.0;
  for (int b = 0; b < mb.num_bodies(); ++b) {
    const SpatialInertiaSpec& in = mb.body(b).inertia;
    const Matrix3d R = d.X_WB[b].linear();
    const Vector3d v_cm = d.v_WBo[b] + d.w_WB[b].cross(R * in.com_B);
    const Matrix3d I_W = R * in.inertia_about_com_B * R.transpose();
    T += 0.5 * (in.mass_kg * v_cm.squaredNorm() + d.w_WB[b].dot(I_W * d.w_WB[b]));
  }
  return T;
}

// ---------------------------------------------------------------------------------------------
// Structure.

TEST(MultibodyStructure, TreesAreContiguousInRootOrder) {
  Random rng(1);
  const Multibody mb = MakeMixedForest(&rng);
  // Roots in index order: base (0), ground (5, carrying arm and forearm), free (6).
  ASSERT_EQ(mb.num_trees(), 3);
  EXPECT_EQ(mb.tree_num_velocities(0), 6 + 1 + 1 + 0 + 6 + 1);
  EXPECT_EQ(mb.tree_num_velocities(1), 0 + 1 + 1);
  EXPECT_EQ(mb.tree_num_velocities(2), 6);
  EXPECT_EQ(mb.tree_velocity_start(0), 0);
  EXPECT_EQ(mb.tree_velocity_start(1), 15);
  EXPECT_EQ(mb.tree_velocity_start(2), 17);
  EXPECT_EQ(mb.num_velocities(), 23);
  EXPECT_EQ(mb.num_positions(), 26);
  // Within a tree, bodies in index order; "branch" (7) belongs to tree 0 and comes after
  // "floater" although "ground" and "free" were added in between.
  const int expected_v_start[] = {0, 6, 7, 8, 8, 15, 17, 14, 15, 16};
  const int expected_q_start[] = {0, 7, 8, 9, 9, 17, 19, 16, 17, 18};
  const int expected_tree[] = {0, 0, 0, 0, 0, 1, 2, 0, 1, 1};
  for (int b = 0; b < mb.num_bodies(); ++b) {
    EXPECT_EQ(mb.velocity_start(b), expected_v_start[b]) << mb.body(b).name;
    EXPECT_EQ(mb.position_start(b), expected_q_start[b]) << mb.body(b).name;
    EXPECT_EQ(mb.body_tree(b), expected_tree[b]) << mb.body(b).name;
  }
  EXPECT_EQ(mb.FindBody("forearm"), 9);
  EXPECT_EQ(mb.FindBody("nope"), -1);
  EXPECT_EQ(mb.joint_num_positions(0), 7);
  EXPECT_EQ(mb.joint_num_velocities(0), 6);
  EXPECT_EQ(mb.joint_num_velocities(3), 0);
}

TEST(MultibodyStructure, DefaultPositionsAndFloatingPose) {
  Random rng(2);
  const Multibody mb = MakeMixedForest(&rng);
  VectorXd q = mb.DefaultPositions();
  ASSERT_EQ(q.size(), mb.num_positions());
  EXPECT_EQ(q[3], 1.0);  // base quaternion w
  EXPECT_EQ(q.segment<3>(0).norm() + q.segment<3>(4).norm(), 0.0);

  const Isometry3d X_WBase = rng.Pose(1.0);
  const Isometry3d X_PFloater = rng.Pose(1.0);
  mb.SetFloatingPose(0, X_WBase, &q);
  mb.SetFloatingPose(4, X_PFloater, &q);
  MultibodyData d(mb);
  mb.UpdateKinematics(q, VectorXd::Zero(mb.num_velocities()), &d);
  EXPECT_TRUE(d.X_WB[0].isApprox(X_WBase, 1e-12));
  // X_PB(q) = X_PJ X_J(q) down the chain; at q = 0 for 1-dof joints X_J = identity.
  const Isometry3d X_WWelded = X_WBase * mb.body(1).X_PJ * mb.body(2).X_PJ * mb.body(3).X_PJ;
  EXPECT_TRUE(d.X_WB[3].isApprox(X_WWelded, 1e-12));
  EXPECT_TRUE(d.X_WB[4].isApprox(X_WWelded * X_PFloater, 1e-12));
  EXPECT_THROW(mb.SetFloatingPose(1, X_WBase, &q), std::invalid_argument);
}

TEST(MultibodyStructure, OneDofJointMotion) {
  // Revolute: rotation by q about the axis through the joint origin; prismatic: q·axis.
  Multibody mb;
  Random rng(3);
  BodySpec r = Spec("r", -1, JointType::kRevolute, &rng);
  BodySpec p = Spec("p", 0, JointType::kPrismatic, &rng);
  mb.AddBody(r);
  mb.AddBody(p);
  mb.Finalize();
  MultibodyData d(mb);
  VectorXd q(2);
  q << 0.7, -0.3;
  mb.UpdateKinematics(q, VectorXd::Zero(2), &d);
  const Isometry3d X_WR =
      r.X_PJ * Isometry3d(Eigen::AngleAxisd(0.7, r.axis.normalized()).toRotationMatrix());
  EXPECT_TRUE(d.X_WB[0].isApprox(X_WR, 1e-12));
  const Isometry3d X_WP = X_WR * p.X_PJ * Eigen::Translation3d(-0.3 * p.axis.normalized());
  EXPECT_TRUE(d.X_WB[1].isApprox(X_WP, 1e-12));
}

// ---------------------------------------------------------------------------------------------
// Kinematics and Jacobians vs finite differences along q(h) = integrate(q0, v, h).

TEST(MultibodyKinematics, VelocitiesAndJacobiansMatchFiniteDifferences) {
  Random rng(4);
  const Multibody mb = MakeMixedForest(&rng);
  MultibodyData d0(mb), dp(mb), dm(mb), dkp(mb), dkm(mb);
  const double h = 1e-6;
  for (int trial = 0; trial < 5; ++trial) {
    VectorXd q0, v;
    UpdateRandomStateAndNeighbours(mb, h, &rng, &q0, &v, &d0, &dp, &dm);
    for (int b = 0; b < mb.num_bodies(); ++b) {
      const std::string& name = mb.body(b).name;
      const int t = mb.body_tree(b);
      const int nt = mb.tree_num_velocities(t);
      const VectorXd v_tree = v.segment(mb.tree_velocity_start(t), nt);
      // A material point of b away from its origin.
      const Vector3d p_B = rng.Vec(0.5);
      const Vector3d p_W = d0.X_WB[b] * p_B;
      const Vector3d v_point_fd = (dp.X_WB[b] * p_B - dm.X_WB[b] * p_B) / (2 * h);
      const Vector3d w_fd = AngularVelocityFd(dp.X_WB[b].linear(), dm.X_WB[b].linear(), h);
      const Vector3d v_origin_fd = (dp.X_WB[b].translation() - dm.X_WB[b].translation()) / (2 * h);

      EXPECT_TRUE(d0.w_WB[b].isApprox(w_fd, 1e-6) || (d0.w_WB[b] - w_fd).norm() < 1e-7)
          << name << ": " << d0.w_WB[b].transpose() << " vs " << w_fd.transpose();
      EXPECT_LT((d0.v_WBo[b] - v_origin_fd).norm(), 1e-6 * (1 + v_origin_fd.norm())) << name;

      MatrixXd Jp(3, nt), Jf(6, nt);
      mb.CalcPointJacobian(d0, b, p_W, Jp);
      mb.CalcFrameJacobian(d0, b, p_W, Jf);
      EXPECT_LT((Jp * v_tree - v_point_fd).norm(), 1e-6 * (1 + v_point_fd.norm())) << name;
      EXPECT_LT((Jf.topRows<3>() * v_tree - w_fd).norm(), 1e-6 * (1 + w_fd.norm())) << name;
      EXPECT_LT((Jf.bottomRows<3>() - Jp).norm(), 1e-14) << name;
      // Accumulated into a filled J through a 3 × 3 map (a contact frame, a sign): the
      // increment maps v to R times the finite-difference point velocity.
      const Eigen::Matrix3d R = -Eigen::Quaterniond::UnitRandom().toRotationMatrix();
      const MatrixXd J_before = MatrixXd::Random(3, nt);
      MatrixXd J = J_before;
      mb.AddRotatedPointJacobian(d0, b, p_W, R, J);
      EXPECT_LT(((J - J_before) * v_tree - R * v_point_fd).norm(), 1e-6 * (1 + v_point_fd.norm()))
          << name;
      if (nt == 0) continue;
      // Each column separately: move one velocity at a time, so a wrong column ordering or a
      // column credited to the wrong joint cannot cancel out.
      for (int k = 0; k < nt; ++k) {
        VectorXd ek = VectorXd::Zero(mb.num_velocities());
        ek[mb.tree_velocity_start(t) + k] = 1.0;
        VectorXd qkp, qkm;
        mb.IntegratePositions(q0, ek, h, &qkp);
        mb.IntegratePositions(q0, ek, -h, &qkm);
        mb.UpdateKinematics(qkp, ek, &dkp);
        mb.UpdateKinematics(qkm, ek, &dkm);
        const Vector3d col_fd = (dkp.X_WB[b] * p_B - dkm.X_WB[b] * p_B) / (2 * h);
        const Vector3d wcol_fd = AngularVelocityFd(dkp.X_WB[b].linear(), dkm.X_WB[b].linear(), h);
        EXPECT_LT((Jp.col(k) - col_fd).norm(), 1e-6) << name << " column " << k;
        EXPECT_LT((Jf.col(k).head<3>() - wcol_fd).norm(), 1e-6) << name << " column " << k;
      }
    }
  }
}

TEST(MultibodyKinematics, JacobianSizeIsChecked) {
  Random rng(5);
  const Multibody mb = MakeMixedForest(&rng);
  MultibodyData d(mb);
  MatrixXd J(3, mb.num_velocities());
  EXPECT_THROW(mb.CalcPointJacobian(d, 6, Vector3d::Zero(), J), std::invalid_argument);
  EXPECT_THROW(mb.AddRotatedPointJacobian(d, 6, Vector3d::Zero(), Eigen::Matrix3d::Identity(), J),
               std::invalid_argument);
}

TEST(MultibodyKinematics, IntegratePositionsKeepsUnitQuaternions) {
  Random rng(6);
  const Multibody mb = MakeMixedForest(&rng);
  VectorXd q = RandomPositions(mb, &rng);
  const VectorXd v = 50.0 * RandomVelocities(mb, &rng);
  for (int i = 0; i < 100; ++i) mb.IntegratePositions(q, v, 0.01, &q);  // in place
  for (int b : {0, 4, 6}) {
    EXPECT_NEAR(q.segment<4>(mb.position_start(b) + 3).norm(), 1.0, 1e-14);
  }
  // 1-dof coordinates advance exactly by δt v.
  const VectorXd q0 = RandomPositions(mb, &rng);
  VectorXd q1;
  mb.IntegratePositions(q0, v, 0.01, &q1);
  EXPECT_DOUBLE_EQ(q1[mb.position_start(1)], q0[mb.position_start(1)] + 0.01 * v[6]);
  EXPECT_DOUBLE_EQ(q1[mb.position_start(6)], q0[mb.position_start(6)] + 0.01 * v[17 + 3]);
}

// ---------------------------------------------------------------------------------------------
// Mass matrix.

TEST(MultibodyMassMatrix, SymmetricPositiveDefiniteAndKineticEnergy) {
  Random rng(7);
  const Multibody mb = MakeMixedForest(&rng);
  MultibodyData d(mb);
  for (int trial = 0; trial < 5; ++trial) {
    const VectorXd q = RandomPositions(mb, &rng);
    const VectorXd v = RandomVelocities(mb, &rng);
    mb.UpdateKinematics(q, v, &d);
    MatrixXd M;
    mb.CalcMassMatrix(d, &M);
    ASSERT_EQ(M.rows(), mb.num_velocities());
    EXPECT_LT((M - M.transpose()).norm(), 1e-12 * M.norm());
    const Eigen::SelfAdjointEigenSolver<MatrixXd> eig(M);
    EXPECT_GT(eig.eigenvalues().minCoeff(), 1e-6);
    const double T_bodies = KineticEnergyByBodies(mb, d);
    EXPECT_NEAR(0.5 * v.dot(M * v), T_bodies, 1e-10 * T_bodies);
    EXPECT_NEAR(mb.CalcKineticEnergy(d), T_bodies, 1e-10 * T_bodies);
    // Block diagonal, one block per tree, equal to CalcTreeMassMatrix.
    for (int t = 0; t < mb.num_trees(); ++t) {
      const int s = mb.tree_velocity_start(t), n = mb.tree_num_velocities(t);
      MatrixXd Mt;
      mb.CalcTreeMassMatrix(d, t, &Mt);
      ASSERT_EQ(Mt.rows(), n);
      EXPECT_EQ((M.block(s, s, n, n) - Mt).norm(), 0.0) << "tree " << t;
      M.block(s, s, n, n).setZero();
    }
    EXPECT_EQ(M.norm(), 0.0);
  }
}

TEST(MultibodyMassMatrix, MassMatrixEqualsJacobianSum) {
  // M = Σ_b J_bᵀ diag(I_cm,W, m 1) J_b with J_b the frame Jacobian at b's centre of mass:
  // an independent assembly of the same quadratic form, entry by entry.
  Random rng(8);
  const Multibody mb = MakeMixedForest(&rng);
  MultibodyData d(mb);
  mb.UpdateKinematics(RandomPositions(mb, &rng), RandomVelocities(mb, &rng), &d);
  for (int t = 0; t < mb.num_trees(); ++t) {
    const int n = mb.tree_num_velocities(t);
    MatrixXd M_expected = MatrixXd::Zero(n, n);
    for (int b = 0; b < mb.num_bodies(); ++b) {
      if (mb.body_tree(b) != t) continue;
      const SpatialInertiaSpec& in = mb.body(b).inertia;
      const Matrix3d R = d.X_WB[b].linear();
      MatrixXd J(6, n);
      mb.CalcFrameJacobian(d, b, d.X_WB[b] * in.com_B, J);
      Matrix6d G = Matrix6d::Zero();
      G.topLeftCorner<3, 3>() = R * in.inertia_about_com_B * R.transpose();
      G.bottomRightCorner<3, 3>() = in.mass_kg * Matrix3d::Identity();
      M_expected += J.transpose() * G * J;
    }
    MatrixXd M;
    mb.CalcTreeMassMatrix(d, t, &M);
    EXPECT_LT((M - M_expected).norm(), 1e-12 * (1 + M.norm())) << "tree " << t;
  }
}

Matrix6d AnalyticFreeBodyMassMatrix(double m, const Matrix3d& R, const Vector3d& com_B,
                                    const Matrix3d& I_cm_B) {
  // v = [ω; v_o] about the body origin, world axes: kinetic energy
  // ½ m ‖v_o + ω × r‖² + ½ ωᵀ I_cm ω with r = R com_B gives
  // [[I_cm + m (rᵀr 1 − r rᵀ), m [r]×], [−m [r]×, m 1]] (parallel-axis theorem).
  const Vector3d r = R * com_B;
  Matrix6d M;
  M.topLeftCorner<3, 3>() =
      R * I_cm_B * R.transpose() + m * (r.squaredNorm() * Matrix3d::Identity() - r * r.transpose());
  M.topRightCorner<3, 3>() = m * Skew(r);
  M.bottomLeftCorner<3, 3>() = -m * Skew(r);
  M.bottomRightCorner<3, 3>() = m * Matrix3d::Identity();
  return M;
}

TEST(MultibodyMassMatrix, FreeBodyWithComOffsetMatchesAnalytic) {
  Random rng(9);
  BodySpec s;
  s.name = "box";
  s.inertia.mass_kg = 2.5;
  s.inertia.com_B = Vector3d(0.1, -0.2, 0.3);
  s.inertia.inertia_about_com_B = Vector3d(0.02, 0.05, 0.04).asDiagonal();
  Multibody mb;
  mb.AddBody(s);
  mb.Finalize();
  MultibodyData d(mb);
  VectorXd q = mb.DefaultPositions();
  const Isometry3d X = rng.Pose(3.0);
  mb.SetFloatingPose(0, X, &q);
  mb.UpdateKinematics(q, VectorXd::Zero(6), &d);
  MatrixXd M;
  mb.CalcTreeMassMatrix(d, 0, &M);
  const Matrix6d M_expected =
      AnalyticFreeBodyMassMatrix(2.5, X.linear(), s.inertia.com_B, s.inertia.inertia_about_com_B);
  EXPECT_LT((M - M_expected).norm(), 1e-13) << M << "\nvs\n" << M_expected;

  // The same body floating on a (massive, welded) parent goes through the general CRBA
  // path; its 6×6 block must agree once the parent's frame is accounted for (v is then
  // expressed in the parent's frame: M = blkdiag(R_WPᵀ) M_W blkdiag(R_WP)).
  Multibody mb2;
  BodySpec root = Spec("root", -1, JointType::kWeld, &rng);
  mb2.AddBody(root);
  BodySpec child = s;
  child.parent = 0;
  mb2.AddBody(child);
  mb2.Finalize();
  MultibodyData d2(mb2);
  VectorXd q2 = mb2.DefaultPositions();
  const Isometry3d X_PB = root.X_PJ.inverse() * X;  // same world pose as before
  mb2.SetFloatingPose(1, X_PB, &q2);
  mb2.UpdateKinematics(q2, VectorXd::Zero(6), &d2);
  ASSERT_TRUE(d2.X_WB[1].isApprox(X, 1e-12));
  MatrixXd M2;
  mb2.CalcTreeMassMatrix(d2, 0, &M2);
  Matrix6d Rb = Matrix6d::Zero();
  Rb.topLeftCorner<3, 3>() = root.X_PJ.linear();
  Rb.bottomRightCorner<3, 3>() = root.X_PJ.linear();
  EXPECT_LT((M2 - Rb.transpose() * M_expected * Rb).norm(), 1e-12);
}

// ---------------------------------------------------------------------------------------------
// Bias forces.

// A spatial revolute–revolute–prismatic chain with general axes and placements.
Multibody MakeChain(Random* rng, bool with_springs) {
  Multibody mb;
  BodySpec a = Spec("upper", -1, JointType::kRevolute, rng);
  BodySpec b = Spec("lower", 0, JointType::kRevolute, rng);
  BodySpec c = Spec("tip", 1, JointType::kPrismatic, rng);
  if (with_springs) {
    a.stiffness = 3.0;
    a.rest_position = 0.2;
    c.stiffness = 40.0;
    c.rest_position = -0.1;
  }
  mb.AddBody(a);
  mb.AddBody(b);
  mb.AddBody(c);
  mb.Finalize();
  return mb;
}

TEST(MultibodyBiasForces, ChainMatchesLagrangianFiniteDifferences) {
  // For q̇ = v (1-dof joints): c(q, v) = Ṁ v − ½ ∂(vᵀMv)/∂q + ∂V_g/∂q, with Ṁ = Σ_k ∂M/∂q_k v_k.
  Random rng(10);
  const Multibody mb = MakeChain(&rng, /*with_springs=*/false);
  const Vector3d g(0.3, -0.5, -9.81);
  MultibodyData d(mb);
  const int n = mb.num_velocities();
  const double h = 1e-5;
  for (int trial = 0; trial < 5; ++trial) {
    const VectorXd q = RandomPositions(mb, &rng);
    const VectorXd v = RandomVelocities(mb, &rng);
    VectorXd Mdot_v = VectorXd::Zero(n), dT_dq(n), dV_dq(n);
    for (int k = 0; k < n; ++k) {
      VectorXd qp = q, qm = q;
      qp[k] += h;
      qm[k] -= h;
      MatrixXd Mp, Mm;
      mb.UpdateKinematics(qp, v, &d);
      mb.CalcMassMatrix(d, &Mp);
      const double Vp = mb.CalcPotentialEnergy(d, g);
      mb.UpdateKinematics(qm, v, &d);
      mb.CalcMassMatrix(d, &Mm);
      const double Vm = mb.CalcPotentialEnergy(d, g);
      const MatrixXd dM = (Mp - Mm) / (2 * h);
      Mdot_v += dM * v * v[k];
      dT_dq[k] = 0.5 * v.dot(dM * v);
      dV_dq[k] = (Vp - Vm) / (2 * h);
    }
    mb.UpdateKinematics(q, v, &d);
    VectorXd c;
    mb.CalcBiasForces(d, g, &c);
    const VectorXd c_expected = Mdot_v - dT_dq + dV_dq;
    EXPECT_LT((c - c_expected).norm(), 1e-6 * (1 + c_expected.norm())) << c.transpose() << "\nvs\n"
                                                                       << c_expected.transpose();
    // Gravity alone: c(q, 0) = −τ_g = ∂V/∂q.
    mb.UpdateKinematics(q, VectorXd::Zero(n), &d);
    mb.CalcBiasForces(d, g, &c);
    EXPECT_LT((c - dV_dq).norm(), 1e-6 * (1 + dV_dq.norm()));
    // And no gravity, no velocity: nothing.
    mb.CalcBiasForces(d, Vector3d::Zero(), &c);
    EXPECT_EQ(c.norm(), 0.0);
  }
}

TEST(MultibodyBiasForces, FreeBodyGyroscopicAndGravity) {
  // Newton–Euler for one body with v̇ = 0: the COM accelerates as ω × (ω × r), so
  // F = m ω × (ω × r) − m g, τ_cm = ω × (I_cm ω), and the generalized force dual to
  // v = [ω; v_o] is [τ_cm + r × F; F] (wrench moved to the body origin).
  Random rng(11);
  BodySpec s;
  s.name = "tumbler";
  s.inertia.mass_kg = 1.7;
  s.inertia.com_B = Vector3d(0.05, 0.1, -0.08);
  s.inertia.inertia_about_com_B = Vector3d(1, 2, 3).asDiagonal() * 1e-2;
  Multibody mb;
  mb.AddBody(s);
  mb.Finalize();
  MultibodyData d(mb);
  const Vector3d g(0, 0, -9.81);
  for (int trial = 0; trial < 5; ++trial) {
    VectorXd q = mb.DefaultPositions();
    const Isometry3d X = rng.Pose(2.0);
    mb.SetFloatingPose(0, X, &q);
    const Vector3d w = rng.Vec(5.0), v_o = rng.Vec(2.0);
    VectorXd v(6);
    v << w, v_o;
    mb.UpdateKinematics(q, v, &d);
    VectorXd c;
    mb.CalcBiasForces(d, g, &c);
    const Matrix3d R = X.linear();
    const Vector3d r = R * s.inertia.com_B;
    const Matrix3d I_W = R * s.inertia.inertia_about_com_B * R.transpose();
    const Vector3d F = s.inertia.mass_kg * (w.cross(w.cross(r)) - g);
    Vector6d c_expected;
    c_expected << w.cross(I_W * w) + r.cross(F), F;
    EXPECT_LT((c - c_expected).norm(), 1e-12 * (1 + c_expected.norm())) << c.transpose() << "\nvs\n"
                                                                        << c_expected.transpose();
  }
  // COM at the origin: the classic gyroscopic term ω × (I ω) in the world frame.
  Multibody mb0;
  s.inertia.com_B.setZero();
  mb0.AddBody(s);
  mb0.Finalize();
  MultibodyData d0(mb0);
  VectorXd q = mb0.DefaultPositions();
  const Isometry3d X = rng.Pose(2.0);
  mb0.SetFloatingPose(0, X, &q);
  VectorXd v(6);
  v << 1.0, -2.0, 3.0, 0.4, 0.5, 0.6;
  mb0.UpdateKinematics(q, v, &d0);
  VectorXd c;
  mb0.CalcBiasForces(d0, Vector3d::Zero(), &c);
  const Matrix3d I_W = X.linear() * s.inertia.inertia_about_com_B * X.linear().transpose();
  const Vector3d w = v.head<3>();
  EXPECT_LT((c.head<3>() - w.cross(I_W * w)).norm(), 1e-13);
  EXPECT_LT(c.tail<3>().norm(), 1e-13);
  EXPECT_GT(c.head<3>().norm(), 1e-3);  // non-trivial for this off-axis ω
}

TEST(MultibodyBiasForces, MixedForestMatchesVirtualPower) {
  // Independent Newton–Euler: with v̇ = 0 each body's COM acceleration a_cm and angular
  // acceleration α are the time derivatives (along q̇ = N v, v fixed) of its COM velocity and
  // ω, taken by finite differences. The wrench needed on body b is
  // F_b = m a_cm − m g, τ_b = I α + ω × I ω (about the COM), and by virtual power
  // c = Σ_b J_bᵀ [τ_b; F_b] with J_b the frame Jacobian at b's COM. Covers floating joints on
  // moving parents, whose velocities are not time derivatives of coordinates.
  Random rng(12);
  const Multibody mb = MakeMixedForest(&rng);
  const Vector3d g(0.0, 0.0, -9.81);
  MultibodyData d(mb), dp(mb), dm(mb);
  const double h = 1e-6;
  for (int trial = 0; trial < 3; ++trial) {
    VectorXd q, v;
    UpdateRandomStateAndNeighbours(mb, h, &rng, &q, &v, &d, &dp, &dm);
    VectorXd c_expected = VectorXd::Zero(mb.num_velocities());
    for (int b = 0; b < mb.num_bodies(); ++b) {
      const SpatialInertiaSpec& in = mb.body(b).inertia;
      auto v_cm = [&](const MultibodyData& x) {
        return Vector3d(x.v_WBo[b] + x.w_WB[b].cross(x.X_WB[b].linear() * in.com_B));
      };
      const Vector3d a_cm = (v_cm(dp) - v_cm(dm)) / (2 * h);
      const Vector3d alpha = (dp.w_WB[b] - dm.w_WB[b]) / (2 * h);
      const Vector3d& w = d.w_WB[b];
      const Matrix3d R = d.X_WB[b].linear();
      const Matrix3d I_W = R * in.inertia_about_com_B * R.transpose();
      Vector6d wrench;
      wrench << I_W * alpha + w.cross(I_W * w), in.mass_kg * (a_cm - g);
      const int t = mb.body_tree(b);
      MatrixXd J(6, mb.tree_num_velocities(t));
      mb.CalcFrameJacobian(d, b, d.X_WB[b] * in.com_B, J);
      c_expected.segment(mb.tree_velocity_start(t), J.cols()) += J.transpose() * wrench;
    }
    VectorXd c;
    mb.CalcBiasForces(d, g, &c);
    EXPECT_LT((c - c_expected).norm(), 1e-5 * (1 + c_expected.norm())) << c.transpose() << "\nvs\n"
                                                                       << c_expected.transpose();
  }
}

TEST(MultibodyBiasForces, PowerBalanceOnMixedForest) {
  // Without gravity, T = ½ vᵀ M(q) v is conserved when M v̇ = −c, so vᵀ c = ½ vᵀ Ṁ v with
  // Ṁ the derivative of M along q̇ = N(q) v (valid for quasi-velocities as well).
  Random rng(13);
  const Multibody mb = MakeMixedForest(&rng);
  MultibodyData d(mb);
  const double h = 1e-6;
  const VectorXd q = RandomPositions(mb, &rng);
  const VectorXd v = RandomVelocities(mb, &rng);
  VectorXd qp, qm;
  mb.IntegratePositions(q, v, h, &qp);
  mb.IntegratePositions(q, v, -h, &qm);
  MatrixXd Mp, Mm;
  mb.UpdateKinematics(qp, v, &d);
  mb.CalcMassMatrix(d, &Mp);
  mb.UpdateKinematics(qm, v, &d);
  mb.CalcMassMatrix(d, &Mm);
  const double half_vMdotv = 0.5 * v.dot((Mp - Mm) / (2 * h) * v);
  mb.UpdateKinematics(q, v, &d);
  VectorXd c;
  mb.CalcBiasForces(d, Vector3d::Zero(), &c);
  EXPECT_NEAR(v.dot(c), half_vMdotv, 1e-6 * (1 + std::abs(half_vMdotv)));
  EXPECT_GT(std::abs(half_vMdotv), 1e-2);  // the check is not vacuous
}

// ---------------------------------------------------------------------------------------------
// Long integrations (symplectic Euler, docs/contact-model.md §1 without contact).

TEST(MultibodyEnergy, TumblingAsymmetricBodyConservesEnergyAndMomentum) {
  BodySpec s;
  s.name = "tumbler";
  s.inertia.mass_kg = 1.0;
  s.inertia.inertia_about_com_B = Vector3d(1, 2, 3).asDiagonal() * 1e-2;
  Multibody mb;
  mb.AddBody(s);
  mb.Finalize();
  MultibodyData d(mb);
  VectorXd q = mb.DefaultPositions();
  VectorXd v(6);
  v << 1.0, 0.5, 2.0, 0.1, 0.0, 0.0;  // off every principal axis
  const double dt = 1e-3;
  auto angular_momentum = [&]() {
    const Matrix3d R = d.X_WB[0].linear();
    return Vector3d(R * s.inertia.inertia_about_com_B * R.transpose() * d.w_WB[0]);
  };
  mb.UpdateKinematics(q, v, &d);
  const double T0 = mb.CalcKineticEnergy(d);
  const Vector3d L0 = angular_momentum();
  MatrixXd M(6, 6);
  VectorXd c(6);
  double max_T_err = 0, max_L_err = 0;
  Vector3d w_min = d.w_WB[0], w_max = d.w_WB[0];
  for (int step = 0; step < 10000; ++step) {
    mb.CalcTreeMassMatrix(d, 0, &M);
    mb.CalcBiasForces(d, Vector3d::Zero(), &c);
    v += dt * M.ldlt().solve(-c);
    mb.IntegratePositions(q, v, dt, &q);
    mb.UpdateKinematics(q, v, &d);
    max_T_err = std::max(max_T_err, std::abs(mb.CalcKineticEnergy(d) - T0) / T0);
    max_L_err = std::max(max_L_err, std::abs(angular_momentum().norm() - L0.norm()) / L0.norm());
    w_min = w_min.cwiseMin(d.w_WB[0]);
    w_max = w_max.cwiseMax(d.w_WB[0]);
  }
  EXPECT_LT(max_T_err, 0.01);
  EXPECT_LT(max_L_err, 0.01);
  EXPECT_GT((w_max - w_min).norm(), 1.0);  // it did tumble: ω changed in the world frame
}

// Planar double pendulum about y, links 0.5 m, COMs at mid-link.
Multibody MakeDoublePendulum() {
  Multibody mb;
  for (int i = 0; i < 2; ++i) {
    BodySpec s;
    s.name = i == 0 ? "upper" : "lower";
    s.parent = i - 1;
    s.joint = JointType::kRevolute;
    s.axis = Vector3d::UnitY();
    if (i == 1) s.X_PJ.translation() = Vector3d(0, 0, -0.5);
    s.inertia.mass_kg = 1.0;
    s.inertia.com_B = Vector3d(0, 0, -0.25);
    s.inertia.inertia_about_com_B = Vector3d(0.021, 0.021, 0.001).asDiagonal();
    mb.AddBody(s);
  }
  mb.Finalize();
  return mb;
}

struct EnergyRun {
  double max_error = 0.0;  // max |E(t) − E0| / (E0 − V_min)
  double max_kinetic_over_scale = 0.0;
};

// Integrates the double pendulum from rest at q0 for 10 s and tracks the total energy.
// symplectic = true: the engine's scheme (docs/contact-model.md §1 without contact):
// v ← v + δt M⁻¹(−c), q ← IntegratePositions(q, v, δt). Otherwise classical RK4 on (q, v).
EnergyRun RunDoublePendulum(const Eigen::Vector2d& q0, double dt, bool symplectic) {
  const Multibody mb = MakeDoublePendulum();
  const Vector3d g(0, 0, -9.81);
  MultibodyData d(mb);
  mb.UpdateKinematics(VectorXd::Zero(2), VectorXd::Zero(2), &d);
  const double V_min = mb.CalcPotentialEnergy(d, g);  // hanging at rest
  VectorXd q = q0, v = VectorXd::Zero(2);
  mb.UpdateKinematics(q, v, &d);
  const double E0 = mb.CalcKineticEnergy(d) + mb.CalcPotentialEnergy(d, g);
  const double scale = E0 - V_min;
  MatrixXd M(2, 2);
  VectorXd c(2);
  auto accel = [&](const VectorXd& qa, const VectorXd& va) {
    mb.UpdateKinematics(qa, va, &d);
    mb.CalcTreeMassMatrix(d, 0, &M);
    mb.CalcBiasForces(d, g, &c);
    return VectorXd(M.ldlt().solve(-c));
  };
  EnergyRun run;
  const int steps = static_cast<int>(std::lround(10.0 / dt));
  for (int step = 0; step < steps; ++step) {
    if (symplectic) {
      v += dt * accel(q, v);
      mb.IntegratePositions(q, v, dt, &q);
    } else {
      const VectorXd a1 = accel(q, v);
      const VectorXd v2 = v + 0.5 * dt * a1, a2 = accel(q + 0.5 * dt * v, v2);
      const VectorXd v3 = v + 0.5 * dt * a2, a3 = accel(q + 0.5 * dt * v2, v3);
      const VectorXd v4 = v + dt * a3, a4 = accel(q + dt * v3, v4);
      q += dt / 6 * (v + 2 * v2 + 2 * v3 + v4);
      v += dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
    }
    mb.UpdateKinematics(q, v, &d);
    const double T = mb.CalcKineticEnergy(d);
    run.max_kinetic_over_scale = std::max(run.max_kinetic_over_scale, T / scale);
    run.max_error =
        std::max(run.max_error, std::abs(T + mb.CalcPotentialEnergy(d, g) - E0) / scale);
  }
  return run;
}

TEST(MultibodyEnergy, DoublePendulumEnergyStaysBounded) {
  // RK4 isolates the model from the integrator: with M and c consistent, energy is conserved
  // to the integrator's O(δt⁴) (a wrong Coriolis or gravity term shows up as O(1) drift).
  const Eigen::Vector2d large(1.2, -0.6), moderate(0.7, -0.4);
  const EnergyRun rk4 = RunDoublePendulum(large, 1e-3, /*symplectic=*/false);
  EXPECT_LT(rk4.max_error, 1e-8);
  EXPECT_GT(rk4.max_kinetic_over_scale, 0.9);  // it actually swung

  // The engine's scheme: velocity-form symplectic Euler with the Coriolis term explicit is
  // first order and, for a configuration-dependent M, not exactly symplectic, so energy
  // drifts slowly (measured ≈ 0.14 %/s here for a moderate swing, 0.3 %/s for a large one).
  const EnergyRun euler = RunDoublePendulum(moderate, 1e-3, /*symplectic=*/true);
  EXPECT_LT(euler.max_error, 0.02);
  EXPECT_GT(euler.max_kinetic_over_scale, 0.9);
  // That drift is the integrator's: it halves with δt (first order), on the large swing too.
  const EnergyRun coarse = RunDoublePendulum(large, 1e-3, /*symplectic=*/true);
  const EnergyRun fine = RunDoublePendulum(large, 5e-4, /*symplectic=*/true);
  EXPECT_NEAR(coarse.max_error / fine.max_error, 2.0, 0.2);
  EXPECT_LT(fine.max_error, 0.02);
}

TEST(MultibodyEnergy, ImplicitSpringDamperMatchesAnalyticFrequency) {
  // 1-dof spring–mass–damper on a prismatic joint along x (gravity along −z does no work):
  // (M + δt D + δt² K) v = M v0 + δt (−K (q0 − q_rest) − c), q = q0 + δt v. The damped
  // frequency is ω_d = √(k/m − (d/2m)²).
  const double m = 2.0, k = 50.0, damping = 1.0, rest = 0.1;
  BodySpec s;
  s.name = "slider";
  s.joint = JointType::kPrismatic;
  s.axis = Vector3d::UnitX();
  s.damping = damping;
  s.stiffness = k;
  s.rest_position = rest;
  s.inertia.mass_kg = m;
  s.inertia.inertia_about_com_B = Matrix3d::Identity() * 1e-3;
  Multibody mb;
  mb.AddBody(s);
  mb.Finalize();
  ASSERT_EQ(mb.joint_damping()[0], damping);
  ASSERT_EQ(mb.joint_stiffness()[0], k);
  const Vector3d g(0, 0, -9.81);
  MultibodyData d(mb);
  VectorXd q(1), v(1);
  q << 0.4;
  v << 0.0;
  const double dt = 1e-3;
  MatrixXd M(1, 1);
  VectorXd c(1), tau(1);
  mb.CalcJointSpringForces(q, &tau);
  EXPECT_DOUBLE_EQ(tau[0], -k * (0.4 - rest));
  std::vector<double> crossings;  // upward zero crossings of q − rest
  std::vector<double> peaks;      // max of q − rest between crossings
  double peak = 0.0;
  double prev = q[0] - rest;
  for (int step = 0; step < 10000; ++step) {
    mb.UpdateKinematics(q, v, &d);
    mb.CalcTreeMassMatrix(d, 0, &M);
    mb.CalcBiasForces(d, g, &c);
    mb.CalcJointSpringForces(q, &tau);
    const MatrixXd A = M + dt * MatrixXd(mb.joint_damping().asDiagonal()) +
                       dt * dt * MatrixXd(mb.joint_stiffness().asDiagonal());
    v = A.ldlt().solve(M * v + dt * (tau - c));
    mb.IntegratePositions(q, v, dt, &q);
    const double x = q[0] - rest;
    if (prev < 0 && x >= 0) {
      crossings.push_back((step + 1 - x / (x - prev)) * dt);
      if (crossings.size() > 1) peaks.push_back(peak);
      peak = 0.0;
    }
    peak = std::max(peak, x);
    prev = x;
  }
  ASSERT_GE(crossings.size(), 5u);
  const double period = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  const double w_d = std::sqrt(k / m - std::pow(damping / (2 * m), 2));
  EXPECT_NEAR(2 * kPi / period, w_d, 0.01 * w_d);
  // Envelope e^{−d t / 2m}: successive peaks are one period apart. Implicit Euler adds
  // numerical damping ≈ δt k / 2m = 0.0125 1/s to the physical 0.25 1/s, hence 10 %.
  ASSERT_GE(peaks.size(), 3u);
  const double decay_rate = -std::log(peaks.back() / peaks.front()) / ((peaks.size() - 1) * period);
  EXPECT_NEAR(decay_rate, damping / (2 * m), 0.1 * damping / (2 * m));
  // Spring potential is part of the potential energy.
  mb.UpdateKinematics(q, v, &d);
  EXPECT_NEAR(mb.CalcPotentialEnergy(d, Vector3d::Zero()), 0.5 * k * (q[0] - rest) * (q[0] - rest),
              1e-15);
}

// ---------------------------------------------------------------------------------------------
// Validation.

void ExpectSpecError(const BodySpec& spec, const std::string& field, int num_prior_bodies = 0) {
  Multibody mb;
  for (int i = 0; i < num_prior_bodies; ++i) {
    BodySpec ok;
    ok.name = "prior" + std::to_string(i);
    mb.AddBody(ok);
  }
  try {
    mb.AddBody(spec);
    ADD_FAILURE() << "no exception for field " << field;
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("body '" + spec.name + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find(field), std::string::npos) << msg;
  }
}

TEST(MultibodyValidation, RejectsBadSpecsNamingBodyAndField) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  BodySpec good;
  good.name = "box";
  {
    Multibody mb;
    EXPECT_NO_THROW(mb.AddBody(good));
  }
  BodySpec s = good;
  s.inertia.mass_kg = -1.0;
  ExpectSpecError(s, "mass");
  Multibody tmp;
  try {
    tmp.AddBody(s);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("-1"), std::string::npos) << e.what();
  }
  s.inertia.mass_kg = 0.0;
  ExpectSpecError(s, "mass");
  s.inertia.mass_kg = nan;
  ExpectSpecError(s, "mass");
  s.inertia.mass_kg = inf;
  ExpectSpecError(s, "mass");

  s = good;
  s.inertia.com_B.y() = nan;
  ExpectSpecError(s, "com_B");
  s = good;
  s.inertia.inertia_about_com_B(0, 1) = 0.1;  // not symmetric
  ExpectSpecError(s, "inertia");
  s = good;
  s.inertia.inertia_about_com_B = Vector3d(1.0, -0.5, 1.0).asDiagonal();
  ExpectSpecError(s, "inertia");
  s = good;
  s.inertia.inertia_about_com_B.setZero();
  ExpectSpecError(s, "inertia");
  s = good;
  s.inertia.inertia_about_com_B(2, 2) = nan;
  ExpectSpecError(s, "inertia");
  s = good;  // symmetric, positive diagonal, but indefinite
  s.inertia.inertia_about_com_B << 1, 2, 0, 2, 1, 0, 0, 0, 1;
  ExpectSpecError(s, "inertia");

  for (JointType joint : {JointType::kRevolute, JointType::kPrismatic}) {
    s = good;
    s.joint = joint;
    s.axis.setZero();
    ExpectSpecError(s, "axis");
    s.axis = Vector3d(0, 0, 2);
    ExpectSpecError(s, "axis");
    s.axis = Vector3d(nan, 0, 1);
    ExpectSpecError(s, "axis");
    s.axis = Vector3d::UnitZ();
    s.damping = -1.0;
    ExpectSpecError(s, "damping");
    s.damping = 0.0;
    s.stiffness = nan;
    ExpectSpecError(s, "stiffness");
    s.stiffness = 0.0;
    s.X_PJ.translation().x() = nan;
    ExpectSpecError(s, "X_PJ");
  }
  // The axis of a floating joint is unused, so a zero axis there is fine.
  s = good;
  s.axis.setZero();
  {
    Multibody mb;
    EXPECT_NO_THROW(mb.AddBody(s));
  }

  s = good;
  s.parent = 3;  // only bodies 0 and 1 exist
  ExpectSpecError(s, "parent", 2);
  s.parent = -2;
  ExpectSpecError(s, "parent", 2);
  s.parent = 2;  // itself
  ExpectSpecError(s, "parent", 2);

  s = good;  // floating q is X_PB itself: a joint placement would be silently ignored
  s.X_PJ.translation() = Vector3d(0, 0, 1);
  ExpectSpecError(s, "X_PJ");
  s = good;
  s.joint = JointType::kWeld;
  s.X_PJ.linear() = Matrix3d::Identity() * 2.0;  // not a rotation
  ExpectSpecError(s, "X_PJ");
}

TEST(MultibodyValidation, StateSizesAndFinalizeAreChecked) {
  Multibody mb;
  BodySpec s;
  s.name = "box";
  mb.AddBody(s);
  EXPECT_THROW(MultibodyData d(mb), std::logic_error);
  mb.Finalize();
  MultibodyData d(mb);
  EXPECT_THROW(mb.UpdateKinematics(VectorXd::Zero(6), VectorXd::Zero(6), &d),
               std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// The per-step functions must not allocate once MultibodyData exists.

TEST(MultibodyPerformance, HotPathDoesNotAllocate) {
  if (!testing::kAllocationCountingAvailable) GTEST_SKIP() << "no allocation counting";
  Random rng(14);
  const Multibody mb = MakeMixedForest(&rng);
  MultibodyData d(mb);
  const VectorXd q = RandomPositions(mb, &rng);
  const VectorXd v = RandomVelocities(mb, &rng);
  std::vector<MatrixXd> M(mb.num_trees());
  for (int t = 0; t < mb.num_trees(); ++t) {
    M[t].resize(mb.tree_num_velocities(t), mb.tree_num_velocities(t));
  }
  VectorXd c(mb.num_velocities()), tau(mb.num_velocities()), q_next(mb.num_positions());
  MatrixXd Jp(3, mb.tree_num_velocities(0)), Jf(6, mb.tree_num_velocities(0));
  const Vector3d g(0, 0, -9.81), p(0.1, 0.2, 0.3);

  testing::ScopedAllocationCount counter;
  mb.UpdateKinematics(q, v, &d);
  for (int t = 0; t < mb.num_trees(); ++t) mb.CalcTreeMassMatrix(d, t, &M[t]);
  mb.CalcBiasForces(d, g, &c);
  mb.CalcPointJacobian(d, 4, p, Jp);
  mb.CalcFrameJacobian(d, 4, p, Jf);
  mb.CalcJointSpringForces(q, &tau);
  mb.IntegratePositions(q, v, 1e-3, &q_next);
  const double energy = mb.CalcKineticEnergy(d) + mb.CalcPotentialEnergy(d, g);
  EXPECT_EQ(counter.count(), 0);
  EXPECT_TRUE(std::isfinite(energy));
}

}  // namespace
}  // namespace contactlab
