#include "io/urdf_loader.h"

#include <console_bridge/console.h>
#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "io/mesh_file.h"
#include "io/printable_text.h"
#include "io/scene_loader.h"

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

// Mesh vertices deeper than this fraction of the mesh's size inside its hull make it
// "not convex" (only logged: the hull is what collides).
constexpr double kConvexityTolerance = 1e-6;

namespace fs = std::filesystem;

// The file a URDF <mesh filename> names: package://NAME/REST (NAME is the URDF's folder or one
// of its ancestors, a folder NAME inside one of them, or one under ROS_PACKAGE_PATH),
// file:///ABSOLUTE, an absolute path, or a path relative to the URDF's folder. Throws
// std::runtime_error if a package cannot be found.
fs::path ResolveMeshPath(const std::string& filename, const fs::path& urdf_dir) {
  const std::string package_scheme = "package://", file_scheme = "file://";
  if (filename.rfind(file_scheme, 0) == 0) return fs::path(filename.substr(file_scheme.size()));
  if (filename.rfind(package_scheme, 0) != 0) {
    const fs::path p(filename);
    return p.is_absolute() ? p : urdf_dir / p;
  }
  const std::string rest = filename.substr(package_scheme.size());
  const size_t slash = rest.find('/');
  const std::string package = rest.substr(0, slash);
  const std::string inside = slash == std::string::npos ? "" : rest.substr(slash + 1);
  std::vector<fs::path> roots;
  for (fs::path d = fs::absolute(urdf_dir);; d = d.parent_path()) {
    if (d.filename() == package) return d / inside;
    roots.push_back(d);
    if (d == d.parent_path()) break;
  }
  if (const char* env = std::getenv("ROS_PACKAGE_PATH")) {
    std::string list = env;
    for (size_t start = 0; start <= list.size();) {
      const size_t end = std::min(list.find(':', start), list.size());
      if (end > start) roots.emplace_back(list.substr(start, end - start));
      start = end + 1;
    }
  }
  for (const fs::path& root : roots) {
    std::error_code ec;
    if (fs::is_directory(root / package, ec)) return root / package / inside;
  }
  throw std::runtime_error("package '" + package +
                           "' not found (neither the URDF's folder, its ancestors, nor "
                           "ROS_PACKAGE_PATH hold it)");
}

// Loads meshes once per (file, scale): links often share them, and the hull is immutable.
class MeshCache {
 public:
  explicit MeshCache(fs::path urdf_dir) : urdf_dir_(std::move(urdf_dir)) {}

  std::shared_ptr<const VisualMesh> Mesh(const urdf::Mesh& m) {
    const auto key = Key(m);
    auto it = meshes_.find(key);
    if (it != meshes_.end()) return it->second;
    const std::string file = ResolveMeshPath(m.filename, urdf_dir_).string();
    MeshData data = LoadMeshFile(file, Eigen::Vector3d(m.scale.x, m.scale.y, m.scale.z));
    auto mesh = std::make_shared<VisualMesh>();
    mesh->vertices_m = std::move(data.vertices);
    mesh->triangles = std::move(data.triangles);
    mesh->source = file;
    return meshes_[key] = mesh;
  }

  std::shared_ptr<const ConvexPolyhedron> Hull(const urdf::Mesh& m) {
    const auto key = Key(m);
    auto it = hulls_.find(key);
    if (it != hulls_.end()) return it->second;
    const std::shared_ptr<const VisualMesh> mesh = Mesh(m);
    std::shared_ptr<const ConvexPolyhedron> hull;
    try {
      hull = std::make_shared<const ConvexPolyhedron>(ComputeConvexHull(mesh->vertices_m));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(mesh->source + ": " + e.what());
    }
    double deepest = 0.0;
    for (const Eigen::Vector3d& v : mesh->vertices_m) {
      deepest = std::min(deepest, HullPlaneDistance(*hull, v));
    }
    if (deepest < -kConvexityTolerance * hull->half_size_m) {
      spdlog::debug(
          "mesh '{}' is not convex (a vertex {:.3g} m inside its hull): it collides as "
          "its convex hull",
          mesh->source, -deepest);
    }
    return hulls_[key] = hull;
  }

