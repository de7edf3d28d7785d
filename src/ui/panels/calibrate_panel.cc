#include "ui/panels/calibrate_panel.h"

#include <imgui.h>
#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/solver/contact_constraint_factory.h"
#include "ui/panels/contact_model_panel.h"
#include "ui/panels/panels.h"
#include "ui/widgets/plot_widget.h"
#include "ui/widgets/widgets.h"

namespace contactlab {
namespace {

constexpr float kMinPlotHeight = 180.0f;  // else the window scrolls

// Wrapped text up to a blank short of the window's edge: Dear ImGui 1.86 counts the blank at
// which it breaks a line in the line's width, which would reach past the edge.
void PushTextWrapInside() {
  ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x - ImGui::CalcTextSize(" ").x);
}

// The settings the fit runs under: the timeline's own (its run's), else those in force.
const ContactSettings& FitSettings(const Snapshot& snapshot, UiState* ui) {
  const CalibrationPanelState& c = ui->calibration;
  return c.reference_settings ? *c.reference_settings : ShownContactSettings(snapshot, ui);
}

const char* ParameterHelp(ContactParameter parameter) {
  switch (parameter) {
    case ContactParameter::kStiffness:
      return "k [N/m]: the stiffness of every contact pair; fitted in log scale";
    case ContactParameter::kHuntCrossley:
      return "d [s/m]: Hunt & Crossley's dissipation of every contact pair";
    case ContactParameter::kRelaxationTime:
      return "tau_d [s]: SAP's relaxation time of every contact pair";
    case ContactParameter::kFriction:
      return "mu: the friction coefficient of every contact pair";
    default:
      return "v_s [m/s]: the stiction tolerance; fitted in log scale";
  }
}

void ReferenceRows(UiState* ui, UiActions* actions) {
  CalibrationPanelState& c = ui->calibration;
  PushTextWrapInside();
  if (c.reference) {
    ImGui::Text("reference: %s", c.reference_label.c_str());
  } else {
    ImGui::TextColored(kDimColor,
                       "no reference: load a log (the --log CSV; or drop it on the "
                       "window) or use the run's timeline");
  }
  ImGui::PopTextWrapPos();
  ImGui::SetNextItemWidth(-ImGui::CalcTextSize("Load").x - 3 * ImGui::GetStyle().ItemSpacing.x);
  const bool enter =
      ImGui::InputTextWithHint("##log", "path/to/log.csv", c.log_path, sizeof c.log_path,
                               ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button("Load") || enter) && c.log_path[0] != '\0') {
    actions->calibrate = CalibrationRequest{CalibrationRequest::Kind::kLoadLog, c.log_path};
  }
  if (ImGui::Button("Use the run's timeline")) {
    actions->calibrate = CalibrationRequest{CalibrationRequest::Kind::kUseTimeline};
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("the main run's recorded states from t = 0, under the settings it ran with");
  }
}

// A checkbox and an initial value per parameter; those the model does not read are greyed out,
// with the reason as their tooltip (as in the Contact model section).
void ParameterRows(const Snapshot& snapshot, UiState* ui) {
  CalibrationPanelState& c = ui->calibration;
  const ContactSettings& settings = FitSettings(snapshot, ui);
  const float field_x = ImGui::CalcTextSize("v_s [m/s]").x + ImGui::GetFrameHeight() * 2.5f;
  ImGui::TextColored(kDimColor, "fit");
  ImGui::SameLine(field_x);
  ImGui::TextColored(kDimColor, "initial value");
  for (int i = 0; i < kNumCalibrated; ++i) {
    const ContactParameter p = kCalibratedParameters[i];
    if (!c.initial_typed[i] && snapshot.scene) {
      c.initial[i] = OfferedInitialValue(p, ShownContactSettings(snapshot, ui), *snapshot.scene,
                                         ui->plot_body, ui->defaults);
    }
    const char* unused = UnusedParameterReason(settings.approximation, p);
    ImGui::PushID(i);
    ImGui::BeginGroup();
    ImGui::BeginDisabled(unused[0] != '\0' || c.running);
    ImGui::Checkbox(CalibratedParameterLabel(p), &c.fit[i]);
    ImGui::SameLine(field_x);
    ImGui::SetNextItemWidth(std::min(140.0f, ImGui::GetContentRegionAvail().x));
    if (ImGui::InputDouble("##initial", &c.initial[i], 0, 0, "%.6g")) c.initial_typed[i] = true;
    ImGui::EndDisabled();
    ImGui::EndGroup();
    const auto [lo, hi] = ParameterBounds(p);
    const std::string help = fmt::format(
        "{}, within [{:g}, {:g}]; its initial value follows the settings until you type one",
        ParameterHelp(p), lo, hi);
    ParameterTooltip(help.c_str(), unused);
    ImGui::PopID();
  }
}

