#include "python/world_bindings.h"

#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>
#include <spdlog/fmt/fmt.h>

#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "app/command_line.h"
#include "io/printable_text.h"
#include "io/scene_loader.h"

namespace contactlab {
namespace py = pybind11;

namespace {

// The scene as `contactlab --headless --scene NAME_OR_PATH` loads it, so that names resolve the
// same way, and its World. What the command line calls bad input (exit code 2) is a ValueError
// with its one-line message; anything else stays the engine's exception.
std::unique_ptr<World> LoadWorld(const std::filesystem::path& scene_name_or_path) {
  SceneSpec scene;
  try {
    scene = LoadSceneFile(ResolveScenePath(scene_name_or_path.string()));
  } catch (const std::exception& e) {
    throw py::value_error(Printable(e.what(), kMaxErrorLineChars));
  }
  try {
    return std::make_unique<World>(scene);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(Printable(scene.source + ": " + e.what(), kMaxErrorLineChars));
  }
}

bool Step(World* world, long long n) {
  if (n < 0) throw py::value_error(fmt::format("step: n must be >= 0, got {}", n));
  for (long long i = 0; i < n; ++i) {
    if (!world->Step()) return false;
    // Ctrl+C ends a long call between two steps, so the state is always a whole step's.
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
  return true;
}

// World::SetState checks the sizes too; this names the array and the sizes for a script's user.
void CheckSize(const char* name, const Eigen::VectorXd& x, Eigen::Index size, const char* what) {
  if (x.size() != size) {
    throw py::value_error(fmt::format("set_state: {} has {} entries; the scene has {} {}", name,
                                      x.size(), size, what));
  }
}

void SetState(World* world, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
              std::optional<double> time_s) {
  CheckSize("q", q, world->q().size(), "positions");
  CheckSize("v", v, world->v().size(), "velocities");
  if (time_s) {
    world->SetState(q, v, *time_s);
  } else {
    world->SetState(q, v);
  }
}

std::string Repr(const World& world) {
  return fmt::format("<contactlab.World '{}': {} bodies, t = {} s>", world.scene().name,
                     world.scene().bodies.size(), world.time());
}

}  // namespace

py::class_<World> BindWorld(py::module_* module) {
  py::class_<World> world(
      *module, "World",
      R"doc(A simulated world: the scene compiled once, its settings and actuation, and its state.

World(scene) loads a built-in scene by name ("falling_sphere", assets/scenes/NAME.yaml) or a scene
file by path (str or os.PathLike), exactly as `contactlab --scene` does. A scene that cannot be
loaded raises ValueError with the loader's one-line message.

A World is not thread-safe: use each one from one thread at a time.
)doc");
  world.def(py::init(&LoadWorld), py::arg("scene"));
  world.def("step", &Step, py::arg("n") = 1,
            R"doc(Advances n time steps (World::Step). Returns True, or False at the first step that
failed (a non-finite or absurd state; `failure` says why), the state then left at the last good
step. A step that did not converge is logged and taken. Ctrl+C interrupts between steps.
)doc");
  world.def_property_readonly("failure", &World::failure,
                              "Why the last step failed ('' after a step that did not).");
  world.def(
      "reset", &World::Reset,
      R"doc(Restores the initial state, time and actuation (PD targets) exactly. The settings in
force (set_overrides) are kept, as a reset in the GUI keeps them.
)doc");
  world.def_property_readonly("time", &World::time, "The simulated time t [s].");
  world.def_property_readonly(
      "dt", &World::dt,
      R"doc(The time step δt [s] (under error control its largest step); set_overrides(dt=...)
changes it.
)doc");
  world.def_property_readonly(
      "approximation", [](const World& w) { return ContactApproximationName(w.approximation()); },
      "The contact model in force, by its command-line name ('sap', 'lagged', ...).");
  world.def_property_readonly(
      "num_positions", [](const World& w) { return w.q().size(); }, "The size of q.");
  world.def_property_readonly(
      "num_velocities", [](const World& w) { return w.v().size(); }, "The size of v.");
  // Copies, not views: a step swaps the World's state buffers with its scratch ones, so a view
  // taken before a step would show the scratch data after it.
  world.def_property_readonly(
      "q", [](const World& w) -> Eigen::VectorXd { return w.q(); },
      R"doc(The joint positions (num_positions,), a new array at each access: the dynamic bodies'
joints, tree by tree; a floating body's [p_PB (3) [m], quaternion w, x, y, z (4)] relative to its
parent (the world for a root body), a 1-dof joint's angle [rad] or offset [m].
)doc");
  world.def_property_readonly(
      "v", [](const World& w) -> Eigen::VectorXd { return w.v(); },
      R"doc(The joint velocities (num_velocities,), a new array at each access, in the order of q: a
floating body's [ω (3) [rad/s], v (3) [m/s]] of its frame relative to its parent and expressed in
the parent's frame, a 1-dof joint's rate.
)doc");
  world.def(
      "set_state", &SetState, py::arg("q"), py::arg("v"), py::arg("time") = py::none(),
      R"doc(Sets q and v (and the time t [s], if given; else it is kept). At a fixed step, the steps
that follow a state and time read earlier, with the same settings and targets, are bit for bit those
that followed then. Raises ValueError if a size is wrong or the time is not finite.
)doc");
  world.def("__repr__", &Repr);
  return world;
}

}  // namespace contactlab
