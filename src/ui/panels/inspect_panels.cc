#include "ui/panels/inspect_panels.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <string>

#include "ui/panels/integrator_panel.h"
#include "ui/widgets/widgets.h"

namespace contactlab {

void SelectedBodyPanel(const Snapshot& snapshot, const InspectState& state) {
  const int b = state.selected_body;
  if (b < 0 || b >= static_cast<int>(snapshot.body_poses.size())) {
    // Wrapped: the window is as narrow as the camera inset above it (PlaceInspectWindow).
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("double-click a body to select it; Ctrl+drag pulls it");
    ImGui::PopStyleColor();
    return;
  }
  const SceneBody& body = snapshot.scene->bodies[b];
  ImGui::Text("%s  (%.4g kg)", body.body.name.c_str(), body.body.inertia.mass_kg);
  const Eigen::Isometry3d& X_WB = snapshot.body_poses[b];
  const Eigen::Vector3d p = X_WB.translation();
  const Eigen::Quaterniond q(X_WB.linear());
  const auto& V = snapshot.body_velocities[b];
  ImGui::Text("p_WB  %+.4f %+.4f %+.4f m", p.x(), p.y(), p.z());
  ImGui::Text("q_WB  %+.3f %+.3f %+.3f %+.3f", q.w(), q.x(), q.y(), q.z());
  ImGui::Text("v_WB  %+.4f %+.4f %+.4f m/s", V[3], V[4], V[5]);
  ImGui::Text("w_WB  %+.3f %+.3f %+.3f rad/s", V[0], V[1], V[2]);
  const Eigen::Vector3d fn = snapshot.net_normal_force[b], ft = snapshot.net_friction_force[b];
  ImGui::Text("contact force: normal %.3f N, friction %.3f N", fn.norm(), ft.norm());
  if (snapshot.perturbation.body == b) {
    ImGui::TextColored(ImVec4(0.9f, 0.25f, 0.9f, 1), "pulled with %.3f N",
                       snapshot.perturbation.f_W.norm());
  }
}

namespace {

// The ghost's integrator (docs/architecture.md §4, Ghost): the main run's, or another one (say
// fixed-step Lagged beside error-controlled Lagged).
void GhostIntegratorCombo(InspectState* state) {
  std::array<const char*, std::size(kIntegratorLabels) + 1> labels{"main run's integrator"};
  std::copy(std::begin(kIntegratorLabels), std::end(kIntegratorLabels), labels.begin() + 1);
  ImGui::SetNextItemWidth(ComboWidthFor(labels[0]));
  ImGui::Combo("integrator##ghost", &state->ghost_integrator, labels.data(),
               static_cast<int>(labels.size()));
}

}  // namespace

void GhostPanel(const Snapshot& snapshot, InspectState* state, UiActions* actions) {
  float combo_w = 0;  // the longest choice ("Regularized Lagged") in full
  for (const char* label : kApproximationLabels) combo_w = std::max(combo_w, ComboWidthFor(label));
  ImGui::SetNextItemWidth(combo_w);
  ImGui::Combo("approximation##ghost", &state->ghost_approximation, kApproximationLabels,
               std::size(kApproximationLabels));
  GhostIntegratorCombo(state);
  ImGui::Checkbox("friction", &state->ghost_friction_override);
  if (state->ghost_friction_override) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110);
    ImGui::SliderFloat("##ghost_mu", &state->ghost_friction, 0.0f, 1.5f, "mu = %.2f");
  }
  if (ImGui::Button(snapshot.ghost.active ? "Restart ghost" : "Start ghost")) {
    command::StartGhost start;
    start.overrides.approximation = kApproximationChoices[state->ghost_approximation];
    start.label = kApproximationLabels[state->ghost_approximation];
    if (state->ghost_integrator > 0) {
      start.overrides.integrator =
          IntegratorChoice(state->ghost_integrator - 1, snapshot.contact_settings.integrator);
      start.label += " " + TimeIntegrationName(*start.overrides.integrator);
    }
    if (state->ghost_friction_override) {
      start.overrides.friction = state->ghost_friction;
      start.label += " mu=" + std::to_string(state->ghost_friction).substr(0, 4);
    }
    actions->commands.emplace_back(std::move(start));
    state->ghost_plots.Clear();
  }
  if (snapshot.ghost.active) {
    ImGui::SameLine();
    if (ImGui::Button("Stop ghost")) actions->commands.emplace_back(command::StopGhost{});
    // Wrapped, as the lines below: the label may be long, the window narrow.
    if (!snapshot.ghost.ready) {
      ImGui::TextWrapped("ghost %s: building its world...", snapshot.ghost.label.c_str());
    } else if (snapshot.ghost.lag_s > 0.05) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.6f, 0.2f, 1));
      ImGui::TextWrapped("ghost %s cannot keep up: %.2f s behind", snapshot.ghost.label.c_str(),
                         snapshot.ghost.lag_s);
      ImGui::PopStyleColor();
    } else {
      ImGui::TextWrapped("ghost %s keeping up (%.3f s behind)", snapshot.ghost.label.c_str(),
                         snapshot.ghost.lag_s);
    }
    static constexpr int kPosition[] = {kGhostPositionDifference};
    static constexpr int kForceSlip[] = {kGhostNormalForceDifference, kGhostSlipSpeedDifference};
    PlotWidget("ghost_dp", "ghost - main: |dp| of the selected body [m]", state->ghost_plots,
               kPosition, state->ghost_window, 90, &state->ghost_views[0]);
    PlotWidget("ghost_df", "ghost - main: normal force [N], slip speed [m/s]", state->ghost_plots,
               kForceSlip, state->ghost_window, 90, &state->ghost_views[1]);
  } else if (!snapshot.ghost.stopped_reason.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.4f, 0.4f, 1));
    ImGui::TextWrapped("ghost stopped: %s", snapshot.ghost.stopped_reason.c_str());
    ImGui::PopStyleColor();
  }
}

