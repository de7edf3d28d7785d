#include "python/actuation_bindings.h"

#include <pybind11/stl.h>
#include <spdlog/fmt/fmt.h>

#include <string>
#include <vector>

#include "python/body_bindings.h"

namespace contactlab {
namespace py = pybind11;

namespace {

std::vector<std::string> PdJoints(const World& world) {
  std::vector<std::string> names;
  for (size_t b = 0; b < world.inputs().pd.size(); ++b) {
    if (world.inputs().pd[b]) names.push_back(world.scene().bodies[b].body.name);
  }
  return names;
}

void SetPdTarget(World* world, const BodyArgument& body, double q_desired, double v_desired) {
  const int b = SceneBodyIndex(*world, body);
  // World::SetPdTarget refuses it too, without naming the body.
  if (!world->inputs().pd[b]) {
    throw py::value_error(
        fmt::format("body '{}' has no PD controller (World.pd_joints() lists those that have)",
                    world->scene().bodies[b].body.name));
  }
  world->SetPdTarget(b, q_desired, v_desired);
}

}  // namespace

void BindActuation(py::class_<World>* world) {
  world->def(
      "pd_joints", &PdJoints,
      R"doc(The bodies whose joint (a revolute or prismatic one) has a PD controller, by name in
scene order: those set_pd_target drives.
)doc");
  world->def(
      "set_pd_target", &SetPdTarget, py::arg("body"), py::arg("q_desired"),
      py::arg("v_desired") = 0.0,
      R"doc(Sets the targets of the PD controller on the body's joint from the next step on: the
position q_desired [rad or m] and the rate v_desired [rad/s or m/s]. The controller's torque or
force is −kp (q − q_desired) − kd (v − v_desired) + feed-forward, within its effort limit, implicit
in the step (docs/contact-model.md §3). reset() restores the scene's targets. Raises ValueError for
a body without a PD controller or a target that is not finite.
)doc");
}

}  // namespace contactlab
