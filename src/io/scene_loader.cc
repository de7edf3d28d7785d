#include "io/scene_loader.h"

#include <spdlog/fmt/fmt.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "engine/hydroelastic/hydroelastic_representation.h"
#include "io/asset_directory.h"
#include "io/printable_text.h"
#include "io/scene_bounds.h"
#include "io/scene_constraints.h"
#include "io/scene_generators.h"
#include "io/scene_mesh_shape.h"
#include "io/scene_task.h"
#include "io/scene_yaml_context.h"
#include "io/urdf_loader.h"

namespace contactlab {

namespace {

using scene_yaml::Context;

ContactProperties ParseContact(const Context& ctx, const YAML::Node& map, const std::string& where,
                               const ContactProperties& defaults) {
  ContactProperties c = defaults;
  c.stiffness_N_per_m = ctx.Stiffness(map, where, "stiffness", c.stiffness_N_per_m);
  c.hunt_crossley_s_per_m = ctx.NonNegative(map, where, "hunt_crossley", c.hunt_crossley_s_per_m);
  c.relaxation_time_s = ctx.NonNegative(map, where, "relaxation_time", c.relaxation_time_s);
  c.friction = ctx.NonNegative(map, where, "friction", c.friction);
  c.restitution = ctx.Bounded(map, where, "restitution", c.restitution, scene_bounds::kRestitution);
  return c;
}

const std::set<std::string> kContactKeys = {"stiffness", "hunt_crossley", "relaxation_time",
                                            "friction", "restitution"};

std::set<std::string> With(std::set<std::string> keys, const std::set<std::string>& more) {
  keys.insert(more.begin(), more.end());
  return keys;
}

// Per-shape contact model (docs/contact-model.md §5): `contact_model`, `hydroelastic_modulus` [Pa]
// and `resolution` [m] (mesh edge length; default a fifth of the smallest dimension).
void ParseHydroelastic(const Context& ctx, const YAML::Node& node, const std::string& where,
                       GeometrySpec* g, bool part_of_generator = false) {
  HydroelasticProperties& h = g->hydroelastic;
  const YAML::Node model = node["contact_model"];
  if (model.IsDefined() && !model.IsNull()) {
    const std::string name = ctx.String(node, "contact_model", "point");
    const std::optional<ContactModel> m = ParseContactModel(name);
    if (!m) {
      ctx.Fail(model, fmt::format("{}.contact_model: unknown model '{}' (point, "
                                  "hydroelastic_compliant, hydroelastic_rigid)",
                                  where, name));
    }
    h.model = *m;
  }
  if (h.model == ContactModel::kHydroelasticCompliant && g->shape.type == ShapeType::kHalfSpace) {
    ctx.Fail(model, where +
                        ": a half_space cannot be hydroelastic_compliant (use "
                        "hydroelastic_rigid or point; it always acts as rigid)");
  }
  h.modulus_Pa = ctx.Positive(node, where, "hydroelastic_modulus", h.modulus_Pa);
  if (node["volume_mesh"].IsDefined()) {
    if (h.model != ContactModel::kHydroelasticCompliant) {
      ctx.Fail(node["volume_mesh"],
               where + ".volume_mesh needs contact_model: hydroelastic_compliant");
    }
    if (node["resolution"].IsDefined()) {
      ctx.Fail(node["resolution"], where + ": give volume_mesh or resolution, not both");
    }
    h.volume_mesh = LoadVolumeMesh(ctx, node, where);
  }
  h.resolution_m = node["resolution"].IsDefined() && !node["resolution"].IsNull()
                       ? ctx.Positive(node, where, "resolution", 0)
                       : 0.0;
  if (h.model != ContactModel::kHydroelasticCompliant && node["hydroelastic_modulus"].IsDefined()) {
    ctx.Fail(node["hydroelastic_modulus"],
             where + ".hydroelastic_modulus needs contact_model: hydroelastic_compliant");
  }
  if (h.model == ContactModel::kPoint && node["resolution"].IsDefined()) {
    ctx.Fail(node["resolution"], where +
                                     ".resolution needs contact_model: "
                                     "hydroelastic_compliant or hydroelastic_rigid");
  }
  // The mesh budget and the shape's size bound the resolution, the default one included (a
  // thin box's default is a fifth of its thickness): refused here, before any mesh is built.
  // A generator's one resolution for boxes of several sizes (part_of_generator) is checked
  // against the generator's size, and each box is meshed at most as coarsely as itself.
  if (h.model != ContactModel::kPoint && g->shape.type != ShapeType::kHalfSpace && !h.volume_mesh) {
    HydroelasticChange change;
    change.resolution_m =
        h.resolution_m > 0 ? h.resolution_m : DefaultHydroelasticResolution(g->shape);
    if (part_of_generator) {
      change.resolution_m = std::min(*change.resolution_m, ShapeLargestDimension(g->shape));
    }
    try {
      ValidateHydroelasticChange(g->name, g->shape, h.model, change);
    } catch (const std::invalid_argument& e) {
      ctx.Fail(node["resolution"].IsDefined() ? node["resolution"] : node,
               fmt::format("{}: {}", where, e.what()));
    }
  }
}

// One entry of `shapes`: the geometries it makes (a mesh in point contact: one per object of its
// file, its convex pieces) and the one it weighs as (the entry's whole shape).
struct ParsedShape {
  std::vector<GeometrySpec> geometries;
  GeometrySpec weighed;
};

ParsedShape ParseShape(const Context& ctx, const YAML::Node& node, const std::string& body_where,
                       int index, const ContactProperties& defaults) {
  const std::string where = fmt::format("{}.shapes[{}]", body_where, index);
  ctx.CheckKeys(
      node, where,
      With(kContactKeys, {"type", "name", "radius", "size", "length", "normal", "position",
                          "rpy_deg", "quaternion", "contact_model", "hydroelastic_modulus",
                          "resolution", "file", "scale", "volume_mesh"}));
  std::optional<MeshShapes> mesh;
  GeometrySpec g;
  g.name = ctx.String(node, "name", fmt::format("shape{}", index));
  const std::string type = ctx.String(node, "type", "");
  if (type == "sphere") {
    g.shape = Shape::Sphere(ctx.Bounded(node, where, "radius", 0, scene_bounds::kLength));
  } else if (type == "box") {
    if (!node["size"].IsDefined()) ctx.Fail(node, where + ": a box needs size: [x, y, z]");
    const Eigen::Vector3d size = ctx.Vector(node["size"], where + ".size", 3);
    for (int i = 0; i < 3; ++i)
      ctx.InRange(node["size"], where + ".size", size[i], scene_bounds::kLength);
    g.shape = Shape::Box(0.5 * size);
  } else if (type == "cylinder" || type == "capsule") {
    const double r = ctx.Bounded(node, where, "radius", 0, scene_bounds::kLength);
    const double L = ctx.Bounded(node, where, "length", 0, scene_bounds::kLength);
    g.shape = type == "cylinder" ? Shape::Cylinder(r, L) : Shape::Capsule(r, L);
  } else if (type == "half_space") {
    g.shape = Shape::HalfSpace();
  } else if (type == "mesh") {
    mesh = LoadMeshShapes(ctx, node, where);
    g.shape = mesh->whole;
  } else {
    ctx.Fail(node["type"].IsDefined() ? node["type"] : node,
             fmt::format("{}: unknown shape type '{}' (sphere, box, cylinder, capsule, "
                         "half_space, mesh)",
                         where, type));
  }
  if (type != "mesh" && (node["file"].IsDefined() || node["scale"].IsDefined())) {
    ctx.Fail(node, where + ": file and scale belong to a mesh");
  }
  g.X_BG = ctx.Pose(node, where);
  if (type == "half_space" && node["normal"].IsDefined()) {
    const Eigen::Vector3d n = ctx.Vector(node["normal"], where + ".normal", 3);
    if (n.norm() < 1e-12) ctx.Fail(node["normal"], where + ".normal must not be zero");
    g.X_BG.linear() = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), n.normalized())
                          .toRotationMatrix();
  }
  g.contact = ParseContact(ctx, node, where, defaults);
  ParseHydroelastic(ctx, node, where, &g);
  ParsedShape parsed{{g}, g};
  // Point contact sees a mesh as the convex hulls of its objects (docs/contact-model.md §5:
  // hydroelastic contact takes the whole surface, non-convex as it is).
  if (mesh && g.hydroelastic.model == ContactModel::kPoint && mesh->objects.size() > 1) {
    parsed.geometries.clear();
    for (size_t k = 0; k < mesh->objects.size(); ++k) {
      GeometrySpec piece = g;
      piece.name = fmt::format("{}_{}", g.name, k);
      piece.shape = mesh->objects[k];
      parsed.geometries.push_back(std::move(piece));
    }
  }
  return parsed;
}