// The parameters checked that the model reads, with their initial values.
CalibrationRequest StartRequest(const Snapshot& snapshot, UiState* ui) {
  CalibrationRequest start{CalibrationRequest::Kind::kStart};
  const ContactSettings& settings = FitSettings(snapshot, ui);
  const CalibrationPanelState& c = ui->calibration;
  for (int i = 0; i < kNumCalibrated; ++i) {
    if (!c.fit[i] || !UsesParameter(settings.approximation, kCalibratedParameters[i])) continue;
    start.parameters.push_back(kCalibratedParameters[i]);
    start.initial.push_back(c.initial[i]);
  }
  return start;
}

void FitRows(const Snapshot& snapshot, UiState* ui, UiActions* actions) {
  const CalibrationRequest start = StartRequest(snapshot, ui);
  CalibrationPanelState& c = ui->calibration;
  ImGui::BeginDisabled(c.running || !c.reference || start.parameters.empty());
  if (ImGui::Button("Fit")) actions->calibrate = start;
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!c.running || c.cancelling);
  if (ImGui::Button("Cancel")) {
    actions->calibrate = CalibrationRequest{CalibrationRequest::Kind::kCancel};
  }
  ImGui::EndDisabled();
  PushTextWrapInside();
  if (c.running) {
    ImGui::SameLine();
    ImGui::TextColored(kWarnColor, "%s", c.cancelling ? "cancelling..." : "fitting...");
    ImGui::TextUnformatted(c.progress.c_str());
  }
  if (!c.error.empty()) ImGui::TextColored(kErrorColor, "%s", c.error.c_str());
  if (!c.status.empty()) ImGui::TextColored(kDimColor, "%s", c.status.c_str());
  ImGui::PopTextWrapPos();
}

void TableRows(const CalibrationResult& result) {
  static constexpr const char* kHeaders[] = {"parameter", "initial", "fitted", "1 sigma",
                                             "identified"};
  if (ImGui::BeginTable("fit", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
    for (const char* h : kHeaders) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& row : CalibrationTable(result)) {
      for (const std::string& cell : row) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(cell.c_str());
      }
    }
    ImGui::EndTable();
  }
}

void ResultRows(UiState* ui, UiActions* actions) {
  CalibrationPanelState& c = ui->calibration;
  if (!c.result) return;
  const CalibrationResult& r = *c.result;
  ImGui::Separator();
  TableRows(r);
  PushTextWrapInside();
  ImGui::TextUnformatted(CalibrationSummary(r).c_str());
  for (size_t j = 0; j < r.parameters.size(); ++j) {
    if (r.identified[j]) continue;
    ImGui::TextColored(kWarnColor, "%s: %s", CalibratedParameterSymbol(r.parameters[j]),
                       r.unidentified_reason[j].c_str());
  }
  ImGui::PopTextWrapPos();
  if (ImGui::Button("Accept")) {
    actions->calibrate = CalibrationRequest{CalibrationRequest::Kind::kAccept};
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("move the contact model's sliders to the fitted values (every pair)");
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!c.undo);
  if (ImGui::Button("Undo")) {
    actions->calibrate = CalibrationRequest{CalibrationRequest::Kind::kUndo};
  }
  ImGui::EndDisabled();
}

