#include "ui/calibration_session.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <utility>

#include "app/calibration/recorded_reference.h"
#include "ui/panels/calibrate_panel.h"
#include "ui/panels/contact_model_panel.h"

namespace contactlab {
namespace {

// The window's red line and an error toast; what was loaded and shown before stays.
void Fail(const std::string& message, UiState* ui) {
  spdlog::warn("calibrate: {}", message);
  ui->calibration.error = message;
  ui->files.toasts.Push("calibrate: " + message, ToastKind::kError);
}

// A file by its name (its folder would not fit the window; the status line has the path).
std::string Describe(const ReferenceLog& log) {
  return fmt::format("{}: {} rows, t = {:.4g} to {:.4g} s",
                     std::filesystem::path(log.source).filename().string(), log.time_s.size(),
                     log.time_s.front(), log.time_s.back());
}

// Sets `parameter`'s global value in a change (docs/contact-model.md §9: the values that replace
// every pair's, and v_s).
void SetValue(ContactParameter parameter, double value, ContactOverrides* change) {
  switch (parameter) {
    case ContactParameter::kStiffness:
      change->stiffness_N_per_m = value;
      break;
    case ContactParameter::kHuntCrossley:
      change->hunt_crossley_s_per_m = value;
      break;
    case ContactParameter::kRelaxationTime:
      change->relaxation_time_s = value;
      break;
    case ContactParameter::kFriction:
      change->friction = value;
      break;
    default:
      change->stiction_tolerance_m_per_s = value;
  }
}

// The change that brings back `parameter` as `settings` hold it: its global value, or each
// pair's own when they hold none.
void Restore(ContactParameter parameter, const ContactSettings& settings, ContactOverrides* undo) {
  try {
    SetValue(parameter, GlobalParameterValue(settings, parameter), undo);
  } catch (const std::invalid_argument&) {
    undo->clear.stiffness |= parameter == ContactParameter::kStiffness;
    undo->clear.hunt_crossley |= parameter == ContactParameter::kHuntCrossley;
    undo->clear.relaxation_time |= parameter == ContactParameter::kRelaxationTime;
    undo->clear.friction |= parameter == ContactParameter::kFriction;
  }
}

}  // namespace

void CalibrationSession::Handle(const CalibrationRequest& request, const Snapshot& snapshot,
                                UiState* ui, UiActions* actions) {
  CalibrationPanelState& c = ui->calibration;
  switch (request.kind) {
    case CalibrationRequest::Kind::kLoadLog:
      LoadLog(request.path, ui);
      break;
    case CalibrationRequest::Kind::kUseTimeline:
      awaited_request_ = ++requests_;
      actions->commands.emplace_back(command::ExportRecordedRun{*awaited_request_});
      c.status = "copying the run's timeline...";
      break;
    case CalibrationRequest::Kind::kStart:
      Start(request, snapshot, ui);
      break;
    case CalibrationRequest::Kind::kCancel:
      worker_.Cancel();
      break;
    case CalibrationRequest::Kind::kAccept:
      Accept(snapshot, ui, actions);
      break;
    case CalibrationRequest::Kind::kUndo:
      if (!c.undo) break;
      PostContactChange(*c.undo, snapshot, ui, actions);
      c.undo.reset();
      c.status = "undone: the values before Accept are in force again";
      break;
  }
}

void CalibrationSession::LoadLog(const std::string& path, UiState* ui) {
  CalibrationPanelState& c = ui->calibration;
  try {
    c.reference = std::make_shared<const ReferenceLog>(ReadReferenceLog(path));
  } catch (const std::exception& e) {
    return Fail(e.what(), ui);
  }
  c.reference_settings.reset();  // a file is fitted under the settings in force
  c.reference_label = Describe(*c.reference);
  c.error.clear();
  c.status = "loaded " + path;
}

void CalibrationSession::Start(const CalibrationRequest& request, const Snapshot& snapshot,
                               UiState* ui) {
  CalibrationPanelState& c = ui->calibration;
  if (worker_.busy() || !snapshot.scene) return;  // one fit at a time (the button is greyed)
  if (!c.reference) return Fail("no reference: load a log or use the run's timeline", ui);
  if (request.parameters.empty()) {
    return Fail("no parameter to fit: check one that the model reads", ui);
  }
  CalibrationJob job;
  job.scene = snapshot.scene;
  job.settings = c.reference_settings ? *c.reference_settings : ShownContactSettings(snapshot, ui);
  job.reference = c.reference;
  job.spec.parameters = request.parameters;
  job.spec.initial = request.initial;
  worker_.Start(std::move(job));
  fitting_ = request.parameters;
  discard_ = false;
  c.running = true;
  c.cancelling = false;
  c.progress = CalibrationProgressLine({}, fitting_);
  c.error.clear();
  c.status.clear();
  c.result.reset();
}

// The fitted values as the sliders post them, checked by ApplyOverrides first; Undo keeps the
// change that restores the values in force now.
void CalibrationSession::Accept(const Snapshot& snapshot, UiState* ui, UiActions* actions) {
  CalibrationPanelState& c = ui->calibration;
  if (!c.result) return;
  const ContactSettings in_force = ShownContactSettings(snapshot, ui);
  ContactOverrides change, undo;
  for (size_t j = 0; j < c.result->parameters.size(); ++j) {
    SetValue(c.result->parameters[j], c.result->fitted[j], &change);
    Restore(c.result->parameters[j], in_force, &undo);
  }
  ContactSettings checked = in_force;
  try {
    ApplyOverrides(change, &checked);
  } catch (const std::invalid_argument& e) {
    return Fail(std::string("not accepted: ") + e.what(), ui);
  }
  PostContactChange(change, snapshot, ui, actions);
  c.undo = undo;
  c.error.clear();
  c.status = "accepted: the sliders hold the fitted values (Undo: the values before)";
}

void CalibrationSession::Update(std::optional<RecordedRun> run, uint64_t scene_generation,
                                UiState* ui) {
  if (run && run->request == awaited_request_) {
    awaited_request_.reset();
    // Copied before a new scene came: the old scene's run, not this one's reference.
    if (run->scene_generation == scene_generation) UseRun(*run, ui);
  }
  CalibrationPanelState& c = ui->calibration;
  c.running = worker_.busy();
  c.cancelling = worker_.cancelling();
  if (c.running && !discard_) c.progress = CalibrationProgressLine(worker_.progress(), fitting_);
  TakeOutcome(ui);
}

void CalibrationSession::UseRun(const RecordedRun& run, UiState* ui) {
  CalibrationPanelState& c = ui->calibration;
  c.status.clear();
  try {
    c.reference = std::make_shared<const ReferenceLog>(ReferenceFromRecordedRun(run));
  } catch (const std::invalid_argument& e) {
    return Fail(e.what(), ui);
  }
  c.reference_settings = run.settings;  // the fit replays the run under its own settings
  c.reference_label =
      fmt::format("{} ({}, dt = {:g} s)", Describe(*c.reference),
                  ContactApproximationName(run.settings.approximation), run.settings.dt_s);
  c.error.clear();
}

void CalibrationSession::TakeOutcome(UiState* ui) {
  std::optional<CalibrationOutcome> outcome = worker_.TakeOutcome();
  if (!outcome) return;
  CalibrationPanelState& c = ui->calibration;
  c.running = c.cancelling = false;
  if (std::exchange(discard_, false)) return;
  switch (outcome->kind) {
    case CalibrationOutcome::Kind::kFitted:
      c.result = std::move(outcome->result);
      ShowCalibrationTrace(FirstMovingTrace(*c.result), &c);
      c.status = "fitted: Accept moves the sliders to the fitted values";
      break;
    case CalibrationOutcome::Kind::kCancelled:
      c.status = "cancelled at " + c.progress;
      break;
    case CalibrationOutcome::Kind::kFailed:
      Fail(outcome->error, ui);
      break;
  }
  c.progress.clear();
}

void CalibrationSession::OnNewScene(UiState* ui) {
  if (worker_.busy()) {
    worker_.Cancel();
    discard_ = true;
  }
  CalibrationPanelState& c = ui->calibration;
  if (c.reference_settings) {  // the old scene's run
    c.reference.reset();
    c.reference_settings.reset();
    c.reference_label.clear();
  }
  c.result.reset();
  c.undo.reset();
  c.initial_typed.fill(false);
  c.progress.clear();
  c.error.clear();
  c.status.clear();
}

}  // namespace contactlab