JointType ParseJointType(const Context& ctx, const YAML::Node& node, const std::string& where) {
  if (!node.IsScalar()) {
    ctx.Fail(node, where + ".joint must be a joint type (floating, revolute, prismatic, weld)");
  }
  const std::string j = node.Scalar();
  if (j == "floating") return JointType::kFloating;
  if (j == "revolute") return JointType::kRevolute;
  if (j == "prismatic") return JointType::kPrismatic;
  if (j == "weld") return JointType::kWeld;
  ctx.Fail(node, fmt::format("{}: unknown joint type '{}' (floating, revolute, prismatic, weld)",
                             where, j));
}

// Every field a body may have (assets/scenes/README.md).
const std::set<std::string> kBodyKeys = {
    // Every body.
    "name", "type", "shapes", "contact", "position", "rpy_deg", "quaternion", "color",
    // Kinematic bodies.
    "motion",
    // Dynamic bodies: joint and initial state,
    "parent", "joint", "joint_origin", "axis", "damping", "stiffness", "rest_position",
    "joint_position", "joint_velocity", "velocity", "angular_velocity",
    // mass properties,
    "mass", "density", "com", "inertia",
    // PD controller and limits.
    "pd", "limits"};

SceneBody::Kind ParseBodyKind(const Context& ctx, const YAML::Node& node,
                              const std::string& where) {
  const std::string type = ctx.String(node, "type", "dynamic");
  if (type == "dynamic") return SceneBody::Kind::kDynamic;
  if (type == "static") return SceneBody::Kind::kStatic;
  if (type == "kinematic") return SceneBody::Kind::kKinematic;
  ctx.Fail(node["type"],
           fmt::format("{}: unknown body type '{}' (dynamic, static, kinematic)", where, type));
}

// The body's `shapes`, with `contact` (optional) in place of the scene's default contact.
// The body's geometries, and into *weighed each entry's whole shape (ParsedShape).
std::vector<GeometrySpec> ParseBodyShapes(const Context& ctx, const YAML::Node& node,
                                          const std::string& where,
                                          const ContactProperties& defaults,
                                          std::vector<GeometrySpec>* weighed) {
  ContactProperties body_defaults = defaults;
  if (node["contact"].IsDefined()) {
    ctx.CheckKeys(node["contact"], where + ".contact", kContactKeys);
    body_defaults = ParseContact(ctx, node["contact"], where + ".contact", defaults);
  }
  std::vector<GeometrySpec> geometries;
  const YAML::Node shapes = node["shapes"];
  if (shapes.IsDefined()) {
    if (!shapes.IsSequence()) ctx.Fail(shapes, where + ".shapes must be a list");
    for (size_t i = 0; i < shapes.size(); ++i) {
      ParsedShape parsed = ParseShape(ctx, shapes[i], where, static_cast<int>(i), body_defaults);
      for (GeometrySpec& g : parsed.geometries) geometries.push_back(std::move(g));
      weighed->push_back(std::move(parsed.weighed));
    }
  }
  return geometries;
}

