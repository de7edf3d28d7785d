#include "python/step_derivatives_bindings.h"

#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/world/step_derivatives.h"
#include "engine/world/trajectory_sensitivity.h"

namespace contactlab {
namespace py = pybind11;

namespace {

// The global parameters by set_overrides' keywords. restitution is among them so that the
// engine refuses it with its reason (the rigid model's) rather than as an unknown name.
constexpr std::pair<std::string_view, ContactParameter> kParameterNames[] = {
    {"stiffness", ContactParameter::kStiffness},
    {"hunt_crossley", ContactParameter::kHuntCrossley},
    {"relaxation_time", ContactParameter::kRelaxationTime},
    {"friction", ContactParameter::kFriction},
    {"stiction_tolerance", ContactParameter::kStictionTolerance},
    {"restitution", ContactParameter::kRestitution},
    {"hydroelastic_modulus", ContactParameter::kHydroelasticModulus}};

std::vector<ContactParameter> ParseParameters(const std::vector<std::string>& names) {
  std::vector<ContactParameter> parameters;
  for (const std::string& name : names) {
    const auto* found = std::find_if(std::begin(kParameterNames), std::end(kParameterNames),
                                     [&](const auto& entry) { return entry.first == name; });
    if (found == std::end(kParameterNames)) {
      throw py::value_error(
          fmt::format("unknown parameter '{}': derivatives are taken with respect to stiffness, "
                      "hunt_crossley, relaxation_time, friction, stiction_tolerance or "
                      "hydroelastic_modulus",
                      name));
    }
    parameters.push_back(found->second);
  }
  return parameters;
}

// StepDerivatives::Step throws std::invalid_argument (ValueError) before it steps, for a step it
// cannot differentiate or a parameter the settings do not hold.
py::dict StepJacobiansOf(World* world, const std::vector<std::string>& parameters) {
  StepDerivatives derivatives(world->model(), ParseParameters(parameters));
  if (!derivatives.Step(world)) throw std::runtime_error(derivatives.failure());
  StepJacobians J = derivatives.Jacobians();
  std::vector<std::string> pd_bodies;
  for (const int b : derivatives.pd_bodies()) {
    pd_bodies.push_back(world->scene().bodies[b].body.name);
  }
  // The matrices are moved into NumPy, not copied.
  py::dict out;
  out["dq_dq0"] = py::cast(std::move(J.dq1_dq0));
  out["dq_dv0"] = py::cast(std::move(J.dq1_dv0));
  out["dq_du"] = py::cast(std::move(J.dq1_du));
  out["dq_dp"] = py::cast(std::move(J.dq1_dp));
  out["dv_dq0"] = py::cast(std::move(J.dv1_dq0));
  out["dv_dv0"] = py::cast(std::move(J.dv1_dv0));
  out["dv_du"] = py::cast(std::move(J.dv1_du));
  out["dv_dp"] = py::cast(std::move(J.dv1_dp));
  out["pd_bodies"] = py::cast(pd_bodies);
  out["parameters"] = py::cast(parameters);
  return out;
}

// A TrajectorySensitivity and the World whose steps it carries S through. The Python object keeps
// the World alive (py::keep_alive), so the pointer, and the model S was sized for, stay valid.
class Sensitivity {
 public:
  Sensitivity(World* world, std::vector<std::string> parameters)
      : world_(world),
        sensitivity_(world->model(), ParseParameters(parameters)),
        parameters_(std::move(parameters)) {}

  bool Step(long long n) {
    if (n < 0) throw py::value_error(fmt::format("step: n must be >= 0, got {}", n));
    for (long long i = 0; i < n; ++i) {
      if (!sensitivity_.Step(world_)) return false;
      // Ctrl+C between two steps leaves S that of the world's state.
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    }
    return true;
  }
  void Reset() { sensitivity_.Reset(); }
  const std::string& failure() const { return sensitivity_.failure(); }
  // Copies: S is overwritten in place by the next step.
  Eigen::MatrixXd dq_dp() const { return sensitivity_.dq_dp(); }
  Eigen::MatrixXd dv_dp() const { return sensitivity_.dv_dp(); }
  const std::vector<std::string>& parameters() const { return parameters_; }

