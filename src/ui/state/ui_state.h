// The only state the immediate-mode panels keep between frames (everything else they show comes
// from the newest Snapshot and the plot data).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/world/scene_spec.h"
#include "render/camera.h"
#include "render/render_layers.h"
#include "ui/state/auto_quality.h"
#include "ui/state/calibration_state.h"
#include "ui/state/frame_timer.h"
#include "ui/state/toast_queue.h"
#include "ui/view/camera_views.h"
#include "ui/view/contact_inspector_state.h"
#include "ui/widgets/plot_widget.h"
#include "ui/widgets/pressure_color_bar.h"

namespace contactlab {

// The values a scene file gives (before command-line or UI overrides): what the contact
// model panel's reset buttons restore. Contact properties are per geometry; the representative
// value is that of the first dynamic body's first geometry with a finite value.
struct SceneDefaults {
  ContactSettings contact_settings;
  ContactProperties contact;
};
SceneDefaults ComputeSceneDefaults(const SceneSpec& scene);

// Error control's steps over time (the Solver panel; docs/contact-model.md §1.2): per step,
// log10 of its size [s], of its error estimate and of the accuracy asked (the plot widget is
// linear: a log scale by its values; fixed steps have no error), and the steps accepted and
// attempts rejected since the scene loaded (ui/plot_feed.h fills it).
enum StepSizeSeries {
  kSeriesLog10StepSize,
  kSeriesLog10Error,
  kSeriesLog10Accuracy,
  kNumStepSizeSeries
};
struct StepSizeHistory {
  static constexpr size_t kSamples = 30000;
  PlotData plots{{"log10_dt_s", "log10_error_estimate", "log10_accuracy"}, kSamples};
  uint64_t accepted = 0, rejected = 0, at_floor = 0;
  PlotTimeWindow window;
  PlotViewState view;
  void Clear() {
    plots.Clear();
    accepted = rejected = at_floor = 0;
  }
};

// The plots of the plots panel, over the series of PlotData (ui/plot_feed.cc fills one row per
// PlotSample in this order).
enum PlotSeries {
  kSeriesNormalForce,
  kSeriesFrictionForce,
  kSeriesSlipSpeed,
  kSeriesSignedDistance,
  kSeriesIterations,
  kSeriesStepMs,
  kSeriesGripForce,  // teleoperation: |net normal contact force| on the leader finger
  kSeriesMeterSlip,  // the slip meter's slip speed, log10 of µm/s (ui/panels/slip_meter_panel.h)
  kSeriesBarrierIterations,  // the rigid stage's Newton steps (docs/contact-model.md §8)
  kNumPlotSeries
};
std::vector<std::string> PlotSeriesNames();  // CSV header names: normal_force_N, ...
inline constexpr int kNumPlots = 4;

// What the hydroelastic panel (ui/panels/hydroelastic_panel.h) remembers between frames: the
// selection and the values it asked for, per scene (a new scene_generation starts afresh).
struct HydroelasticPanelState {
  uint64_t scene_generation = UINT64_MAX;
  int selected = -1;  // geometry index (World order), −1: every compliant shape
  std::optional<double> requested_modulus_Pa, requested_resolution_m;
  float resolution_mm = 0;  // the resolution slider while it is dragged
  bool dragging_resolution = false;
  // When the last request was posted and what the error banner held then: a request not in
  // force after a timeout, or followed by a new "hydroelastic change" error (rejected: too fine,
  // …), is dropped and the sliders show the values in force again.
  double request_time_s = 0;
  size_t errors_at_request = 0;
  std::string last_error_at_request;
  std::vector<int> compliant;  // this frame's compliant geometries (kept: no per-frame allocation)
};

// The recording panel's paths (ui/panels/recording_panel.h).
struct RecordingPanelState {
  char record_path[512] = "";  // empty: contactlab_teleop_DATE_TIME.csv in the output folder
  char replay_path[512] = "";  // Play's file: the latest recording unless chosen or typed
  // The recordings in the output folder, newest first (io/output_folder.h), listed again when
  // `listed` is false: at the first frame, when the chooser opens, after a recording ends.
  std::vector<std::string> recordings;
  bool listed = false;
  bool chooser_open = false;
  std::string message;  // why Play did nothing (no file), or ""
  // The recording under way, as the last snapshot showed it: its end is a save to confirm.
  bool was_recording = false;
};

// Where the files the GUI saves without a path from the user go (io/output_folder.h), and the
// toasts that confirm each save or say why it failed.
struct FilesState {
  std::string output_dir;           // in force: --output-dir, else the setting, else the default
  std::string output_dir_setting;   // chosen in the window, saved with the GUI settings; "" none
  char output_dir_field[512] = "";  // the Files panel's folder field
  ToastQueue toasts;
};

struct UiState {
  // Simulation panel.
  float target_realtime_factor = 1.0f;
  bool as_fast_as_possible = false;
  std::vector<std::string> builtin_scenes;  // names of assets/scenes/*.yaml
  std::string current_scene;                // name or path last loaded
  char scene_path[512] = "";

  // Contact model panel: the settings as the UI last posted them, shown in preference to the
  // snapshot's lagging ones until a snapshot has them in force.
  std::optional<ContactSettings> posted_settings;
  SceneDefaults defaults;
  StepSizeHistory step_sizes;  // the Solver panel's step-size plot
  double edit_value = 0;       // the typed value of the open slider editor (LogSlider)

  // Solver panel: non-converged steps of the current run (reset or scene load), counted in the
  // lossless plot sample stream (the render loop may skip snapshots).
  int nonconverged_seen = 0;
  double last_nonconverged_time_s = -1;
  uint64_t convergence_run = 0;  // the run (Snapshot::run) counted

  // Plots.
  int plot_body = -1;
  PlotTimeWindow plot_window;
  PlotViewState plot_views[kNumPlots];
  PlotViewState slip_meter_view;  // the Slip meter panel's plot (the plots' time window)
  char csv_path[512] = "";        // empty: contactlab_plot_DATE_TIME.csv in the output folder

  // Camera and visual layers. auto_frame: the camera eases towards the framing of the moving
  // bodies every frame (on for a new scene, off once the mouse moves the camera).
  Camera camera;
  bool auto_frame = true;
  CameraViews views;  // main view through `camera` or a scene camera; the inset
  RenderLayers layers;
  AutoPressureRange pressure_range;  // sets layers' pressure range while pressure_auto
  ContactInspectorState contacts;    // contact read-out, gliding overlay, exports

  RecordingPanelState recording;  // teleoperation record / replay paths
  FilesState files;               // the output folder, the toasts
  HydroelasticPanelState hydroelastic;
  CalibrationPanelState calibration;  // the Calibrate window
  // Windows and messages.
  bool show_help = false;
  bool show_panels = true;
  std::vector<std::string> errors;  // the red banner, until dismissed
  std::string status;               // one-line info (e.g. "wrote plot.csv")
  FrameTimer::Stats frame_stats;
  // The render quality (the Solver panel's choice: automatic or a fixed level).
  AutoQuality render_quality{4};
};

// Puts a message in the red banner and the log (a warning): not twice in a row, and only the 50
// newest, so that an error repeated every frame neither floods the banner nor grows it.
void AddError(const std::string& message, UiState* ui);

}  // namespace contactlab