// A kinematic body's prescribed `motion` (optional: without it the body stays put).
void ParseMotion(const Context& ctx, const YAML::Node& node, const std::string& where,
                 KinematicMotion* motion) {
  const YAML::Node m = node["motion"];
  if (!m.IsDefined()) return;
  ctx.CheckKeys(m, where + ".motion", {"axis", "amplitude", "frequency", "phase", "speed"});
  Eigen::Vector3d axis = ctx.Vec3(m, where + ".motion", "axis", Eigen::Vector3d::UnitX());
  if (axis.norm() < 1e-12) ctx.Fail(m["axis"], where + ".motion.axis must not be zero");
  motion->axis = axis.normalized();
  motion->amplitude_m = ctx.Bounded(m, where + ".motion", "amplitude", 0, scene_bounds::kPosition);
  motion->frequency_Hz =
      ctx.Bounded(m, where + ".motion", "frequency", 0, scene_bounds::kFrequency);
  motion->phase_rad = ctx.Number(m, where + ".motion", "phase", 0);
  motion->speed_m_per_s = ctx.Bounded(m, where + ".motion", "speed", 0, scene_bounds::kSpeed);
}

// A dynamic body's `parent` (a dynamic body listed above it, or world), `joint` (default
// floating) and `joint_origin` (the joint frame in the parent's, for a jointed body).
void ParseParentAndJoint(const Context& ctx, const YAML::Node& node, const std::string& where,
                         const SceneSpec& scene, SceneBody* sb) {
  const std::string parent = ctx.String(node, "parent", "world");
  if (parent != "world") {
    sb->parent_scene_index = scene.FindBody(parent);
    if (sb->parent_scene_index < 0) {
      ctx.Fail(node["parent"],
               fmt::format("{}: parent '{}' is not a body listed above it", where, parent));
    }
    if (scene.bodies[sb->parent_scene_index].kind != SceneBody::Kind::kDynamic) {
      ctx.Fail(node["parent"],
               fmt::format("{}: parent '{}' must be a dynamic body (or world)", where, parent));
    }
  }
  sb->body.joint =
      node["joint"].IsDefined() ? ParseJointType(ctx, node["joint"], where) : JointType::kFloating;
  if (node["joint_origin"].IsDefined()) {
    if (sb->body.joint != JointType::kRevolute && sb->body.joint != JointType::kPrismatic &&
        sb->body.joint != JointType::kWeld) {
      ctx.Fail(node["joint_origin"],
               where + ": a floating body is placed by position/rpy_deg, not joint_origin");
    }
    ctx.CheckKeys(node["joint_origin"], where + ".joint_origin",
                  {"position", "rpy_deg", "quaternion"});
    sb->body.X_PJ = ctx.Pose(node["joint_origin"], where + ".joint_origin");
  }
}

// The joint's parameters and initial state: a revolute or prismatic joint's axis, spring and
// damper, position and velocity (fields refused for other joints); a floating body's initial
// velocity.
void ParseJointState(const Context& ctx, const YAML::Node& node, const std::string& where,
                     SceneBody* sb) {
  const bool one_dof =
      sb->body.joint == JointType::kRevolute || sb->body.joint == JointType::kPrismatic;
  if (one_dof) {
    Eigen::Vector3d axis = ctx.Vec3(node, where, "axis", Eigen::Vector3d::UnitZ());
    if (axis.norm() < 1e-12) ctx.Fail(node["axis"], where + ".axis must not be zero");
    sb->body.axis = axis.normalized();
    sb->body.damping = ctx.NonNegative(node, where, "damping", 0);
    sb->body.stiffness = ctx.NonNegative(node, where, "stiffness", 0);
    sb->body.rest_position = ctx.Bounded(node, where, "rest_position", 0, scene_bounds::kPosition);
    sb->initial_position = ctx.Bounded(node, where, "joint_position", 0, scene_bounds::kPosition);
    sb->initial_velocity = Eigen::VectorXd::Constant(
        1, ctx.Bounded(node, where, "joint_velocity", 0, scene_bounds::kSpeed));
  } else {
    for (const char* f : {"axis", "damping", "stiffness", "rest_position", "joint_position",
                          "joint_velocity", "pd", "limits"}) {
      if (node[f].IsDefined()) {
        ctx.Fail(node[f],
                 fmt::format("{}: '{}' applies only to revolute and prismatic joints", where, f));
      }
    }
  }
  if (sb->body.joint == JointType::kFloating) {
    // Both read before the comma initializer: a field that throws inside it would leave the
    // initializer unfinished (an assertion in Eigen's debug builds; found by fuzz_scene_yaml).
    const Eigen::Vector3d w = ctx.BoundedVec3(node, where, "angular_velocity",
                                              Eigen::Vector3d::Zero(), scene_bounds::kSpeed);
    const Eigen::Vector3d v =
        ctx.BoundedVec3(node, where, "velocity", Eigen::Vector3d::Zero(), scene_bounds::kSpeed);
    sb->initial_velocity.resize(6);
    sb->initial_velocity << w, v;
  }
}

// The body's first bounded geometry (not a half-space): `density` and the default COM and
// inertia come from it. Null if there is none.
const GeometrySpec* FirstBoundedShape(const std::vector<GeometrySpec>& geometries) {
  for (const GeometrySpec& g : geometries) {
    if (g.shape.type != ShapeType::kHalfSpace) return &g;
  }
  return nullptr;
}

// `mass`, or `density` × the volume of the first bounded shape.
double ParseMass(const Context& ctx, const YAML::Node& node, const std::string& where,
                 const GeometrySpec* first_shape) {
  const bool has_mass = node["mass"].IsDefined(), has_density = node["density"].IsDefined();
  if (has_mass && has_density)
    ctx.Fail(node["density"], where + ": give mass or density, not both");
  if (has_mass) {
    return ctx.InRange(node["mass"], where + ".mass", ctx.Number(node["mass"], where + ".mass"),
                       scene_bounds::kMass);
  }
  if (has_density) {
    const double rho = ctx.Bounded(node, where, "density", 0, scene_bounds::kDensity);
    if (!first_shape) ctx.Fail(node["density"], where + ": density needs a bounded shape");
    return ctx.InRange(node["density"], where + ".mass (density × volume)",
                       rho * ShapeVolume(first_shape->shape), scene_bounds::kMass);
  }
  ctx.Fail(node, where + ": a dynamic body needs mass or density");
}