// One fitted coordinate: the reference against the runs before and after the fit.
void PlotRows(CalibrationPanelState* c) {
  if (!c->result || c->result->traces.empty()) return;
  const std::vector<CalibrationTrace>& traces = c->result->traces;
  const int shown = std::clamp(c->plot_trace, 0, static_cast<int>(traces.size()) - 1);
  float combo_w = 0;  // the longest choice in full
  for (const CalibrationTrace& t : traces) {
    combo_w = std::max(combo_w, ComboWidthFor(("coordinate: " + t.column).c_str()));
  }
  ImGui::SetNextItemWidth(std::min(combo_w, ImGui::GetContentRegionAvail().x));
  if (ImGui::BeginCombo("##coordinate", ("coordinate: " + traces[shown].column).c_str())) {
    for (int i = 0; i < static_cast<int>(traces.size()); ++i) {
      if (ImGui::Selectable(traces[i].column.c_str(), i == shown)) ShowCalibrationTrace(i, c);
    }
    ImGui::EndCombo();
  }
  static constexpr int kSeries[] = {0, 1, 2};  // reference, before, after
  // The reference wide and first: a fit that follows it exactly leaves it visible on both sides.
  static constexpr float kWidths[] = {4.0f, 1.5f, 1.5f};
  const std::string title = traces[shown].column + ": reference, before and after the fit";
  const float height = std::max(kMinPlotHeight, ImGui::GetContentRegionAvail().y);
  PlotWidget("calibration", title.c_str(), c->plot, kSeries, c->plot_window, height, &c->plot_view,
             kWidths);
}

}  // namespace

const char* CalibratedParameterLabel(ContactParameter parameter) {
  switch (parameter) {
    case ContactParameter::kStiffness:
      return "k [N/m]";
    case ContactParameter::kHuntCrossley:
      return "d [s/m]";
    case ContactParameter::kRelaxationTime:
      return "tau_d [s]";
    case ContactParameter::kFriction:
      return "mu";
    default:
      return "v_s [m/s]";
  }
}

const char* CalibratedParameterSymbol(ContactParameter parameter) {
  switch (parameter) {
    case ContactParameter::kStiffness:
      return "k";
    case ContactParameter::kHuntCrossley:
      return "d";
    case ContactParameter::kRelaxationTime:
      return "tau_d";
    case ContactParameter::kFriction:
      return "mu";
    default:
      return "v_s";
  }
}

double OfferedInitialValue(ContactParameter parameter, const ContactSettings& settings,
                           const SceneSpec& scene, int body, const SceneDefaults& defaults) {
  try {
    return GlobalParameterValue(settings, parameter);
  } catch (const std::invalid_argument&) {  // a pair property without a global value
  }
  const ContactProperties* own = &defaults.contact;
  if (body >= 0 && body < static_cast<int>(scene.bodies.size())) {
    for (const GeometrySpec& g : scene.bodies[body].geometries) {
      if (std::isfinite(g.contact.stiffness_N_per_m)) {
        own = &g.contact;
        break;
      }
    }
  }
  switch (parameter) {
    case ContactParameter::kStiffness:
      return own->stiffness_N_per_m;
    case ContactParameter::kHuntCrossley:
      return own->hunt_crossley_s_per_m;
    case ContactParameter::kRelaxationTime:
      return own->relaxation_time_s;
    default:
      return own->friction;
  }
}

