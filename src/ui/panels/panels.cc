#include "ui/panels/panels.h"

#include <imgui.h>

#include <algorithm>
#include <span>
#include <string>

#include "render/render_layers.h"
#include "ui/panels/calibrate_panel.h"
#include "ui/panels/contact_model_panel.h"
#include "ui/panels/contact_panel.h"
#include "ui/panels/contact_view_panel.h"
#include "ui/panels/exports.h"
#include "ui/panels/files_panel.h"
#include "ui/panels/hydroelastic_panel.h"
#include "ui/panels/integrator_panel.h"
#include "ui/panels/recording_panel.h"
#include "ui/panels/shortcuts.h"
#include "ui/panels/slip_meter_panel.h"
#include "ui/panels/teleop_panel.h"
#include "ui/view/camera_views.h"
#include "ui/widgets/contact_color_bar.h"
#include "ui/widgets/pressure_color_bar.h"
#include "ui/widgets/widgets.h"

namespace contactlab {

namespace {

const char* BodyName(const Snapshot& s, int b) {
  if (!s.scene || b < 0 || b >= static_cast<int>(s.scene->bodies.size())) return "(none)";
  return s.scene->bodies[b].body.name.c_str();
}

}  // namespace

PanelLayout ComputePanelLayout(float display_w, float display_h, bool show_panels) {
  PanelLayout l;
  if (!show_panels) return l;
  l.sidebar_w = std::clamp(display_w * 0.3f, std::min(245.0f, display_w * 0.5f), 340.0f);
  l.plots_h = std::clamp(display_h * 0.36f, std::min(170.0f, display_h * 0.5f), 380.0f);
  return l;
}

namespace {

void StartConvergenceCount(uint64_t run, UiState* ui) {
  ui->convergence_run = run;
  ui->nonconverged_seen = 0;
  ui->last_nonconverged_time_s = -1;
}

}  // namespace

void CountConvergence(const std::vector<PlotSample>& samples, UiState* ui) {
  for (const PlotSample& s : samples) {
    if (s.run < ui->convergence_run) continue;  // before a reset the UI has already seen
    if (s.run > ui->convergence_run) StartConvergenceCount(s.run, ui);
    if (!s.converged) {
      ++ui->nonconverged_seen;
      ui->last_nonconverged_time_s = s.time_s;
    }
  }
}

void TrackConvergence(const Snapshot& snapshot, UiState* ui) {
  if (snapshot.run > ui->convergence_run) StartConvergenceCount(snapshot.run, ui);
}

namespace {

void RunButtons(const Snapshot& snapshot, UiActions* actions) {
  if (ImGui::Button(snapshot.paused ? "  Play  " : " Pause  ")) {
    if (snapshot.paused) {
      actions->commands.push_back(command::Resume{});
    } else {
      actions->commands.push_back(command::Pause{});
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Step")) {
    if (!snapshot.paused) actions->commands.push_back(command::Pause{});
    actions->commands.push_back(command::StepOnce{});
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset")) actions->commands.push_back(command::Reset{});
  if (snapshot.paused) {
    ImGui::SameLine();
    ImGui::TextColored(kWarnColor, "paused");
  }
}

// The target real-time factor (or as fast as possible), and the achieved one.
void RealtimeFactorRows(const Snapshot& snapshot, UiState* ui, UiActions* actions) {
  ImGui::TextUnformatted("target real-time factor");
  if (ui->as_fast_as_possible) ImGui::BeginDisabled();
  ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x - 70.0f));
  bool changed = ImGui::SliderFloat("##rtf", &ui->target_realtime_factor, 0.01f, 100.0f, "%.3gx",
                                    ImGuiSliderFlags_Logarithmic);
  if (ui->as_fast_as_possible) ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("1x")) {
    ui->target_realtime_factor = 1.0f;
    ui->as_fast_as_possible = false;
    changed = true;
  }
  changed |= ImGui::Checkbox("as fast as possible", &ui->as_fast_as_possible);
  if (changed && ui->target_realtime_factor > 0) {
    actions->commands.push_back(command::SetRealtimeFactor{
        ui->as_fast_as_possible ? 0.0 : static_cast<double>(ui->target_realtime_factor)});
  }
  const double target = snapshot.target_realtime_factor;
  const bool behind =
      target > 0 && !snapshot.paused && snapshot.achieved_realtime_factor < 0.9 * target;
  ImGui::TextColored(behind ? kWarnColor : ImGui::GetStyle().Colors[ImGuiCol_Text],
                     "achieved %.3gx%s", snapshot.achieved_realtime_factor,
                     behind ? "  (solver can't keep up)" : "");
}

// The built-in scenes, or a path to a scene file.
void ScenePicker(UiState* ui, UiActions* actions) {
  ImGui::TextUnformatted("scene");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##scene", ui->current_scene.c_str())) {
    for (const std::string& s : ui->builtin_scenes) {
      if (ImGui::Selectable(s.c_str(), s == ui->current_scene)) actions->load_scene = s;
    }
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x - 50.0f));
  const bool enter =
      ImGui::InputTextWithHint("##path", "path/to/scene.yaml", ui->scene_path,
                               sizeof ui->scene_path, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button("Load") || enter) && ui->scene_path[0] != '\0') {
    actions->load_scene = std::string(ui->scene_path);
  }
}

}  // namespace