// Rotational inertia about the COM into *inertia_about_com: `inertia` (principal moments [ixx, iyy,
// izz] or a 3×3 row-major list), else the first bounded shape's as a solid of that mass. (Assigned,
// not returned: Eigen rounds `I = A * B * C` and `return A * B * C` differently, and the inertia
// must stay bit for bit what it was.)
void ParseInertia(const Context& ctx, const YAML::Node& node, const std::string& where, double mass,
                  const GeometrySpec* first_shape, Eigen::Matrix3d* inertia_about_com) {
  Eigen::Matrix3d& I = *inertia_about_com;
  const YAML::Node inertia = node["inertia"];
  if (!inertia.IsDefined()) {
    if (!first_shape) {
      ctx.Fail(node, where + ": a dynamic body without a bounded shape needs inertia");
    }
    const Eigen::Isometry3d& X_BS = first_shape->X_BG;
    I = X_BS.linear() * SolidInertia(first_shape->shape, mass) * X_BS.linear().transpose();
    return;
  }
  if (inertia.IsSequence() && inertia.size() == 3) {
    I = ctx.Vector(inertia, where + ".inertia", 3).asDiagonal();
  } else if (inertia.IsSequence() && inertia.size() == 9) {
    const Eigen::VectorXd rows = ctx.Vector(inertia, where + ".inertia", 9);
    I = Eigen::Map<const Eigen::Matrix3d>(rows.data()).transpose();
  } else {
    ctx.Fail(inertia, where + ".inertia must be [ixx, iyy, izz] or a 3x3 list of 9 numbers");
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(0.5 * (I + I.transpose()));
  if ((I - I.transpose()).norm() > 1e-12 * (1 + I.norm()) || eig.eigenvalues().minCoeff() <= 0) {
    ctx.Fail(inertia, where + ".inertia must be symmetric positive definite");
  }
}

// Mass, centre of mass (`com`, else the first bounded shape's centroid) and inertia, from the
// entries of `shapes` (`weighed`: a mesh as its whole solid).
void ParseMassProperties(const Context& ctx, const YAML::Node& node, const std::string& where,
                         const std::vector<GeometrySpec>& weighed, SceneBody* sb) {
  const GeometrySpec* first_shape = FirstBoundedShape(weighed);
  const double mass = ParseMass(ctx, node, where, first_shape);
  sb->body.inertia.mass_kg = mass;
  sb->body.inertia.com_B =
      first_shape && !node["com"].IsDefined()
          ? Eigen::Vector3d(first_shape->X_BG * ShapeCentroid(first_shape->shape))
          : ctx.BoundedVec3(node, where, "com", Eigen::Vector3d::Zero(), scene_bounds::kPosition);
  ParseInertia(ctx, node, where, mass, first_shape, &sb->body.inertia.inertia_about_com_B);
}

// A 1-dof joint's PD controller (`pd`) and position limits (`limits`), both optional.
void ParsePdAndLimits(const Context& ctx, const YAML::Node& node, const std::string& where,
                      SceneBody* sb) {
  if (node["pd"].IsDefined()) {
    const YAML::Node pd = node["pd"];
    ctx.CheckKeys(pd, where + ".pd",
                  {"kp", "kd", "effort_limit", "target", "target_velocity", "feedforward"});
    JointPdSpec s;
    s.kp = ctx.NonNegative(pd, where + ".pd", "kp", 0);
    s.kd = ctx.NonNegative(pd, where + ".pd", "kd", 0);
    s.effort_limit = ctx.Positive(pd, where + ".pd", "effort_limit", 1e30);
    s.q_desired = ctx.Bounded(pd, where + ".pd", "target", 0, scene_bounds::kPosition);
    s.v_desired = ctx.Bounded(pd, where + ".pd", "target_velocity", 0, scene_bounds::kSpeed);
    s.feedforward = ctx.Number(pd, where + ".pd", "feedforward", 0);
    sb->pd = s;
  }
  if (node["limits"].IsDefined()) {
    const Eigen::VectorXd lim = ctx.Vector(node["limits"], where + ".limits", 2);
    if (!(lim[0] < lim[1])) ctx.Fail(node["limits"], where + ".limits must be [lower, upper]");
    for (int i = 0; i < 2; ++i) {
      ctx.InRange(node["limits"], where + ".limits", lim[i], scene_bounds::kPosition);
    }
    if (!(sb->initial_position >= lim[0] && sb->initial_position <= lim[1])) {
      ctx.Fail(node["joint_position"].IsDefined() ? node["joint_position"] : node["limits"],
               fmt::format("{}: joint_position {} lies outside its limits [{}, {}]", where,
                           sb->initial_position, lim[0], lim[1]));
    }
    sb->limits = std::make_pair(lim[0], lim[1]);
  }
}

// `color: [r, g, b]` (sRGB, each in [0, 1]), if given.
std::optional<Eigen::Vector3d> ParseColor(const Context& ctx, const YAML::Node& node,
                                          const std::string& where) {
  if (!node["color"].IsDefined()) return std::nullopt;
  const Eigen::Vector3d c = ctx.Vector(node["color"], where + ".color", 3);
  if (!(c.minCoeff() >= 0 && c.maxCoeff() <= 1)) {
    ctx.Fail(node["color"], where + ".color must be three numbers in [0, 1] (sRGB)");
  }
  return c;
}

// One entry of `bodies`: name and kind, shapes and pose, then a kinematic body's motion or a
// dynamic body's joint, initial state, mass properties, PD controller and limits. Fields are
// checked in that order: the first bad one is the error.
void ParseBody(const Context& ctx, const YAML::Node& node, int index,
               const ContactProperties& defaults, SceneSpec* scene) {
  if (!node.IsMap()) ctx.Fail(node, fmt::format("bodies[{}] must be a mapping", index));
  SceneBody sb;
  sb.body.name = ctx.String(node, "name", "");
  if (sb.body.name.empty()) ctx.Fail(node, fmt::format("bodies[{}] needs a name", index));
  const std::string where = fmt::format("body '{}'", sb.body.name);
  ctx.CheckKeys(node, where, kBodyKeys);
  if (scene->FindBody(sb.body.name) >= 0) {
    ctx.Fail(node["name"], where + ": the name is used twice");
  }
  sb.kind = ParseBodyKind(ctx, node, where);
  std::vector<GeometrySpec> weighed;
  sb.geometries = ParseBodyShapes(ctx, node, where, defaults, &weighed);
  sb.initial_pose = ctx.Pose(node, where);
  sb.color = ParseColor(ctx, node, where);
  if (sb.kind == SceneBody::Kind::kKinematic) ParseMotion(ctx, node, where, &sb.motion);
  if (sb.kind == SceneBody::Kind::kDynamic) {
    ParseParentAndJoint(ctx, node, where, *scene, &sb);
    ParseJointState(ctx, node, where, &sb);
    ParseMassProperties(ctx, node, where, weighed, &sb);
    ParsePdAndLimits(ctx, node, where, &sb);
  }
  scene->bodies.push_back(std::move(sb));
}

void ParsePegBlock(const Context& ctx, const YAML::Node& node, const std::string& where,
                   const ContactProperties& defaults, SceneSpec* scene) {
  ctx.CheckKeys(node, where,
                With(kContactKeys, {"type", "name", "position", "rpy_deg", "quaternion", "size",
                                    "peg_width", "clearance", "chamfer", "contact_model",
                                    "hydroelastic_modulus", "resolution", "color"}));
  PegBlockSpec b;
  b.name = ctx.String(node, "name", b.name);
  b.pose = ctx.Pose(node, where);
  if (node["size"].IsDefined()) {
    b.size_m = ctx.Vector(node["size"], where + ".size", 3);
    for (int i = 0; i < 3; ++i) {
      ctx.InRange(node["size"], where + ".size", b.size_m[i], scene_bounds::kLength);
    }
  }
  b.peg_width_m = ctx.Bounded(node, where, "peg_width", b.peg_width_m, scene_bounds::kLength);
  b.clearance_m = ctx.NonNegative(node, where, "clearance", b.clearance_m);
  b.chamfer_m = ctx.NonNegative(node, where, "chamfer", b.chamfer_m);
  try {
    AddPegBlock(b, ParseContact(ctx, node, where, defaults), scene);
  } catch (const std::invalid_argument& e) {
    ctx.Fail(node, fmt::format("{}: {}", where, e.what()));
  }
  // Every box of the block takes the generator's contact model (e.g. hydroelastic_rigid).
  if (node["resolution"].IsDefined()) {
    ctx.InRange(node["resolution"], where + ".resolution", ctx.Number(node["resolution"], where),
                {0.0, b.size_m.maxCoeff(), "m (no coarser than the block)"});
  }
  for (GeometrySpec& g : scene->bodies.back().geometries) {
    ParseHydroelastic(ctx, node, where, &g, /*part_of_generator=*/true);
  }
  scene->bodies.back().color = ParseColor(ctx, node, where);
}

void ParseGenerator(const Context& ctx, const YAML::Node& node, int index,
                    const ContactProperties& defaults, SceneSpec* scene) {
  const std::string where = fmt::format("generators[{}]", index);
  if (!node.IsMap()) ctx.Fail(node, where + " must be a mapping with a type");
  const std::string type = ctx.String(node, "type", "");
  if (type == "peg_block") {
    ParsePegBlock(ctx, node, where, defaults, scene);
    return;
  }
  ctx.CheckKeys(node, where,
                With(kContactKeys, {"type", "count", "size", "container", "walls", "seed",
                                    "density", "drop_height"}));
  if (type != "clutter") {
    ctx.Fail(node,
             fmt::format("{}: unknown generator type '{}' (clutter, peg_block)", where, type));
  }
  ClutterSpec c;
  const double count = ctx.Number(node, where, "count", c.count);
  if (count < 1 || count > scene_bounds::kMaxBodies || count != std::floor(count)) {
    ctx.Fail(node["count"], fmt::format("{}.count must be a whole number from 1 to {}", where,
                                        scene_bounds::kMaxBodies));
  }
  c.count = static_cast<int>(count);
  c.size_m = ctx.Bounded(node, where, "size", c.size_m, scene_bounds::kLength);
  c.container_m = ctx.Bounded(node, where, "container", c.container_m, scene_bounds::kLength);
  c.walls = ctx.Bool(node, "walls", c.walls);
  c.seed = static_cast<unsigned>(ctx.NonNegative(node, where, "seed", c.seed));
  c.density_kg_per_m3 = ctx.Positive(node, where, "density", c.density_kg_per_m3);
  c.drop_height_m = ctx.Bounded(node, where, "drop_height", c.drop_height_m,
                                {0.0, scene_bounds::kLength.max, "m"});
  const int side = ClutterGridSide(c.count);
  if (c.container_m / side < 1.5 * c.size_m) {
    ctx.Fail(node["container"], fmt::format("{}: a container of {} m is too small for {} columns "
                                            "of objects of {} m",
                                            where, c.container_m, side * side, c.size_m));
  }
  AddClutter(c, ParseContact(ctx, node, where, defaults), scene);
}

// A robot from a URDF file: `urdf` is absolute, relative to the scene file's folder, or
// relative to the asset directory.
void ParseRobot(const Context& ctx, const YAML::Node& node, int index,
                const ContactProperties& defaults, SceneSpec* scene) {
  namespace fs = std::filesystem;
  const std::string where = fmt::format("robots[{}]", index);
  ctx.CheckKeys(node, where,
                {"urdf", "prefix", "position", "rpy_deg", "quaternion", "fixed_base",
                 "joint_positions", "pd", "contact", "hydroelastic"});
  const std::string file = ctx.String(node, "urdf", "");
  if (file.empty()) ctx.Fail(node, where + ": needs urdf: PATH");
  const std::string path = ctx.ResolvePath(file);
  UrdfOptions options;
  options.name_prefix = ctx.String(node, "prefix", "");
  options.X_WRoot = ctx.Pose(node, where);
  options.fixed_base = ctx.Bool(node, "fixed_base", true);
  options.contact = defaults;
  if (node["contact"].IsDefined()) {
    ctx.CheckKeys(node["contact"], where + ".contact", kContactKeys);
    options.contact = ParseContact(ctx, node["contact"], where + ".contact", defaults);
  }
  const YAML::Node q = node["joint_positions"];
  if (q.IsDefined()) {
    if (!q.IsMap()) ctx.Fail(q, where + ".joint_positions must map joint names to values");
    for (const auto& kv : q) {
      const std::string joint = kv.first.IsScalar() ? kv.first.Scalar() : "";
      const std::string field = where + ".joint_positions." + joint;
      options.initial_positions[joint] =
          ctx.InRange(kv.second, field, ctx.Number(kv.second, field), scene_bounds::kPosition);
    }
  }
  if (node["pd"].IsDefined()) {
    const YAML::Node pd = node["pd"];
    ctx.CheckKeys(pd, where + ".pd", {"kp", "kd", "effort_limit"});
    JointPdSpec s;
    s.kp = ctx.NonNegative(pd, where + ".pd", "kp", 0);
    s.kd = ctx.NonNegative(pd, where + ".pd", "kd", 0);
    s.effort_limit = ctx.Positive(pd, where + ".pd", "effort_limit", 1e30);
    options.pd = s;
  }
  const size_t first_body = scene->bodies.size();
  try {
    AddUrdfRobot(path, options, scene);
  } catch (const SceneError& e) {
    ctx.Fail(node["urdf"], e.what());
  }
  // Hydroelastic contact for some links' collision geometry (e.g. compliant finger pads):
  //   hydroelastic: [{links: [panda_leftfinger, ...], contact_model: hydroelastic_compliant,
  //                   hydroelastic_modulus: 1e7, resolution: 0.003}]
  const YAML::Node hydro = node["hydroelastic"];
  if (hydro.IsDefined()) {
    if (!hydro.IsSequence()) ctx.Fail(hydro, where + ".hydroelastic must be a list");
    for (size_t i = 0; i < hydro.size(); ++i) {
      const std::string w = fmt::format("{}.hydroelastic[{}]", where, i);
      ctx.CheckKeys(hydro[i], w, {"links", "contact_model", "hydroelastic_modulus", "resolution"});
      const YAML::Node links = hydro[i]["links"];
      if (!links.IsSequence() || links.size() == 0)
        ctx.Fail(hydro[i], w + ".links: a list of links");
      for (const YAML::Node& link : links) {
        if (!link.IsScalar()) ctx.Fail(link, w + ".links: each entry is a link's name");
        const std::string name = options.name_prefix + link.Scalar();
        bool found = false;
        for (size_t b = first_body; b < scene->bodies.size(); ++b) {
          if (scene->bodies[b].body.name != name) continue;
          found = true;
          for (GeometrySpec& g : scene->bodies[b].geometries)
            ParseHydroelastic(ctx, hydro[i], w, &g);
        }
        if (!found) ctx.Fail(link, fmt::format("{}.links: the robot has no link '{}'", w, name));
      }
    }
  }
}

// The camera frame C (CameraSpec: +z_C the view direction, +y_C down in the image) at
// `position` looking at `look_at`, with `up` pointing up in the image.
std::optional<Eigen::Isometry3d> LookAtPose(const Eigen::Vector3d& position,
                                            const Eigen::Vector3d& look_at,
                                            const Eigen::Vector3d& up) {
  const Eigen::Vector3d z = look_at - position;
  const Eigen::Vector3d x = z.cross(up);
  if (z.norm() < 1e-9 || x.norm() < 1e-9 * z.norm() * up.norm()) return std::nullopt;
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear().col(0) = x.normalized();
  X.linear().col(2) = z.normalized();
  X.linear().col(1) = X.linear().col(2).cross(X.linear().col(0));
  X.translation() = position;
  return X;
}

// One entry of `cameras`: name, optional body (position, look_at and up then in its frame),
// position, look_at, up (default +z), fov_deg (default 45).
CameraSpec ParseCamera(const Context& ctx, const YAML::Node& node, int index,
                       const SceneSpec& scene) {
  std::string where = fmt::format("cameras[{}]", index);
  ctx.CheckKeys(node, where, {"name", "body", "position", "look_at", "up", "fov_deg"});
  CameraSpec c;
  c.name = ctx.String(node, "name", "");
  if (c.name.empty()) ctx.Fail(node, where + " needs a name");
  where = fmt::format("camera '{}'", c.name);
  if (scene.FindCamera(c.name) >= 0) ctx.Fail(node["name"], where + ": name used twice");
  const std::string body = ctx.String(node, "body", "");
  if (!body.empty()) {
    c.body = scene.FindBody(body);
    if (c.body < 0) ctx.Fail(node["body"], fmt::format("{}.body: no body named '{}'", where, body));
  }
  for (const char* field : {"position", "look_at"}) {
    if (!node[field].IsDefined()) ctx.Fail(node, fmt::format("{} needs {}", where, field));
  }
  const Eigen::Vector3d position = ctx.Vec3(node, where, "position", Eigen::Vector3d::Zero());
  const Eigen::Vector3d look_at = ctx.Vec3(node, where, "look_at", Eigen::Vector3d::Zero());
  const Eigen::Vector3d up = ctx.Vec3(node, where, "up", Eigen::Vector3d::UnitZ());
  const std::optional<Eigen::Isometry3d> X_PC = LookAtPose(position, look_at, up);
  if (!X_PC) {
    ctx.Fail(node, where +
                       ": look_at must differ from position, and up must not point along "
                       "the view direction");
  }
  c.X_PC = *X_PC;
  const double fov_deg = ctx.Number(node, where, "fov_deg", 45.0);
  if (!(fov_deg > 0 && fov_deg < 180)) {
    ctx.Fail(node["fov_deg"],
             fmt::format("{}.fov_deg must be in (0, 180), got {}", where, fov_deg));
  }
  c.fov_y_rad = fov_deg * M_PI / 180.0;
  return c;
}

// A yaml-cpp conversion error the parsing above did not foresee (its own text, such as "bad
// conversion", names no field): the field is the key on the line it points at.
std::string DescribeWrongForm(const std::string& text, const std::string& source, int line) {
  std::istringstream lines(text);
  std::string content;
  for (int i = 0; i <= line && std::getline(lines, content); ++i) {
  }
  const size_t start = content.find_first_not_of(" -");
  const size_t colon = content.find(':', start == std::string::npos ? 0 : start);
  if (line < 0 || start == std::string::npos || colon == std::string::npos) {
    return fmt::format(
        "{}: a value has the wrong form (a list, mapping or text where something "
        "else is expected)",
        source);
  }
  return fmt::format(
      "{}:{}: field '{}' has the wrong form (a list, mapping or text where "
      "something else is expected)",
      source, line + 1, Printable(content.substr(start, colon - start)));
}

}  // namespace

