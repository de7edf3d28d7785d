#include "ui/panels/integrator_panel.h"

#include <imgui.h>

#include <array>
#include <iterator>
#include <string>
#include <utility>

#include "ui/panels/contact_model_panel.h"
#include "ui/widgets/widgets.h"

namespace contactlab {

namespace {

constexpr int kThetaIndex = 3, kErrorControlledIndex = 4;
constexpr float kStepPlotHeight = 90.0f;

void PostIntegrator(const TimeIntegration& integration, const Snapshot& snapshot, UiState* ui,
                    UiActions* actions) {
  ContactOverrides o;
  o.integrator = integration;
  PostContactChange(o, snapshot, ui, actions);
}

// The θ-method's weights, each in [0, 1] (§1.1): θ_q of the end velocity in the positions, θ_v
// of the end state where the non-contact forces are taken.
void ThetaSliders(TimeIntegration current, const Snapshot& snapshot, UiState* ui,
                  UiActions* actions) {
  float theta[2] = {static_cast<float>(current.theta_q), static_cast<float>(current.theta_v)};
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat2("##theta", theta, 0.0f, 1.0f, "%.2f")) {
    current.theta_q = theta[0];
    current.theta_v = theta[1];
    PostIntegrator(current, snapshot, ui, actions);
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("theta_q, theta_v: 1,1 implicit Euler; 0.5,0.5 midpoint (second order)");
  }
}

}  // namespace

int IntegratorIndex(const TimeIntegration& integration) {
  switch (integration.scheme) {
    case TimeIntegration::Scheme::kSymplecticEuler:
      return 0;
    case TimeIntegration::Scheme::kErrorControlled:
      return kErrorControlledIndex;
    case TimeIntegration::Scheme::kTheta:
      break;
  }
  // By the weights alone: the accuracy set rides along unused (IntegratorChoice keeps it).
  const auto weights = [](const TimeIntegration& t) { return std::pair(t.theta_q, t.theta_v); };
  if (weights(integration) == weights(TimeIntegration::ImplicitEuler())) return 1;
  if (weights(integration) == weights(TimeIntegration::Midpoint())) return 2;
  return kThetaIndex;
}

TimeIntegration IntegratorChoice(int index, const TimeIntegration& current) {
  TimeIntegration chosen;
  switch (index) {
    case 1:
      chosen = TimeIntegration::ImplicitEuler();
      break;
    case 2:
      chosen = TimeIntegration::Midpoint();
      break;
    case kThetaIndex:
      // A θ pair of its own is kept; from a named member (whose weights would show it again)
      // or another scheme, a pair between midpoint and implicit Euler.
      chosen = IntegratorIndex(current) == kThetaIndex ? current : TimeIntegration::Theta(0.5, 1.0);
      break;
    case kErrorControlledIndex:
      chosen = TimeIntegration::ErrorControlled(current.accuracy);  // accuracy set below
      break;
    default:
      break;
  }
  chosen.accuracy = current.accuracy;
  return chosen;
}

void IntegratorRows(const Snapshot& snapshot, UiState* ui, UiActions* actions) {
  const TimeIntegration current = ShownContactSettings(snapshot, ui).integrator;
  int index = IntegratorIndex(current);
  ImGui::TextUnformatted("integrator");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::Combo("##integrator", &index, kIntegratorLabels,
                   static_cast<int>(std::size(kIntegratorLabels)))) {
    PostIntegrator(IntegratorChoice(index, current), snapshot, ui, actions);
  }
  if (index == kThetaIndex) ThetaSliders(current, snapshot, ui, actions);
  if (index != kErrorControlledIndex) return;
  ImGui::TextUnformatted("accuracy [m, rad]");
  double accuracy = current.accuracy;
  ImGui::SetNextItemWidth(-1);
  if (LogSlider("accuracy", &accuracy, 1e-6, 1e-1, &ui->edit_value)) {
    TimeIntegration changed = current;
    changed.accuracy = accuracy;
    PostIntegrator(changed, snapshot, ui, actions);
  }
  ParameterTooltip(
      "bound on each step's position error (the step doubling's estimate); "
      "smaller: smaller steps where contact needs them",
      "");
}

void StepSizeReadout(const Snapshot& snapshot, UiState* ui) {
  StepSizeHistory& h = ui->step_sizes;
  const bool error_controlled =
      snapshot.contact_settings.integrator.scheme == TimeIntegration::Scheme::kErrorControlled;
  if (!error_controlled && h.rejected == 0) return;
  const StepStats& s = snapshot.stats;
  ImGui::Text("step %.3g s: %llu accepted, %llu rejected", s.dt_s,
              static_cast<unsigned long long>(h.accepted),
              static_cast<unsigned long long>(h.rejected));
  if (error_controlled) {
    const double asked = snapshot.contact_settings.integrator.accuracy;
    const bool over = s.error_estimate > asked;
    ImGui::TextColored(over ? kWarnColor : kDimColor, "error %.2e of %.2e asked", s.error_estimate,
                       asked);
    if (s.error_body >= 0 && s.error_body < static_cast<int>(snapshot.scene->bodies.size())) {
      ImGui::TextColored(kDimColor, "drove it: %s",
                         snapshot.scene->bodies[s.error_body].body.name.c_str());
    }
  }
  if (h.at_floor > 0) {
    ImGui::TextColored(kWarnColor, "%llu steps at the floor (error above the accuracy)",
                       static_cast<unsigned long long>(h.at_floor));
  }
  constexpr std::array<int, 3> kSeries = {kSeriesLog10StepSize, kSeriesLog10Error,
                                          kSeriesLog10Accuracy};
  PlotWidget("step_sizes", "log10: step [s], error, accuracy", h.plots, kSeries, h.window,
             kStepPlotHeight, &h.view);
}

}  // namespace contactlab