 private:
  using CacheKey = std::tuple<std::string, double, double, double>;
  static CacheKey Key(const urdf::Mesh& m) { return {m.filename, m.scale.x, m.scale.y, m.scale.z}; }
  fs::path urdf_dir_;
  std::map<CacheKey, std::shared_ptr<const VisualMesh>> meshes_;
  std::map<CacheKey, std::shared_ptr<const ConvexPolyhedron>> hulls_;
};

// A URDF primitive as a Shape; nullopt for a mesh.
std::optional<Shape> PrimitiveShape(const urdf::Geometry& geometry) {
  switch (geometry.type) {
    case urdf::Geometry::SPHERE:
      return Shape::Sphere(static_cast<const urdf::Sphere&>(geometry).radius);
    case urdf::Geometry::BOX: {
      const auto& d = static_cast<const urdf::Box&>(geometry).dim;
      return Shape::Box(0.5 * Eigen::Vector3d(d.x, d.y, d.z));
    }
    case urdf::Geometry::CYLINDER: {
      const auto& cyl = static_cast<const urdf::Cylinder&>(geometry);
      return Shape::Cylinder(cyl.radius, cyl.length);
    }
    default:
      return std::nullopt;
  }
}

// What every link of one robot shares while AddUrdfRobot walks its tree.
struct RobotBuild {
  const std::string& path;  // the URDF file, named in messages
  const UrdfOptions& options;
  MeshCache& meshes;
  SceneSpec* scene;
};

// The root link: welded to the world at X_WRoot (fixed base) or floating, starting there.
void SetRootJoint(const UrdfOptions& options, SceneBody* sb) {
  sb->body.joint = options.fixed_base ? JointType::kWeld : JointType::kFloating;
  if (options.fixed_base) {
    sb->body.X_PJ = options.X_WRoot;
  } else {
    sb->initial_pose = options.X_WRoot;
    sb->initial_velocity = Eigen::VectorXd::Zero(6);
  }
}

// A link's parent joint: type and origin; for a moving joint its axis, initial position,
// damping, limits and (with options.pd) a PD controller holding the initial position within
// the URDF's effort limit.
void SetJoint(const RobotBuild& robot, const urdf::Joint& joint, SceneBody* sb) {
  const std::string jwhere = fmt::format("{}: joint '{}'", robot.path, joint.name);
  sb->body.X_PJ = ToIsometry(joint.parent_to_joint_origin_transform);
  sb->joint_name = robot.options.name_prefix + joint.name;
  const Eigen::Vector3d axis(joint.axis.x, joint.axis.y, joint.axis.z);
  switch (joint.type) {
    case urdf::Joint::REVOLUTE:
    case urdf::Joint::CONTINUOUS:
      sb->body.joint = JointType::kRevolute;
      break;
    case urdf::Joint::PRISMATIC:
      sb->body.joint = JointType::kPrismatic;
      break;
    case urdf::Joint::FIXED:
      sb->body.joint = JointType::kWeld;
      break;
    default:
      throw SceneError(fmt::format(
          "{}: joint type not supported (revolute, continuous, prismatic, fixed)", jwhere));
  }
  if (sb->body.joint == JointType::kWeld) return;
  if (!(axis.norm() > 1e-12)) throw SceneError(jwhere + ": zero axis");
  sb->body.axis = axis.normalized();
  const auto it = robot.options.initial_positions.find(joint.name);
  const bool given = it != robot.options.initial_positions.end();
  sb->initial_position = given ? it->second : 0.0;
  sb->initial_velocity = Eigen::VectorXd::Zero(1);
  if (joint.dynamics) sb->body.damping = joint.dynamics->damping;
  double effort = 1e30;
  if (joint.limits) {
    if (joint.type != urdf::Joint::CONTINUOUS) {
      if (!(joint.limits->lower < joint.limits->upper)) {
        throw SceneError(jwhere + ": limit lower must be below upper");
      }
      sb->limits = std::make_pair(joint.limits->lower, joint.limits->upper);
      // Unset: the position nearest zero within the limits. Given outside them: an error, as
      // the limit constraint could only push the joint back with an absurd impulse.
      if (!given) {
        sb->initial_position = std::clamp(0.0, joint.limits->lower, joint.limits->upper);
      } else if (!(sb->initial_position >= joint.limits->lower &&
                   sb->initial_position <= joint.limits->upper)) {
        throw SceneError(fmt::format("{}: initial position {} lies outside its limits [{}, {}]",
                                     jwhere, sb->initial_position, joint.limits->lower,
                                     joint.limits->upper));
      }
    }
    if (joint.limits->effort > 0) effort = joint.limits->effort;
  }
  // A <mimic> joint is driven through its coupler (AddMimicCouplers), not by a controller.
  if (robot.options.pd && !joint.mimic) {
    JointPdSpec pd = *robot.options.pd;
    pd.effort_limit = std::min(pd.effort_limit, effort);
    pd.q_desired = sb->initial_position;
    sb->pd = pd;
  }
}

