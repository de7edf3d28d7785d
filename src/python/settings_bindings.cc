#include "python/settings_bindings.h"

#include <pybind11/stl.h>
#include <spdlog/fmt/fmt.h>

#include <optional>
#include <string>

namespace contactlab {
namespace py = pybind11;

namespace {

// The keywords are the scene file's keys (assets/scenes/README.md), as are settings' keys.
void SetOverrides(World* world, std::optional<double> stiffness,
                  std::optional<double> hunt_crossley, std::optional<double> relaxation_time,
                  std::optional<double> friction, std::optional<double> restitution,
                  std::optional<double> stiction_tolerance, std::optional<double> dt,
                  const std::optional<std::string>& model,
                  const std::optional<std::string>& integrator) {
  ContactOverrides o;
  o.stiffness_N_per_m = stiffness;
  o.hunt_crossley_s_per_m = hunt_crossley;
  o.relaxation_time_s = relaxation_time;
  o.friction = friction;
  o.restitution = restitution;
  o.stiction_tolerance_m_per_s = stiction_tolerance;
  o.dt_s = dt;
  if (model) {
    o.approximation = ParseContactApproximation(*model);
    if (!o.approximation) {
      throw py::value_error(fmt::format(
          "model must be sap, lagged, similar, regularized_lagged or drumwright_shell, got '{}'",
          *model));
    }
  }
  if (integrator) {
    o.integrator = ParseTimeIntegration(*integrator);
    if (!o.integrator) {
      throw py::value_error(fmt::format(
          "integrator must be symplectic_euler, implicit_euler, midpoint, theta:θq,θv or "
          "error_controlled, got '{}'",
          *integrator));
    }
  }
  world->SetOverrides(o);  // std::invalid_argument (ValueError) on a value out of range
}

py::dict Settings(const World& world) {
  const ContactSettings& s = world.contact_settings();
  py::dict settings;
  settings["dt"] = s.dt_s;
  settings["model"] = ContactApproximationName(s.approximation);
  settings["integrator"] = TimeIntegrationName(s.integrator);
  settings["stiction_tolerance"] = s.stiction_tolerance_m_per_s;
  settings["sigma"] = s.sap_sigma;
  settings["stiffness"] = s.stiffness_N_per_m;
  settings["hunt_crossley"] = s.hunt_crossley_s_per_m;
  settings["relaxation_time"] = s.relaxation_time_s;
  settings["friction"] = s.friction;
  settings["restitution"] = s.restitution;
  return settings;
}

}  // namespace

void BindSettings(py::class_<World>* world) {
  world->def(
      "set_overrides", &SetOverrides, py::kw_only(), py::arg("stiffness") = py::none(),
      py::arg("hunt_crossley") = py::none(), py::arg("relaxation_time") = py::none(),
      py::arg("friction") = py::none(), py::arg("restitution") = py::none(),
      py::arg("stiction_tolerance") = py::none(), py::arg("dt") = py::none(),
      py::arg("model") = py::none(), py::arg("integrator") = py::none(),
      R"doc(Changes the settings in force from the next step on, as the command-line options of the
same names do (--stiffness, --hunt-crossley, ...); a keyword left out (or None) keeps its value.

  stiffness           k [N/m] > 0, replacing every contact pair's
  hunt_crossley       Hunt & Crossley dissipation d [s/m] >= 0, every pair's (Lagged, Similar)
  relaxation_time     SAP's dissipation time scale τ_d [s] >= 0, every pair's
  friction            μ >= 0, every pair's
  restitution         ε in [0, 1], every pair's (drumwright_shell only)
  stiction_tolerance  v_s [m/s] > 0 (Lagged, Similar)
  dt                  the time step δt [s] > 0 (under error control its largest step)
  model               'sap', 'lagged', 'similar', 'regularized_lagged' or 'drumwright_shell'
  integrator          'symplectic_euler', 'implicit_euler', 'midpoint', 'theta:θq,θv' or
                      'error_controlled'

Raises ValueError, changing nothing, if a value is out of its range (the engine's message, which
names the command-line option) or a name is unknown. reset() keeps the settings.
)doc");
  world->def_property_readonly(
      "settings", &Settings,
      R"doc(The settings in force, a new dict: the keys of set_overrides, and 'sigma' (SAP's σ, the
scene's). 'stiffness', 'hunt_crossley', 'relaxation_time', 'friction' and 'restitution' are None
unless overridden: each contact pair then has its own, combined from its geometries'.
)doc");
}

}  // namespace contactlab
