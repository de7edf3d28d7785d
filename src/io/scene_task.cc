#include "io/scene_task.h"

#include <spdlog/fmt/fmt.h>

#include <string>
#include <vector>

namespace contactlab {

namespace {

using scene_yaml::Context;

int NamedBody(const Context& ctx, const YAML::Node& map, const std::string& where,
              const std::string& field, const SceneSpec& scene) {
  if (!map[field].IsDefined()) ctx.Fail(map, fmt::format("{} needs '{}'", where, field));
  const std::string name = ctx.String(map, field, "");
  const int body = scene.FindBody(name);
  if (body < 0) ctx.Fail(map[field], fmt::format("{}.{}: no body named '{}'", where, field, name));
  return body;
}

HeldObjectSpec ParseHeldObject(const Context& ctx, const YAML::Node& node, const SceneSpec& scene) {
  ctx.CheckKeys(node, "held_object", {"body", "hand"});
  HeldObjectSpec held;
  held.body = NamedBody(ctx, node, "held_object", "body", scene);
  held.hand = NamedBody(ctx, node, "held_object", "hand", scene);
  if (held.body == held.hand) ctx.Fail(node, "held_object: body and hand are the same body");
  return held;
}

TeleopProgramSpec::SquareWave ParseSquareWave(const Context& ctx, const YAML::Node& node) {
  const std::string where = "teleop.grip_force.square_wave";
  ctx.CheckKeys(node, where, {"low", "high", "period", "duty"});
  for (const char* key : {"low", "high", "period", "duty"}) {
    if (!node[key].IsDefined()) ctx.Fail(node, fmt::format("{} needs '{}'", where, key));
  }
  TeleopProgramSpec::SquareWave wave;
  wave.low_N = ctx.Positive(node, where, "low", 0);
  wave.high_N = ctx.Positive(node, where, "high", 0);
  wave.period_s = ctx.Bounded(node, where, "period", 0, scene_bounds::kDuration);
  wave.duty = ctx.InRange(node["duty"], where + ".duty", ctx.Number(node["duty"], "duty"),
                          {0.0, 1.0, "(fraction of the period at the high force)"});
  return wave;
}

void ParseGripForce(const Context& ctx, const YAML::Node& node, TeleopProgramSpec* teleop) {
  if (node.IsScalar()) {
    teleop->grip_force_N = ctx.InRange(node, "teleop.grip_force",
                                       ctx.Number(node, "teleop.grip_force"), {1e-3, 1e4, "N"});
    return;
  }
  ctx.CheckKeys(node, "teleop.grip_force", {"square_wave"});
  if (!node["square_wave"].IsDefined()) {
    ctx.Fail(node, "teleop.grip_force: a force [N] or {square_wave: {low, high, period, duty}}");
  }
  teleop->grip_force_square_wave = ParseSquareWave(ctx, node["square_wave"]);
}

// teleop.joint_sines[i]: a 1-dof joint with a PD controller, its amplitude and angular frequency.
TeleopProgramSpec::JointSine ParseJointSine(const Context& ctx, const YAML::Node& node,
                                            const std::string& where, const SceneSpec& scene) {
  ctx.CheckKeys(node, where, {"joint", "amplitude", "angular_frequency"});
  for (const char* key : {"joint", "amplitude", "angular_frequency"}) {
    if (!node[key].IsDefined()) ctx.Fail(node, fmt::format("{} needs '{}'", where, key));
  }
  TeleopProgramSpec::JointSine sine;
  const std::string joint = ctx.String(node, "joint", "");
  sine.body = scene.FindJoint(joint);
  if (sine.body < 0) {
    ctx.Fail(node["joint"], fmt::format("{}.joint: no joint named '{}'", where, joint));
  }
  const SceneBody& b = scene.bodies[sine.body];
  const bool one_dof =
      b.body.joint == JointType::kRevolute || b.body.joint == JointType::kPrismatic;
  if (b.kind != SceneBody::Kind::kDynamic || !one_dof || !b.pd) {
    ctx.Fail(node["joint"], fmt::format("{}.joint: '{}' is not a revolute or prismatic joint "
                                        "with a PD controller",
                                        where, joint));
  }
  sine.amplitude = ctx.NonNegative(node, where, "amplitude", 0);
  ctx.InRange(node["amplitude"], where + ".amplitude", sine.amplitude, scene_bounds::kPosition);
  sine.angular_frequency_rad_per_s = ctx.NonNegative(node, where, "angular_frequency", 0);
  ctx.InRange(node["angular_frequency"], where + ".angular_frequency",
              sine.angular_frequency_rad_per_s, scene_bounds::kAngularFrequency);
  return sine;
}

std::vector<TeleopProgramSpec::JointSine> ParseJointSines(const Context& ctx,
                                                          const YAML::Node& node,
                                                          const SceneSpec& scene) {
  if (!node.IsSequence() || node.size() == 0) {
    ctx.Fail(node, "teleop.joint_sines: a list of {joint, amplitude, angular_frequency}");
  }
  std::vector<TeleopProgramSpec::JointSine> sines;
  for (size_t i = 0; i < node.size(); ++i) {
    const std::string where = fmt::format("teleop.joint_sines[{}]", i);
    sines.push_back(ParseJointSine(ctx, node[i], where, scene));
    for (size_t j = 0; j < i; ++j) {
      if (sines[j].body == sines[i].body) {
        ctx.Fail(node[i]["joint"], fmt::format("{}.joint: the same joint as entry {}", where, j));
      }
    }
  }
  return sines;
}

TeleopProgramSpec ParseTeleop(const Context& ctx, const YAML::Node& node, const SceneSpec& scene) {
  ctx.CheckKeys(node, "teleop", {"script", "circle", "joint_sines", "grip_force"});
  TeleopProgramSpec teleop;
  if (node["script"].IsDefined()) {
    teleop.script_path = ctx.ResolvePath(ctx.String(node, "script", ""));
  }
  if (const YAML::Node circle = node["circle"]; circle.IsDefined()) {
    if (node["script"].IsDefined()) ctx.Fail(circle, "teleop: a script or a circle, not both");
    ctx.CheckKeys(circle, "teleop.circle", {"radius", "frequency"});
    teleop.circle_radius_m =
        ctx.Bounded(circle, "teleop.circle", "radius", 0.03, scene_bounds::kLength);
    teleop.circle_frequency_Hz =
        ctx.Bounded(circle, "teleop.circle", "frequency", 1.0, scene_bounds::kFrequency);
  }
  if (const YAML::Node sines = node["joint_sines"]; sines.IsDefined()) {
    if (node["script"].IsDefined() || node["circle"].IsDefined()) {
      ctx.Fail(sines,
               "teleop.joint_sines: the joint program drives the arm alone, not with a "
               "script or a circle");
    }
    teleop.joint_sines = ParseJointSines(ctx, sines, scene);
  }
  if (node["grip_force"].IsDefined()) ParseGripForce(ctx, node["grip_force"], &teleop);
  return teleop;
}

}  // namespace

void ParseSceneTask(const Context& ctx, const YAML::Node& root, SceneSpec* scene) {
  if (root["held_object"].IsDefined()) {
    scene->held_object = ParseHeldObject(ctx, root["held_object"], *scene);
  }
  if (root["teleop"].IsDefined()) scene->teleop = ParseTeleop(ctx, root["teleop"], *scene);
}

}  // namespace contactlab