namespace {

// `integrator`, `accuracy` and `dt_max` (docs/contact-model.md §1.1–§1.2): an accuracy or a
// δt_max alone asks for error control, and δt_max is then the settings' δt.
void ParseIntegrator(const Context& ctx, const YAML::Node& root, ContactSettings* settings) {
  const bool accuracy = root["accuracy"].IsDefined(), dt_max = root["dt_max"].IsDefined();
  if (root["integrator"].IsDefined()) {
    const std::string name = ctx.String(root, "integrator", "");
    const auto integrator = ParseTimeIntegration(name);
    if (!integrator) {
      ctx.Fail(root["integrator"],
               fmt::format("unknown integrator '{}' (symplectic_euler, implicit_euler, midpoint, "
                           "theta:θq,θv, error_controlled)",
                           name));
    }
    settings->integrator = *integrator;
    if ((accuracy || dt_max) && integrator->scheme != TimeIntegration::Scheme::kErrorControlled) {
      ctx.Fail(root[accuracy ? "accuracy" : "dt_max"],
               fmt::format("{} applies to integrator: error_controlled, not {}",
                           accuracy ? "accuracy" : "dt_max", name));
    }
  } else if (accuracy || dt_max) {
    settings->integrator = TimeIntegration::ErrorControlled(1e-3);
  }
  if (accuracy) {
    settings->integrator.accuracy =
        ctx.Positive(root, "scene", "accuracy", settings->integrator.accuracy);
  }
  if (dt_max) {
    if (root["dt"].IsDefined()) ctx.Fail(root["dt_max"], "dt and dt_max exclude each other");
    settings->dt_s = ctx.Bounded(root, "scene", "dt_max", settings->dt_s, scene_bounds::kTimeStep);
  }
}

// `contact_overrides`: values that replace every pair's combined property (docs/contact-model.md
// §6), as --stiffness and its kin do; what `contactlab calibrate` writes for a fitted value.
void ParseContactOverrides(const Context& ctx, const YAML::Node& root, ContactSettings* settings) {
  const YAML::Node node = root["contact_overrides"];
  if (!node.IsDefined()) return;
  if (!node.IsMap()) ctx.Fail(node, "contact_overrides must be a mapping");
  ctx.CheckKeys(node, "contact_overrides",
                {"stiffness", "hunt_crossley", "relaxation_time", "friction", "restitution"});
  const char* where = "contact_overrides";
  if (node["stiffness"].IsDefined()) {
    settings->stiffness_N_per_m = ctx.Positive(node, where, "stiffness", 0);
  }
  if (node["hunt_crossley"].IsDefined()) {
    settings->hunt_crossley_s_per_m = ctx.NonNegative(node, where, "hunt_crossley", 0);
  }
  if (node["relaxation_time"].IsDefined()) {
    settings->relaxation_time_s = ctx.NonNegative(node, where, "relaxation_time", 0);
  }
  if (node["friction"].IsDefined()) {
    settings->friction = ctx.NonNegative(node, where, "friction", 0);
  }
  if (node["restitution"].IsDefined()) {
    settings->restitution = ctx.Bounded(node, where, "restitution", 0, scene_bounds::kRestitution);
  }
}

// `contact_pairs`: pairs of bodies (named, after the bodies, robots and generators) with contact
// properties of their own, which replace the pair's combined values (docs/contact-model.md §6).
void ParseContactPairs(const Context& ctx, const YAML::Node& root, SceneSpec* scene) {
  const YAML::Node list = root["contact_pairs"];
  if (!list.IsDefined()) return;
  if (!list.IsSequence()) ctx.Fail(list, "contact_pairs must be a list");
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node node = list[i];
    const std::string where = fmt::format("contact_pairs[{}]", i);
    if (!node.IsMap()) ctx.Fail(node, where + " must be a mapping");
    ctx.CheckKeys(
        node, where,
        {"bodies", "stiffness", "hunt_crossley", "relaxation_time", "friction", "restitution"});
    const YAML::Node bodies = node["bodies"];
    if (!bodies.IsSequence() || bodies.size() != 2) {
      ctx.Fail(node, where + " needs bodies: [A, B]");
    }
    ContactPairSpec pair;
    int* ends[2] = {&pair.scene_body_a, &pair.scene_body_b};
    for (int k = 0; k < 2; ++k) {
      const std::string name = bodies[k].IsScalar() ? bodies[k].Scalar() : "";
      *ends[k] = scene->FindBody(name);
      if (*ends[k] < 0) ctx.Fail(bodies[k], fmt::format("{}: no body named '{}'", where, name));
    }
    if (node["stiffness"].IsDefined()) {
      pair.stiffness_N_per_m = ctx.Positive(node, where, "stiffness", 0);
    }
    if (node["hunt_crossley"].IsDefined()) {
      pair.hunt_crossley_s_per_m = ctx.NonNegative(node, where, "hunt_crossley", 0);
    }
    if (node["relaxation_time"].IsDefined()) {
      pair.relaxation_time_s = ctx.NonNegative(node, where, "relaxation_time", 0);
    }
    if (node["friction"].IsDefined()) pair.friction = ctx.NonNegative(node, where, "friction", 0);
    if (node["restitution"].IsDefined()) {
      pair.restitution = ctx.Bounded(node, where, "restitution", 0, scene_bounds::kRestitution);
    }
    scene->contact_pairs.push_back(pair);
  }
}