// Mass, COM and inertia about the COM in the link frame, from <inertial>; a link without one
// gets a negligible mass (not allowed for a floating root).
void SetInertia(const urdf::Link& link, bool floating_root, const std::string& where,
                SceneBody* sb) {
  if (link.inertial && link.inertial->mass > 0) {
    const urdf::Inertial& in = *link.inertial;
    const Eigen::Isometry3d X_LI = ToIsometry(in.origin);
    Eigen::Matrix3d I;
    I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
    sb->body.inertia.mass_kg = in.mass;
    sb->body.inertia.com_B = X_LI.translation();
    sb->body.inertia.inertia_about_com_B = X_LI.linear() * I * X_LI.linear().transpose();
  } else {
    if (floating_root) {
      throw SceneError(where + ": a floating root link needs an <inertial> with mass");
    }
    sb->body.inertia.mass_kg = kMasslessLinkMass_kg;
    sb->body.inertia.inertia_about_com_B = 1e-9 * Eigen::Matrix3d::Identity();
  }
}

// A mesh that cannot be used fails the whole robot with one line naming the URDF, the link
// and the mesh file as written in the URDF. `what`: "collision" or "visual".
SceneError MeshError(const std::string& where, const char* what, const urdf::Mesh& m,
                     const std::exception& e) {
  return SceneError(fmt::format("{}: {} mesh '{}': {}", where, what, m.filename, e.what()));
}

// The link's <collision> geometry: primitives, and meshes as their convex hull
// (ShapeType::kConvexMesh), all with options.contact.
void AddCollisions(const RobotBuild& robot, const urdf::Link& link, const std::string& where,
                   SceneBody* sb) {
  for (size_t i = 0; i < link.collision_array.size(); ++i) {
    const urdf::CollisionSharedPtr& c = link.collision_array[i];
    if (!c || !c->geometry) continue;
    GeometrySpec g;
    g.name = c->name.empty() ? fmt::format("collision{}", i) : c->name;
    g.X_BG = ToIsometry(c->origin);
    g.contact = robot.options.contact;
    if (std::optional<Shape> shape = PrimitiveShape(*c->geometry)) {
      g.shape = std::move(*shape);
    } else if (c->geometry->type == urdf::Geometry::MESH) {
      const auto& m = static_cast<const urdf::Mesh&>(*c->geometry);
      try {
        g.shape = Shape::ConvexMesh(robot.meshes.Hull(m));
      } catch (const std::exception& e) {
        throw MeshError(where, "collision", m, e);
      }
    } else {
      throw SceneError(fmt::format("{}: collision geometry #{} has an unknown type", where, i));
    }
    sb->geometries.push_back(std::move(g));
  }
}