 private:
  World* world_;
  TrajectorySensitivity sensitivity_;
  std::vector<std::string> parameters_;
};

}  // namespace

void BindStepDerivatives(py::module_* module, py::class_<World>* world) {
  world->def(
      "step_jacobians", &StepJacobiansOf, py::arg("parameters") = std::vector<std::string>(),
      R"doc(Takes one step, as step() does, and returns its derivatives (docs/contact-model.md §9):
how the step's end (q₁, v₁) moves with its start (q₀, v₀), the PD targets u and the contact
parameters p, by the implicit function theorem at the step's solution. A dict of new arrays:

  dq_dq0, dq_dv0  (num_positions, num_positions), (num_positions, num_velocities)
  dv_dq0, dv_dv0  (num_velocities, num_positions), (num_velocities, num_velocities)
  dq_du, dv_du    (num_positions or num_velocities, 2 len(pd_bodies))
  dq_dp, dv_dp    (num_positions or num_velocities, len(parameters))
  pd_bodies       the bodies whose PD targets are u, by name in scene order: columns 2i and
                  2i + 1 of dq_du and dv_du are body i's q_desired and v_desired
  parameters      the parameters, in the order of dq_dp's and dv_dp's columns

A column of dq_dq0 or dv_dq0 is the derivative along one coordinate of q (each of a quaternion's
four entries on its own, not a rotation).

parameters names global contact parameters by set_overrides' keywords: 'stiffness',
'hunt_crossley', 'relaxation_time', 'friction' and 'stiction_tolerance'. Each but
stiction_tolerance must be overridden (set_overrides) so that one value replaces every contact
pair's own: the derivative is with respect to that value. Each column costs two rebuilt steps
(no solve).

Raises ValueError, before stepping, for an unknown parameter or one not overridden, under error
control (the state chooses the step's size) and for drumwright_shell (not a convex solve);
RuntimeError if the step failed (the state is kept; failure says why) or its Newton Hessian is not
positive definite (the step was taken).
)doc");

  py::class_<Sensitivity>(*module, "Sensitivity",
                          R"doc(Sensitivity(world, parameters): ∂q/∂p and ∂v/∂p along a
trajectory of the world, for global contact parameters p (docs/contact-model.md §9), carried
through each step it takes by the chain rule,

    S_{n+1} = ∂x_{n+1}/∂x_n · S_n + ∂x_{n+1}/∂p,   x = (q, v),   S = (dq_dp, dv_dp),

in (num_positions + num_velocities) × len(parameters) numbers however long the trajectory.
S starts at 0: the state it starts from is taken as independent of p. S follows only the steps
that step() takes: a world.step() in between is not differentiated.

parameters as World.step_jacobians takes them ('friction', ...; each but stiction_tolerance must
be overridden). The Sensitivity keeps its world alive.

    w = contactlab.World("incline")
    w.set_overrides(friction=0.2)                 # the value to differentiate at
    s = contactlab.Sensitivity(w, ["friction"])
    s.step(100)
    s.dq_dp[:3, 0]                                # ∂(the box's position)/∂μ [m]
)doc")
      .def(py::init<World*, std::vector<std::string>>(), py::arg("world").none(false),
           py::arg("parameters"), py::keep_alive<1, 2>())
      .def("step", &Sensitivity::Step, py::arg("n") = 1,
           R"doc(Takes n steps of the world and carries S through each. Returns True, or False
at the first step that failed (the state kept at the last good step) or has no derivatives (its
Newton Hessian not positive definite: the world has stepped, S is not its state's); failure says
why. Raises ValueError, before stepping, as World.step_jacobians does. Ctrl+C interrupts between
steps.
)doc")
      .def("reset", &Sensitivity::Reset,
           R"doc(S = 0: the world's current state starts a new trajectory (after world.reset() or
set_state). The world itself is left as it is.
)doc")
      .def_property_readonly(
          "dq_dp", &Sensitivity::dq_dp,
          "∂q/∂p at the world's state (num_positions, len(parameters)), a new array.")
      .def_property_readonly(
          "dv_dp", &Sensitivity::dv_dp,
          "∂v/∂p at the world's state (num_velocities, len(parameters)), a new array.")
      .def_property_readonly("parameters", &Sensitivity::parameters,
                             "The parameters, in the order of dq_dp's and dv_dp's columns.")
      .def_property_readonly("failure", &Sensitivity::failure,
                             "Why the last step failed ('' after a step that did not).");
}

}  // namespace contactlab