// The scene-wide keys: name, duration, gravity, margin and the contact settings it starts with.
void ParseSceneKeys(const Context& ctx, const YAML::Node& root, SceneSpec* scene) {
  scene->name = ctx.String(root, "scene", std::filesystem::path(ctx.source).stem().string());
  ContactSettings& settings = scene->contact_settings;
  settings.dt_s = ctx.Bounded(root, "scene", "dt", settings.dt_s, scene_bounds::kTimeStep);
  scene->duration_s =
      ctx.Bounded(root, "scene", "duration", scene->duration_s, scene_bounds::kDuration);
  const std::string model = ctx.String(root, "model", "lagged");
  const auto approximation = ParseContactApproximation(model);
  if (!approximation) {
    ctx.Fail(root["model"],
             fmt::format(
                 "unknown model '{}' (sap, lagged, similar, regularized_lagged, drumwright_shell)",
                 model));
  }
  settings.approximation = *approximation;
  scene->gravity_W =
      ctx.BoundedVec3(root, "scene", "gravity", scene->gravity_W, scene_bounds::kAcceleration);
  scene->contact_margin_m =
      ctx.NonNegative(root, "scene", "contact_margin", scene->contact_margin_m);
  settings.stiction_tolerance_m_per_s =
      ctx.Positive(root, "scene", "stiction_tolerance", settings.stiction_tolerance_m_per_s);
  settings.sap_sigma = ctx.Positive(root, "scene", "sigma", settings.sap_sigma);
  ParseContactOverrides(ctx, root, &settings);
  ParseIntegrator(ctx, root, &settings);
  // The older spelling of `model: regularized_lagged`.
  if (ctx.Bool(root, "regularized_lagged", false)) {
    if (settings.approximation != ContactApproximation::kLagged) {
      ctx.Fail(root["regularized_lagged"], "regularized_lagged: true needs model: lagged");
    }
    settings.approximation = ContactApproximation::kRegularizedLagged;
  }
}