// The link's <visual> geometry (drawn only): primitives and meshes as loaded, with the
// material's colour if it has one.
void AddVisuals(const RobotBuild& robot, const urdf::Link& link, const std::string& where,
                SceneBody* sb) {
  for (size_t i = 0; i < link.visual_array.size(); ++i) {
    const urdf::VisualSharedPtr& v = link.visual_array[i];
    if (!v || !v->geometry) continue;
    VisualSpec visual;
    visual.name = v->name.empty() ? fmt::format("visual{}", i) : v->name;
    visual.X_BV = ToIsometry(v->origin);
    if (v->material) {
      const urdf::Color& c = v->material->color;
      // urdfdom leaves a material without <color> at (0, 0, 0, 1): treat it as unset.
      if (c.r != 0 || c.g != 0 || c.b != 0 || c.a != 1) {
        visual.rgba = Eigen::Vector4d(c.r, c.g, c.b, c.a);
      }
    }
    if (std::optional<Shape> shape = PrimitiveShape(*v->geometry)) {
      visual.shape = std::move(*shape);
    } else if (v->geometry->type == urdf::Geometry::MESH) {
      const auto& m = static_cast<const urdf::Mesh&>(*v->geometry);
      try {
        visual.mesh = robot.meshes.Mesh(m);
      } catch (const std::exception& e) {
        throw MeshError(where, "visual", m, e);
      }
    } else {
      continue;  // nothing to draw
    }
    sb->visuals.push_back(std::move(visual));
  }
}

// Appends `link` as a scene body (child of the body at parent_scene_index; -1: the world),
// then its children, depth first.
void AddLink(const RobotBuild& robot, const urdf::Link& link, int parent_scene_index) {
  const std::string where = fmt::format("{}: link '{}'", robot.path, link.name);
  SceneBody sb;
  sb.kind = SceneBody::Kind::kDynamic;
  sb.body.name = robot.options.name_prefix + link.name;
  if (robot.scene->FindBody(sb.body.name) >= 0) {
    throw SceneError(
        fmt::format("{}: a body named '{}' already exists (use a prefix)", where, sb.body.name));
  }
  sb.parent_scene_index = parent_scene_index;
  const urdf::JointConstSharedPtr joint = link.parent_joint;
  if (joint) {
    SetJoint(robot, *joint, &sb);
  } else {
    SetRootJoint(robot.options, &sb);
  }
  SetInertia(link, !joint && !robot.options.fixed_base, where, &sb);
  AddCollisions(robot, link, where, &sb);
  AddVisuals(robot, link, where, &sb);
  robot.scene->bodies.push_back(std::move(sb));
  const int index = static_cast<int>(robot.scene->bodies.size()) - 1;
  for (const urdf::LinkSharedPtr& child : link.child_links) AddLink(robot, *child, index);
}

// urdfdom takes the link without a parent as the root: links on a cycle of joints are left out
// of its tree silently. Each must be reachable from the root.
void CheckEveryLinkReachable(const std::string& path, const urdf::ModelInterface& model,
                             const urdf::Link& root) {
  std::set<std::string> reached;
  std::vector<const urdf::Link*> stack = {&root};
  while (!stack.empty()) {
    const urdf::Link* link = stack.back();
    stack.pop_back();
    reached.insert(link->name);
    for (const urdf::LinkSharedPtr& child : link->child_links) stack.push_back(child.get());
  }
  for (const auto& [name, link] : model.links_) {
    if (reached.count(name)) continue;
    // Up the parents from an unreached link: the chain ends on a cycle.
    std::vector<std::string> chain;
    urdf::LinkConstSharedPtr at = link;
    while (at && std::find(chain.begin(), chain.end(), at->name) == chain.end()) {
      chain.push_back(at->name);
      at = at->getParent();
    }
    if (!at) continue;  // cannot happen: an unreached link with a root would be reached
    const urdf::JointSharedPtr joint = model.getLink(at->name)->parent_joint;
    throw SceneError(
        fmt::format("{}: the joints form a cycle through link '{}' (joint '{}'); a "
                    "robot must be a tree",
                    path, at->name, joint ? joint->name : "?"));
  }
}