std::string CalibrationProgressLine(const CalibrationProgressReport& progress,
                                    const std::vector<ContactParameter>& parameters) {
  if (progress.iteration < 0) return "running the initial values...";
  std::string line =
      fmt::format("iteration {}: RMS error {:.3g} m", progress.iteration, progress.rms_m);
  for (size_t j = 0; j < parameters.size() && j < progress.values.size(); ++j) {
    line += fmt::format("{} {} {:.4g}", j == 0 ? ";" : ",",
                        CalibratedParameterSymbol(parameters[j]), progress.values[j]);
  }
  return line;
}

std::vector<std::array<std::string, 5>> CalibrationTable(const CalibrationResult& r) {
  std::vector<std::array<std::string, 5>> rows;
  for (size_t j = 0; j < r.parameters.size(); ++j) {
    const ContactParameter p = r.parameters[j];
    // docs/contact-model.md §10: σ of log k (log v_s) is the relative uncertainty.
    const std::string sigma = !r.identified[j] ? "-"
                              : IsLogScaled(p)
                                  ? fmt::format("{:.2g} %", 100 * r.standard_deviation[j])
                                  : fmt::format("{:.2g}", r.standard_deviation[j]);
    rows.push_back({CalibratedParameterLabel(p), fmt::format("{:.4g}", r.initial[j]),
                    fmt::format("{:.4g}", r.fitted[j]), sigma, r.identified[j] ? "yes" : "no"});
  }
  return rows;
}

std::string CalibrationSummary(const CalibrationResult& r) {
  return fmt::format("RMS error {:.3g} m before, {:.3g} m after; {} iterations{}", r.rms_before_m,
                     r.rms_after_m, r.iterations, r.converged ? "" : " (the cap: not converged)");
}

void ShowCalibrationTrace(int i, CalibrationPanelState* state) {
  const CalibrationTrace& t = state->result->traces.at(i);
  state->plot_trace = i;
  state->plot = PlotData({"reference", "before", "after"}, std::max<size_t>(1, t.time_s.size()));
  for (size_t k = 0; k < t.time_s.size(); ++k) {
    const double values[] = {t.reference[k], t.before[k], t.after[k]};
    state->plot.Append(t.time_s[k], values);
  }
  state->plot_window = PlotTimeWindow{};
  state->plot_window.span_s =
      t.time_s.size() > 1 ? t.time_s.back() - t.time_s.front() : state->plot_window.span_s;
  state->plot_view = PlotViewState{};
}

int FirstMovingTrace(const CalibrationResult& result) {
  for (size_t i = 0; i < result.traces.size(); ++i) {
    const std::vector<double>& v = result.traces[i].reference;
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    if (lo != v.end() && *hi - *lo >= 1e-9) return static_cast<int>(i);
  }
  return 0;
}

void CalibrateWindow(const Snapshot& snapshot, float display_w, float display_h, UiState* ui,
                     UiActions* actions) {
  CalibrationPanelState& c = ui->calibration;
  if (!c.show) return;
  // Beside the sidebar, over the 3-D view, which the user looks away from meanwhile.
  const PanelLayout layout = ComputePanelLayout(display_w, display_h, ui->show_panels);
  const float x = layout.sidebar_w + 10.0f;
  ImGui::SetNextWindowPos(ImVec2(x, 10.0f), ImGuiCond_Appearing);
  // Over the plots too: the table and the fit's plot take 700 pixels.
  ImGui::SetNextWindowSize(ImVec2(std::min(520.0f, display_w - x - 10.0f),
                                  std::clamp(display_h - 20.0f, 200.0f, 760.0f)),
                           ImGuiCond_Appearing);
  if (ImGui::Begin("Calibrate", &c.show, ImGuiWindowFlags_NoCollapse)) {
    ReferenceRows(ui, actions);
    ImGui::Separator();
    ParameterRows(snapshot, ui);
    FitRows(snapshot, ui, actions);
    ResultRows(ui, actions);
    PlotRows(&c);
  }
  ImGui::End();
}

}  // namespace contactlab