// Each entry of the list `key` (if present) parsed by parse(entry, index).
template <typename ParseEntry>
void ParseList(const Context& ctx, const YAML::Node& root, const char* key, ParseEntry parse) {
  const YAML::Node list = root[key];
  if (!list.IsDefined()) return;
  if (!list.IsSequence()) ctx.Fail(list, fmt::format("{} must be a list", key));
  for (size_t i = 0; i < list.size(); ++i) parse(list[i], static_cast<int>(i));
}

// The bodies, robots and generators, each bounded in number, and the cameras.
void ParseBodiesAndCameras(const Context& ctx, const YAML::Node& root,
                           const ContactProperties& defaults, SceneSpec* scene) {
  const YAML::Node bodies = root["bodies"];
  if (bodies.IsDefined() && bodies.IsSequence() &&
      bodies.size() > static_cast<size_t>(scene_bounds::kMaxBodies)) {
    ctx.Fail(bodies, fmt::format("{} bodies: a scene may have at most {}", bodies.size(),
                                 scene_bounds::kMaxBodies));
  }
  ParseList(ctx, root, "bodies",
            [&](const YAML::Node& n, int i) { ParseBody(ctx, n, i, defaults, scene); });
  ParseList(ctx, root, "robots",
            [&](const YAML::Node& n, int i) { ParseRobot(ctx, n, i, defaults, scene); });
  ParseList(ctx, root, "generators",
            [&](const YAML::Node& n, int i) { ParseGenerator(ctx, n, i, defaults, scene); });
  if (scene->bodies.empty()) ctx.Fail(root, "the scene has no bodies");
  if (scene->bodies.size() > static_cast<size_t>(scene_bounds::kMaxBodies)) {
    ctx.Fail(root, fmt::format("{} bodies with the robots' links and the generators' objects: a "
                               "scene may have at most {}",
                               scene->bodies.size(), scene_bounds::kMaxBodies));
  }
  ParseList(ctx, root, "cameras", [&](const YAML::Node& n, int i) {
    scene->cameras.push_back(ParseCamera(ctx, n, i, *scene));
  });
}

}  // namespace