bool IsOneDof(const urdf::Joint& joint) {
  return joint.type == urdf::Joint::REVOLUTE || joint.type == urdf::Joint::CONTINUOUS ||
         joint.type == urdf::Joint::PRISMATIC;
}

// Each <mimic joint="J" multiplier="ρ" offset="c"/> becomes a coupler q = ρ·q_J + c
// (docs/contact-model.md §3.2) between the two joints' child links; a mimic joint whose initial
// position is not given starts on its coupling.
void AddMimicCouplers(const std::string& path, const urdf::ModelInterface& model,
                      const UrdfOptions& options, SceneSpec* scene) {
  for (const auto& [name, joint] : model.joints_) {
    if (!joint->mimic) continue;
    const std::string where = fmt::format("{}: joint '{}'", path, name);
    const urdf::JointConstSharedPtr leader = model.getJoint(joint->mimic->joint_name);
    if (!leader) {
      throw SceneError(
          fmt::format("{} mimics unknown joint '{}'", where, Printable(joint->mimic->joint_name)));
    }
    if (leader == joint) throw SceneError(where + " mimics itself");
    if (!IsOneDof(*joint) || !IsOneDof(*leader)) {
      throw SceneError(where + ": mimic needs revolute, continuous or prismatic joints");
    }
    CouplerSpec c;
    c.name = options.name_prefix + name;
    c.body_a = scene->FindBody(options.name_prefix + joint->child_link_name);
    c.body_b = scene->FindBody(options.name_prefix + leader->child_link_name);
    c.parameters.gear_ratio = joint->mimic->multiplier;
    c.parameters.offset = joint->mimic->offset;
    try {
      c.parameters.Validate();
    } catch (const std::invalid_argument& e) {
      throw SceneError(fmt::format("{}: mimic {}", where, e.what()));
    }
    SceneBody& follower = scene->bodies[c.body_a];
    if (!options.initial_positions.count(name)) {
      const double q =
          c.parameters.gear_ratio * scene->bodies[c.body_b].initial_position + c.parameters.offset;
      if (follower.limits && !(q >= follower.limits->first && q <= follower.limits->second)) {
        throw SceneError(fmt::format("{}: its mimic position {} lies outside its limits [{}, {}]",
                                     where, q, follower.limits->first, follower.limits->second));
      }
      follower.initial_position = q;
    }
    scene->couplers.push_back(c);
  }
}

}  // namespace

void AddUrdfRobot(const std::string& path, const UrdfOptions& options, SceneSpec* scene) {
  if (!std::filesystem::is_regular_file(path)) {
    throw SceneError(fmt::format("{}: cannot open the URDF file", path));
  }
  // urdfdom reports through console_bridge on stderr; our one line says what is wrong instead.
  console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_NONE);
  const urdf::ModelInterfaceSharedPtr model = urdf::parseURDFFile(path);
  if (!model) {
    throw SceneError(
        fmt::format("{}: malformed URDF (not a tree of links and joints: a joint's "
                    "parent or child link is missing, or a name is repeated)",
                    path));
  }
  const urdf::LinkConstSharedPtr root = model->getRoot();
  if (!root) throw SceneError(fmt::format("{}: the URDF has no root link", path));
  CheckEveryLinkReachable(path, *model, *root);
  for (const auto& [name, value] : options.initial_positions) {
    if (!model->getJoint(name)) {
      throw SceneError(fmt::format("{}: initial position for unknown joint '{}'", path, name));
    }
    if (!std::isfinite(value)) {
      throw SceneError(fmt::format("{}: initial position of joint '{}' is not finite", path, name));
    }
  }
  MeshCache meshes(fs::path(path).parent_path());
  AddLink(RobotBuild{path, options, meshes, scene}, *root, -1);
  AddMimicCouplers(path, *model, options, scene);
}

}  // namespace contactlab
