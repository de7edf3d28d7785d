// The Python module contactlab (README.md, "Python"): a World loaded from a scene, stepped, set
// and read from a script, without the GUI. Each bound concept is a file pair of src/python/ that
// adds its methods to class World (and a class of its own to the module, as Sensitivity).
#include <pybind11/pybind11.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "python/actuation_bindings.h"
#include "python/body_bindings.h"
#include "python/contact_bindings.h"
#include "python/settings_bindings.h"
#include "python/step_derivatives_bindings.h"
#include "python/world_bindings.h"

PYBIND11_MODULE(contactlab, module) {
  using namespace contactlab;
  // The engine's messages (a step that did not converge) go to stderr as the command line's do
  // (src/main.cc): stdout stays the script's.
  spdlog::set_default_logger(spdlog::stderr_color_mt("contactlab"));
  spdlog::set_pattern("contactlab: %^%l%$: %v");
  module.doc() = R"doc(contactlab: the convex compliant contact simulator's World from Python.

    import contactlab
    w = contactlab.World("falling_sphere")   # a built-in scene, or a scene file's path
    w.step(100)
    p, quaternion = w.body_pose("sphere")

SI units throughout; every array returned is a new NumPy array, never a view of the World.
World.step_jacobians and class Sensitivity give the derivatives of a step and of a run.
)doc";
  pybind11::class_<World> world = BindWorld(&module);
  BindSettings(&world);
  BindActuation(&world);
  BindBodies(&world);
  BindContacts(&world);
  BindStepDerivatives(&module, &world);
}
