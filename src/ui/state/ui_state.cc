#include "ui/state/ui_state.h"

#include <spdlog/spdlog.h>

#include <cmath>

namespace contactlab {

SceneDefaults ComputeSceneDefaults(const SceneSpec& scene) {
  SceneDefaults d;
  d.contact_settings = scene.contact_settings;
  bool found = false;
  for (const bool dynamic_only : {true, false}) {
    for (const SceneBody& body : scene.bodies) {
      if (dynamic_only && body.kind != SceneBody::Kind::kDynamic) continue;
      for (const GeometrySpec& g : body.geometries) {
        if (std::isfinite(g.contact.stiffness_N_per_m)) {
          d.contact = g.contact;
          found = true;
          break;
        }
      }
      if (found) break;
    }
    if (found) break;
  }
  return d;
}

std::vector<std::string> PlotSeriesNames() {
  return {
      "normal_force_N",    "friction_force_N", "slip_speed_m_per_s", "signed_distance_m",
      "iterations",        "step_ms",          "grip_force_N",       "slip_meter_log10_um_per_s",
      "barrier_iterations"};
}

void AddError(const std::string& message, UiState* ui) {
  if (!ui->errors.empty() && ui->errors.back() == message) return;
  spdlog::warn("{}", message);
  ui->errors.push_back(message);
  if (ui->errors.size() > 50) ui->errors.erase(ui->errors.begin());
}

}  // namespace contactlab