void TimelinePanel(const Snapshot& snapshot, UiActions* actions) {
  const TimelineView& t = snapshot.timeline;
  if (t.records == 0) {
    ImGui::TextDisabled("no history yet");
    return;
  }
  float shown = static_cast<float>(snapshot.time_s);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##timeline", &shown, static_cast<float>(t.oldest_s),
                         static_cast<float>(t.newest_s), "t = %.3f s")) {
    // The step ending nearest the time asked: half a step back, by the last step's own size
    // (steps vary under error control, docs/contact-model.md §1.2).
    actions->commands.emplace_back(
        command::ShowTime{static_cast<double>(shown) - 0.5 * snapshot.stats.dt_s});
  }
  if (ImGui::ArrowButton("##back", ImGuiDir_Left)) {
    actions->commands.emplace_back(command::StepTimeline{-1});
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##forward", ImGuiDir_Right)) {
    actions->commands.emplace_back(command::StepTimeline{+1});
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!t.viewing);
  if (ImGui::Button("Branch here")) {
    actions->commands.emplace_back(command::Branch{});
    actions->commands.emplace_back(command::Resume{});
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::TextDisabled("(, and . step)");
  ImGui::Text("%s; history %.1f s, %.1f MB", t.viewing ? "showing a recorded step" : "live",
              t.newest_s - t.oldest_s, t.memory_MB);
  if (t.replay_steps_left > 0) {
    ImGui::Text("branch: replaying recorded inputs, %d steps left", t.replay_steps_left);
  }
}

InspectPlacement PlaceInspectWindow(float display_w, float display_h, float plots_h,
                                    const std::optional<InsetRect>& inset) {
  constexpr float kMargin = 10.0f, kMinHeight = 120.0f;
  InspectPlacement p;
  p.w = std::min(inset ? std::clamp(inset->w, 320.0f, 420.0f) : 400.0f, display_w - 2 * kMargin);
  p.x = display_w - kMargin - p.w;
  p.y = inset ? inset->y + inset->h + kMargin : kMargin;
  p.h = std::max(display_h - plots_h - kMargin - p.y, kMinHeight);
  return p;
}

void InspectWindow(const Snapshot& snapshot, const InspectPlacement& place, InspectState* state,
                   UiActions* actions) {
  if (state->folded) {
    ImGui::SetNextWindowPos(ImVec2(place.x, place.y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(place.w, place.h), ImGuiCond_Always);
  }
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  const bool open = ImGui::Begin("Inspect");
  state->folded = ImGui::IsWindowCollapsed();
  if (open) {
    if (ImGui::CollapsingHeader("Selected body", ImGuiTreeNodeFlags_DefaultOpen)) {
      SelectedBodyPanel(snapshot, *state);
    }
    if (ImGui::CollapsingHeader("Timeline", ImGuiTreeNodeFlags_DefaultOpen)) {
      TimelinePanel(snapshot, actions);
    }
    if (ImGui::CollapsingHeader("Ghost", ImGuiTreeNodeFlags_DefaultOpen)) {
      GhostPanel(snapshot, state, actions);
    }
  }
  ImGui::End();
}

}  // namespace contactlab