void SimulationPanel(const Snapshot& snapshot, UiState* ui, UiActions* actions) {
  const char* name = snapshot.scene ? snapshot.scene->name.c_str() : "?";
  ImGui::Text("%s   t = %.3f s   step %llu", name, snapshot.time_s,
              static_cast<unsigned long long>(snapshot.step_index));
  RunButtons(snapshot, actions);
  TimeStepRow(snapshot, ui, actions);
  RealtimeFactorRows(snapshot, ui, actions);
  ImGui::Separator();
  ScenePicker(ui, actions);
}

namespace {

// The Newton Hessian's factorization (docs/contact-model.md §4, "Sparsity").
const char* FactorizationLabel(LinearSolverType type) {
  switch (type) {
    case LinearSolverType::kBlockSparse:
      return "tree-block Cholesky";
    case LinearSolverType::kSupernodal:
      return "CHOLMOD";
    default:
      return "dense LLT";
  }
}

// Automatic (ui/state/auto_quality.h: lowered below 30 fps) or one level fixed; on a row of its
// own under its label, so that "auto: MSAA 4x, soft shadows 1024x1024" shows in full.
void RenderQualityCombo(AutoQuality* q) {
  const std::string current = (q->automatic() ? "auto: " : "") + QualityLabel(q->quality());
  ImGui::TextUnformatted("render quality");
  ImGui::SetNextItemWidth(
      std::max(ImGui::GetContentRegionAvail().x, ComboWidthFor(current.c_str())));
  if (ImGui::BeginCombo("##quality", current.c_str())) {
    if (ImGui::Selectable("auto (lowered below 30 fps)", q->automatic())) q->SetAutomatic(true);
    for (int level = 0; level < q->num_levels(); ++level) {
      const std::string label = QualityLabel(q->quality(level));
      if (ImGui::Selectable(label.c_str(), !q->automatic() && q->level() == level)) {
        q->SetLevel(level);
      }
    }
    ImGui::EndCombo();
  }
}

// The rigid stage of the shown step (docs/contact-model.md §8, StepStats::rigid): the contacts
// given an impulse, the passes that added contacts the impulses drove in, phase 1's rank (of
// A_N, below the contacts' count on a rank-deficient set such as four coplanar corners) and
// residual, the barrier's iterations and final duality gap, and whether the least-squares
// polish was taken (a sticking contact then sticks exactly).
void RigidStageRows(const RigidContactStats& r) {
  ImGui::TextUnformatted("rigid stage (Drumwright & Shell):");
  if (r.passes == 0) {
    ImGui::TextColored(kDimColor, "no contact acting this step");
    return;
  }
  const DrumwrightShellStats& d = r.solver;
  ImGui::Text("contacts acting %d   passes %d", r.num_active, r.passes);
  ImGui::Text("phase 1: rank %d of %d, res %.2e m/s", d.phase1_rank, d.num_contacts,
              d.phase1_residual);
  ImGui::Text("barrier: outer %d, inner %d, gap %.1e", d.outer_iterations, d.inner_iterations,
              d.duality_gap);
  ImGui::Text("friction res %.2e m/s%s", d.tangential_residual,
              d.least_squares ? ", polished" : "");
  if (!d.converged) ImGui::TextColored(kWarnColor, "phase 2 did not reach its gap");
}

}  // namespace

