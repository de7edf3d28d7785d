#include "io/scene_constraints.h"

#include <set>
#include <string>

namespace contactlab {
namespace {

using scene_yaml::Context;

// `body_a` / `body_b`: a body's name, or `world` (the default).
int ParseConstraintBody(const Context& ctx, const YAML::Node& node, const std::string& where,
                        const char* field, const SceneSpec& scene) {
  const std::string name = ctx.String(node, field, "world");
  if (name == "world") return -1;
  const int body = scene.FindBody(name);
  if (body < 0) ctx.Fail(node[field], fmt::format("{}.{}: no body named '{}'", where, field, name));
  return body;
}

// `stiffness_key` (a positive number or .inf, default .inf: rigid) and `relaxation_time`.
HolonomicCompliance ParseCompliance(const Context& ctx, const YAML::Node& node,
                                    const std::string& where, const char* stiffness_key) {
  HolonomicCompliance c;
  c.stiffness = ctx.Stiffness(node, where, stiffness_key, c.stiffness);
  c.relaxation_time_s = ctx.NonNegative(node, where, "relaxation_time", 0.0);
  return c;
}

// A frame on a body: {position, rpy_deg | quaternion}, identity when absent.
Eigen::Isometry3d ParseFrame(const Context& ctx, const YAML::Node& node, const std::string& where,
                             const char* field) {
  const YAML::Node frame = node[field];
  if (!frame.IsDefined() || frame.IsNull()) return Eigen::Isometry3d::Identity();
  const std::string w = where + "." + field;
  ctx.CheckKeys(frame, w, {"position", "rpy_deg", "quaternion"});
  return ctx.Pose(frame, w);
}

// What every kind has: its fields checked (with type, name, body_a and body_b), its name and its
// two bodies.
template <class Spec>
Spec ParsePair(const Context& ctx, const YAML::Node& node, const std::string& where,
               const std::string& name, const SceneSpec& scene, std::set<std::string> fields) {
  fields.insert({"type", "name", "body_a", "body_b"});
  ctx.CheckKeys(node, where, fields);
  Spec spec;
  spec.name = name;
  spec.body_a = ParseConstraintBody(ctx, node, where, "body_a", scene);
  spec.body_b = ParseConstraintBody(ctx, node, where, "body_b", scene);
  return spec;
}

CouplerSpec ParseCoupler(const Context& ctx, const YAML::Node& node, const std::string& where,
                         const std::string& name, const SceneSpec& scene) {
  auto c = ParsePair<CouplerSpec>(ctx, node, where, name, scene,
                                  {"gear_ratio", "offset", "stiffness", "relaxation_time"});
  c.parameters.gear_ratio = ctx.Number(node, where, "gear_ratio", 1.0);
  c.parameters.offset = ctx.Number(node, where, "offset", 0.0);
  c.parameters.compliance = ParseCompliance(ctx, node, where, "stiffness");
  return c;
}

DistanceSpec ParseDistance(const Context& ctx, const YAML::Node& node, const std::string& where,
                           const std::string& name, const SceneSpec& scene) {
  auto d =
      ParsePair<DistanceSpec>(ctx, node, where, name, scene,
                              {"point_a", "point_b", "distance", "stiffness", "relaxation_time"});
  d.p_AP =
      ctx.BoundedVec3(node, where, "point_a", Eigen::Vector3d::Zero(), scene_bounds::kPosition);
  d.p_BQ =
      ctx.BoundedVec3(node, where, "point_b", Eigen::Vector3d::Zero(), scene_bounds::kPosition);
  if (!node["distance"].IsDefined()) ctx.Fail(node, where + " needs distance: METRES");
  d.parameters.distance_m = ctx.Positive(node, where, "distance", 0.0);
  d.parameters.compliance = ParseCompliance(ctx, node, where, "stiffness");
  return d;
}

WeldSpec ParseWeld(const Context& ctx, const YAML::Node& node, const std::string& where,
                   const std::string& name, const SceneSpec& scene) {
  auto w = ParsePair<WeldSpec>(
      ctx, node, where, name, scene,
      {"frame_a", "frame_b", "stiffness", "rotational_stiffness", "relaxation_time"});
  w.X_AP = ParseFrame(ctx, node, where, "frame_a");
  w.X_BQ = ParseFrame(ctx, node, where, "frame_b");
  w.parameters.translation = ParseCompliance(ctx, node, where, "stiffness");
  w.parameters.rotation = ParseCompliance(ctx, node, where, "rotational_stiffness");
  return w;
}

void ParseConstraint(const Context& ctx, const YAML::Node& node, int index, SceneSpec* scene) {
  const std::string where = fmt::format("constraints[{}]", index);
  if (!node.IsMap()) ctx.Fail(node, where + " must be a mapping with a type");
  const std::string type = ctx.String(node, "type", "");
  const std::string name = ctx.String(node, "name", fmt::format("{}_{}", type, index));
  if (type == "coupler") {
    scene->couplers.push_back(ParseCoupler(ctx, node, where, name, *scene));
  } else if (type == "distance") {
    scene->distances.push_back(ParseDistance(ctx, node, where, name, *scene));
  } else if (type == "weld") {
    scene->welds.push_back(ParseWeld(ctx, node, where, name, *scene));
  } else {
    ctx.Fail(node, fmt::format("{}: unknown constraint type '{}' (coupler, distance, weld)", where,
                               type));
  }
}

}  // namespace

void ParseConstraints(const Context& ctx, const YAML::Node& list, SceneSpec* scene) {
  if (!list.IsSequence()) ctx.Fail(list, "constraints must be a list");
  for (size_t i = 0; i < list.size(); ++i) {
    ParseConstraint(ctx, list[i], static_cast<int>(i), scene);
  }
}

}  // namespace contactlab