SceneSpec ParseScene(const std::string& text, const std::string& source) {
  Context ctx{source};
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw SceneError(
        fmt::format("{}:{}: malformed YAML: {}", source, e.mark.line + 1, Printable(e.msg)));
  }
  if (!root.IsMap()) throw SceneError(source + ": a scene file must be a YAML mapping");
  try {
    ctx.CheckKeys(root, "scene",
                  {"scene",
                   "description",
                   "dt",
                   "dt_max",
                   "integrator",
                   "accuracy",
                   "duration",
                   "model",
                   "gravity",
                   "contact_margin",
                   "stiction_tolerance",
                   "sigma",
                   "regularized_lagged",
                   "default_contact",
                   "contact_overrides",
                   "contact_pairs",
                   "bodies",
                   "generators",
                   "robots",
                   "cameras",
                   "constraints",
                   "held_object",
                   "teleop"});
    SceneSpec scene;
    scene.source = source;
    ParseSceneKeys(ctx, root, &scene);
    ContactProperties defaults;
    if (root["default_contact"].IsDefined()) {
      ctx.CheckKeys(root["default_contact"], "default_contact", kContactKeys);
      defaults = ParseContact(ctx, root["default_contact"], "default_contact", defaults);
    }
    ParseBodiesAndCameras(ctx, root, defaults, &scene);
    if (root["constraints"].IsDefined()) ParseConstraints(ctx, root["constraints"], &scene);
    ParseContactPairs(ctx, root, &scene);
    ParseSceneTask(ctx, root, &scene);
    try {
      ValidateScene(scene);
    } catch (const std::invalid_argument& e) {
      throw SceneError(e.what());
    }
    return scene;
  } catch (const YAML::Exception& e) {
    throw SceneError(DescribeWrongForm(text, source, e.mark.line));
  }
}

SceneSpec LoadSceneFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw SceneError(fmt::format("{}: cannot open the scene file", path));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return ParseScene(buffer.str(), path);
}

std::string ResolveScenePath(const std::string& name_or_path) {
  namespace fs = std::filesystem;
  if (fs::is_regular_file(name_or_path)) return name_or_path;
  const fs::path builtin = fs::path(AssetDirectory()) / "scenes" / (name_or_path + ".yaml");
  if (fs::is_regular_file(builtin)) return builtin.string();
  std::string names;
  if (fs::is_directory(fs::path(AssetDirectory()) / "scenes")) {
    std::vector<std::string> all;
    for (const auto& e : fs::directory_iterator(fs::path(AssetDirectory()) / "scenes")) {
      if (e.path().extension() == ".yaml") all.push_back(e.path().stem().string());
    }
    std::sort(all.begin(), all.end());
    for (const auto& n : all) names += (names.empty() ? "" : ", ") + n;
  }
  throw SceneError(
      fmt::format("scene '{}': no such file and no built-in scene of that name "
                  "(built-in: {})",
                  name_or_path, names));
}

}  // namespace contactlab