void SolverPanel(const Snapshot& snapshot, UiState* ui) {
  const StepStats& s = snapshot.stats;
  const bool error_controlled =
      snapshot.contact_settings.integrator.scheme == TimeIntegration::Scheme::kErrorControlled;
  // Under the rigid model the convex problem has no contact potential (RigidContact): its solve
  // gives the velocities with PD controllers, limits and couplers only, and no contact is set
  // aside as out of reach (docs/contact-model.md §8); the contacts are the rigid stage's.
  const bool rigid = IsRigidModel(snapshot.contact_settings.approximation);
  ImGui::Text("model %s, %s %.3g s",
              ContactApproximationName(snapshot.contact_settings.approximation),
              error_controlled ? "dt_max" : "dt", snapshot.contact_settings.dt_s);
  if (rigid) ImGui::TextColored(kDimColor, "convex solve without contact:");
  ImGui::Text("iterations %d   residual %.2e", s.iterations, s.residual);
  ImGui::Text("step %.3f ms (geometry %.3f, solve %.3f)", s.total_ms, s.geometry_ms, s.solve_ms);
  ImGui::Text("contacts %d   constraints %d", s.num_contacts, s.num_constraints);
  // docs/contact-model.md §4.3: margin contacts whose gap cannot close this step wait outside.
  if (!rigid) ImGui::Text("out of reach %d   solves %d", s.num_out_of_reach, s.num_solves);
  ImGui::Text("Newton system: %s", FactorizationLabel(s.linear_solver_used));
  if (rigid) RigidStageRows(s.rigid);
  if (ui->nonconverged_seen > 0) {
    ImGui::TextColored(kWarnColor, "not converged: %d steps, last at t = %.3f s",
                       ui->nonconverged_seen, ui->last_nonconverged_time_s);
  } else if (!snapshot.all_converged_since_reset) {
    ImGui::TextColored(kWarnColor, "some steps did not converge since the reset");
  } else {
    ImGui::TextColored(kDimColor, "all steps converged");
  }
  const FrameTimer::Stats& f = ui->frame_stats;
  ImGui::Separator();
  ImGui::Text("render %.0f fps, frame %.2f ms (max %.1f)", f.fps, f.mean_frame_ms, f.max_frame_ms);
  ImGui::Text("our code %.2f ms CPU/frame (max %.1f)", f.mean_work_ms, f.max_work_ms);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("CPU time from frame start to just before the buffer swap");
  }
  RenderQualityCombo(&ui->render_quality);
}

void LayersPanel(const Snapshot& snapshot, UiState* ui, UiActions* actions) {
  RenderLayers& l = ui->layers;
  ImGui::Checkbox("bodies", &l.bodies);
  ImGui::SameLine(120);
  ImGui::Checkbox("grid", &l.grid);
  ImGui::SameLine(200);
  ImGui::Checkbox("shadows", &l.shadows);
  if (snapshot.alignment.active) {
    ImGui::Checkbox("alignment aids", &l.alignment);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("the peg's axis to the hole, the hole's rim, HUD");
  }
  if (snapshot.contact_settings.integrator.scheme == TimeIntegration::Scheme::kErrorControlled) {
    ImGui::Checkbox("step error", &l.step_error);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("bodies tinted red by their share of the step's error estimate");
    }
  }
  ImGui::Checkbox("contact points", &l.contact_points);
  ImGui::SameLine(200);
  ImGui::Checkbox("body frames", &l.body_frames);
  ImGui::Checkbox("visual geometry (else collision)", &l.visual_geometry);
  ImGui::Checkbox("see-through static", &l.see_through_static);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("static geometry in front of moving bodies (bin walls) is drawn see-through");
  }
  if (l.see_through_static) {
    ImGui::SameLine(200);
    ImGui::SetNextItemWidth(std::max(40.0f, ImGui::GetContentRegionAvail().x));
    ImGui::SliderFloat("##alpha", &l.see_through_alpha, 0.0f, 1.0f, "opacity %.2f");
  }
  ImGui::Separator();
  ContactViewPanel(ui);
  ImGui::Separator();
  ImGui::TextUnformatted("camera");
  if (snapshot.scene && !snapshot.scene->cameras.empty()) {
    CameraViewsPanel(*snapshot.scene, &ui->views);  // the presets below free the camera
  }
  for (const CameraPreset p :
       {CameraPreset::kFront, CameraPreset::kSide, CameraPreset::kTop, CameraPreset::kIso}) {
    if (ImGui::Button(CameraPresetName(p))) actions->camera_preset = p;
    ImGui::SameLine();
  }
  if (ImGui::Button("frame all")) actions->frame_scene = true;
  ImGui::SameLine();
  ImGui::Checkbox("auto", &ui->auto_frame);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("keep the moving bodies framed (off once the mouse moves the camera)");
  }
  bool follow = ui->camera.follow_body >= 0;
  if (ImGui::Checkbox("follow", &follow)) {
    ui->camera.follow_body = follow ? ui->plot_body : -1;
    if (follow) ui->views.main = -1;  // following is the free camera's
  }
  ImGui::SameLine();
  ImGui::TextColored(kDimColor, "%s",
                     follow ? BodyName(snapshot, ui->camera.follow_body) : "(the plot body)");
  if (ImGui::Button("Reload shaders")) actions->reload_shaders = true;
}

