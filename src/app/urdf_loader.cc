#include "app/urdf_loader.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>
#include <urdf_parser/urdf_parser.h>

#include <cmath>
#include <filesystem>
#include <functional>

#include "app/scene_loader.h"

namespace contactlab {

namespace {

Eigen::Isometry3d ToIsometry(const urdf::Pose& pose) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Eigen::Vector3d(pose.position.x, pose.position.y, pose.position.z);
  X.linear() =
      Eigen::Quaterniond(pose.rotation.w, pose.rotation.x, pose.rotation.y, pose.rotation.z)
          .normalized()
          .toRotationMatrix();
  return X;
}

// Links without an <inertial> (flanges, frames) get a negligible mass: the multibody needs
// positive mass everywhere and they carry no dynamics of their own.
constexpr double kMasslessLinkMass_kg = 1e-6;

}  // namespace

void AddUrdfRobot(const std::string& path, const UrdfOptions& options, SceneSpec* scene) {
  if (!std::filesystem::is_regular_file(path)) {
    throw SceneError(fmt::format("{}: cannot open the URDF file", path));
  }
  const urdf::ModelInterfaceSharedPtr model = urdf::parseURDFFile(path);
  if (!model)
    throw SceneError(fmt::format("{}: malformed URDF (urdfdom could not parse it)", path));
  const urdf::LinkConstSharedPtr root = model->getRoot();
  if (!root) throw SceneError(fmt::format("{}: the URDF has no root link", path));
  for (const auto& [name, value] : options.initial_positions) {
    if (!model->getJoint(name)) {
      throw SceneError(fmt::format("{}: initial position for unknown joint '{}'", path, name));
    }
    if (!std::isfinite(value)) {
      throw SceneError(fmt::format("{}: initial position of joint '{}' is not finite", path, name));
    }
  }

  std::function<void(const urdf::LinkConstSharedPtr&, int)> add_link =
      [&](const urdf::LinkConstSharedPtr& link, int parent_scene_index) {
        const std::string where = fmt::format("{}: link '{}'", path, link->name);
        SceneBody sb;
        sb.kind = SceneBody::Kind::kDynamic;
        sb.body.name = options.name_prefix + link->name;
        if (scene->FindBody(sb.body.name) >= 0) {
          throw SceneError(fmt::format("{}: a body named '{}' already exists (use a prefix)", where,
                                       sb.body.name));
        }
        sb.parent_scene_index = parent_scene_index;
        const urdf::JointConstSharedPtr joint = link->parent_joint;
        if (!joint) {  // the root
          sb.body.joint = options.fixed_base ? JointType::kWeld : JointType::kFloating;
          if (options.fixed_base) {
            sb.body.X_PJ = options.X_WRoot;
          } else {
            sb.initial_pose = options.X_WRoot;
            sb.initial_velocity = Eigen::VectorXd::Zero(6);
          }
        } else {
          const std::string jwhere = fmt::format("{}: joint '{}'", path, joint->name);
          sb.body.X_PJ = ToIsometry(joint->parent_to_joint_origin_transform);
          const Eigen::Vector3d axis(joint->axis.x, joint->axis.y, joint->axis.z);
          switch (joint->type) {
            case urdf::Joint::REVOLUTE:
            case urdf::Joint::CONTINUOUS:
              sb.body.joint = JointType::kRevolute;
              break;
            case urdf::Joint::PRISMATIC:
              sb.body.joint = JointType::kPrismatic;
              break;
            case urdf::Joint::FIXED:
              sb.body.joint = JointType::kWeld;
              break;
            default:
              throw SceneError(
                  fmt::format("{}: joint type not supported (revolute, continuous, "
                              "prismatic, fixed)",
                              jwhere));
          }
          if (sb.body.joint != JointType::kWeld) {
            if (!(axis.norm() > 1e-12)) throw SceneError(jwhere + ": zero axis");
            sb.body.axis = axis.normalized();
            const auto it = options.initial_positions.find(joint->name);
            sb.initial_position = it != options.initial_positions.end() ? it->second : 0.0;
            sb.initial_velocity = Eigen::VectorXd::Zero(1);
            if (joint->dynamics) sb.body.damping = joint->dynamics->damping;
            double effort = 1e30;
            if (joint->limits) {
              if (joint->type != urdf::Joint::CONTINUOUS) {
                if (!(joint->limits->lower < joint->limits->upper)) {
                  throw SceneError(jwhere + ": limit lower must be below upper");
                }
                sb.limits = std::make_pair(joint->limits->lower, joint->limits->upper);
              }
              if (joint->limits->effort > 0) effort = joint->limits->effort;
            }
            if (options.pd) {
              JointPdSpec pd = *options.pd;
              pd.effort_limit = std::min(pd.effort_limit, effort);
              pd.q_desired = sb.initial_position;
              sb.pd = pd;
            }
          }
        }
        // Inertia about the COM, expressed in the link frame.
        if (link->inertial && link->inertial->mass > 0) {
          const urdf::Inertial& in = *link->inertial;
          const Eigen::Isometry3d X_LI = ToIsometry(in.origin);
          Eigen::Matrix3d I;
          I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
          sb.body.inertia.mass_kg = in.mass;
          sb.body.inertia.com_B = X_LI.translation();
          sb.body.inertia.inertia_about_com_B = X_LI.linear() * I * X_LI.linear().transpose();
        } else {
          if (!joint && !options.fixed_base) {
            throw SceneError(where + ": a floating root link needs an <inertial> with mass");
          }
          sb.body.inertia.mass_kg = kMasslessLinkMass_kg;
          sb.body.inertia.inertia_about_com_B = 1e-9 * Eigen::Matrix3d::Identity();
        }
        for (size_t i = 0; i < link->collision_array.size(); ++i) {
          const urdf::CollisionSharedPtr& c = link->collision_array[i];
          if (!c || !c->geometry) continue;
          GeometrySpec g;
          g.name = c->name.empty() ? fmt::format("collision{}", i) : c->name;
          g.X_BG = ToIsometry(c->origin);
          g.contact = options.contact;
          switch (c->geometry->type) {
            case urdf::Geometry::SPHERE:
              g.shape = Shape::Sphere(static_cast<const urdf::Sphere&>(*c->geometry).radius);
              break;
            case urdf::Geometry::BOX: {
              const auto& d = static_cast<const urdf::Box&>(*c->geometry).dim;
              g.shape = Shape::Box(0.5 * Eigen::Vector3d(d.x, d.y, d.z));
              break;
            }
            case urdf::Geometry::CYLINDER: {
              const auto& cyl = static_cast<const urdf::Cylinder&>(*c->geometry);
              g.shape = Shape::Cylinder(cyl.radius, cyl.length);
              break;
            }
            default:
              throw SceneError(
                  fmt::format("{}: collision geometry #{} is a mesh; meshes are not "
                              "supported yet (use sphere, box or cylinder)",
                              where, i));
          }
          sb.geometries.push_back(g);
        }
        scene->bodies.push_back(std::move(sb));
        const int index = static_cast<int>(scene->bodies.size()) - 1;
        for (const urdf::LinkSharedPtr& child : link->child_links) add_link(child, index);
      };
  add_link(root, -1);
}

}  // namespace contactlab