void FollowTimeline(const Snapshot& snapshot, PlotTimeWindow* window) {
  window->cursor_s.reset();
  if (snapshot.timeline.viewing) window->cursor_s = snapshot.time_s;
}

void PlotsPanel(const Snapshot& snapshot, const PlotData& plots, UiState* ui, UiActions* actions) {
  FollowTimeline(snapshot, &ui->plot_window);
  ImGui::SetNextItemWidth(160);
  if (ImGui::BeginCombo("body", BodyName(snapshot, ui->plot_body))) {
    const int n = snapshot.scene ? static_cast<int>(snapshot.scene->bodies.size()) : 0;
    for (int b = 0; b < n; ++b) {
      if (ImGui::Selectable(BodyName(snapshot, b), b == ui->plot_body)) {
        ui->plot_body = b;
        actions->commands.push_back(command::SelectPlotBody{b});
        if (ui->camera.follow_body >= 0) ui->camera.follow_body = b;
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (PlotToolbar(plots, &ui->plot_window, ui->csv_path, sizeof ui->csv_path,
                  kPlotPngControlsWidth)) {
    actions->export_csv = true;
  }
  ImGui::SameLine();
  static constexpr const char* kPlotNames[kNumPlots] = {"forces", "slip", "distance", "solver"};
  PlotPngControls(kPlotNames, kNumPlots, &ui->contacts, actions);

  // The grip (finger) force next to the held object's forces in teleoperation only.
  static constexpr int kForces[] = {kSeriesNormalForce, kSeriesFrictionForce, kSeriesGripForce};
  static constexpr int kSlip[] = {kSeriesSlipSpeed};
  static constexpr int kDistance[] = {kSeriesSignedDistance};
  // Under the rigid model the Newton iterations are those of the convex solve without contact
  // (docs/contact-model.md §8); the contacts' work is the rigid stage's barrier steps.
  static constexpr int kSolver[] = {kSeriesIterations, kSeriesStepMs};
  static constexpr int kRigidSolver[] = {kSeriesBarrierIterations, kSeriesStepMs};
  const bool rigid = IsRigidModel(snapshot.contact_settings.approximation);
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  const float h = std::max(60.0f, (ImGui::GetContentRegionAvail().y - spacing) * 0.5f);
  if (ImGui::BeginTable("plots", 2, ImGuiTableFlags_SizingStretchSame)) {
    ImGui::TableNextColumn();
    PlotWidget("forces", "contact force [N]", plots,
               std::span<const int>(kForces).first(snapshot.teleop.active ? 3 : 2), ui->plot_window,
               h, &ui->plot_views[0]);
    ImGui::TableNextColumn();
    PlotWidget("slip", "slip speed, strongest contact [m/s]", plots, kSlip, ui->plot_window, h,
               &ui->plot_views[1]);
    ImGui::TableNextColumn();
    PlotWidget("distance", "signed distance [m]", plots, kDistance, ui->plot_window, h,
               &ui->plot_views[2]);
    ImGui::TableNextColumn();
    PlotWidget("solver", rigid ? "solver (rigid stage)" : "solver", plots,
               rigid ? std::span<const int>(kRigidSolver) : std::span<const int>(kSolver),
               ui->plot_window, h, &ui->plot_views[3]);
    ImGui::EndTable();
  }
}

void HelpWindow(UiState* ui) {
  if (!ui->show_help) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(
      ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.4f),
      ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (ImGui::Begin("Help", &ui->show_help,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
    ImGui::TextUnformatted("contactlab: convex compliant contact, live");
    if (ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      for (const Shortcut& s : Shortcuts()) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(s.keys);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(s.action);
      }
      ImGui::EndTable();
    }
    ImGui::TextColored(kDimColor,
                       "Sliders: ctrl+click (log sliders: right-click) to type a value.");
  }
  ImGui::End();
}

void ErrorBanner(float display_w, UiState* ui) {
  if (ui->errors.empty()) return;
  const float w = std::min(display_w - 20.0f, 720.0f);
  ImGui::SetNextWindowPos(ImVec2(display_w * 0.5f, 8.0f), ImGuiCond_Always, ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowSize(ImVec2(w, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.95f);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(150, 25, 25, 240));
  ImGui::PushStyleColor(ImGuiCol_Border, IM_COL32(255, 90, 90, 255));
  ImGui::PushStyleColor(ImGuiCol_Button, IM_COL32(200, 60, 60, 255));
  if (ImGui::Begin("##errors", nullptr,
                   ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                       ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                       ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoFocusOnAppearing)) {
    constexpr size_t kShown = 5;
    const size_t first = ui->errors.size() > kShown ? ui->errors.size() - kShown : 0;
    if (first > 0) ImGui::Text("(%zu earlier errors)", first);
    ImGui::PushTextWrapPos(w - 16.0f);
    for (size_t i = first; i < ui->errors.size(); ++i) {
      ImGui::TextUnformatted(("error: " + ui->errors[i]).c_str());
    }
    ImGui::PopTextWrapPos();
    if (ImGui::Button("Dismiss (Esc)")) ui->errors.clear();
  }
  ImGui::End();
  ImGui::PopStyleColor(3);
}

void DrawUi(const Snapshot& snapshot, const PlotData& plots, float display_w, float display_h,
            UiState* ui, UiActions* actions) {
  TrackConvergence(snapshot, ui);
  const PanelLayout layout = ComputePanelLayout(display_w, display_h, ui->show_panels);
  if (ui->show_panels) {
    const float sidebar_w = layout.sidebar_w, plots_h = layout.plots_h;
    constexpr ImGuiWindowFlags kDocked =
        ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings;
    ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(sidebar_w, display_h), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.88f);
    if (ImGui::Begin("contactlab", nullptr, kDocked | ImGuiWindowFlags_NoCollapse)) {
      if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) {
        SimulationPanel(snapshot, ui, actions);
      }
      if (ImGui::CollapsingHeader("Contact model", ImGuiTreeNodeFlags_DefaultOpen)) {
        ContactModelPanel(snapshot, ui, actions);
      }
      if (HasHydroelasticShapes(snapshot) && ImGui::CollapsingHeader("Hydroelastic")) {
        HydroelasticPanel(snapshot, ui, actions);
      }
      if (ImGui::CollapsingHeader("Solver", ImGuiTreeNodeFlags_DefaultOpen)) {
        IntegratorRows(snapshot, ui, actions);
        SolverPanel(snapshot, ui);
        StepSizeReadout(snapshot, ui);
      }
      if (ui->contacts.pinned.active) ImGui::SetNextItemOpen(true, ImGuiCond_Always);
      // Always open while a contact is pinned: the panel follows the pin.
      if (ImGui::CollapsingHeader("Contacts", ImGuiTreeNodeFlags_DefaultOpen)) {
        ContactPanel(snapshot, ui, actions);
      }
      if (snapshot.slip_meter.active &&
          ImGui::CollapsingHeader("Slip meter", ImGuiTreeNodeFlags_DefaultOpen)) {
        SlipMeterPanel(snapshot, plots, ui);
      }
      if (snapshot.teleop.active &&
          ImGui::CollapsingHeader("Teleoperation", ImGuiTreeNodeFlags_DefaultOpen)) {
        TeleopPanel(snapshot, ui, actions);
        RecordingPanel(snapshot, &ui->recording, &ui->files, actions);
      }
      if (ImGui::CollapsingHeader("Files", ImGuiTreeNodeFlags_DefaultOpen)) {
        FilesPanel(&ui->files, actions);
      }
      if (ImGui::CollapsingHeader("Camera and layers")) LayersPanel(snapshot, ui, actions);
      ImGui::Separator();
      if (!ui->status.empty()) {  // wrapped: it may name a long path or an error
        ImGui::PushStyleColor(ImGuiCol_Text, kDimColor);
        ImGui::TextWrapped("%s", ui->status.c_str());
        ImGui::PopStyleColor();
      }
      ImGui::TextColored(kDimColor, "H: help   Tab: hide panels");
    }
    ImGui::End();

    ImGui::SetNextWindowPos(ImVec2(sidebar_w, display_h - plots_h), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(display_w - sidebar_w, plots_h), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.85f);
    if (ImGui::Begin("Plots", nullptr, kDocked)) PlotsPanel(snapshot, plots, ui, actions);
    ImGui::End();
  }
  // The patch layer's pressure range, then its colour bar in the scene's bottom-right corner.
  ui->pressure_range.Update(snapshot, ImGui::GetIO().DeltaTime, &ui->layers);
  PressureColorBar(snapshot, ui->layers, display_w, display_h - layout.plots_h);
  ContactColorBar(snapshot, display_w, display_h - layout.plots_h, &ui->layers);
  if (ui->show_panels) CalibrateWindow(snapshot, display_w, display_h, ui, actions);
  HelpWindow(ui);
  ErrorBanner(display_w, ui);
}

}  // namespace contactlab
