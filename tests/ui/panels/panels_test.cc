// The panels of panels.h without a window: what they take from the snapshot each frame, and
// their layout through Dear ImGui, headless (a context without a window or renderer).
#include "ui/panels/panels.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>

#include "io/scene_loader.h"
#include "ui/panels/calibrate_panel.h"
#include "ui/panels/inspect_panels.h"
#include "ui/view/camera_views.h"

namespace contactlab {
namespace {

TEST(Panels, ThePlotsFollowTheTimelinesStepAndReturnToTheHead) {
  Snapshot snapshot;
  snapshot.time_s = 0.75;
  PlotTimeWindow window;
  FollowTimeline(snapshot, &window);
  EXPECT_FALSE(window.cursor_s.has_value()) << "live";
  snapshot.timeline.viewing = true;  // scrubbed back to the step at 0.75 s
  FollowTimeline(snapshot, &window);
  ASSERT_TRUE(window.cursor_s.has_value());
  EXPECT_EQ(*window.cursor_s, 0.75);
  snapshot.timeline.viewing = false;  // Play, Step or Branch: the head again
  snapshot.time_s = 2.0;
  FollowTimeline(snapshot, &window);
  EXPECT_FALSE(window.cursor_s.has_value());
}

// Every panel at 1440 × 900 with every section open and every optional row shown, as the
// window draws them (DrawUi, the Calibrate window among them, then the Inspect window where the
// application places it).
class PanelsAt1440x900 : public ::testing::Test {
 protected:
  static constexpr float kW = 1440;
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(kW, height_);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the font atlas NewFrame needs
    ImGui::StyleColorsDark();                       // as ui/window.cc; sizes are the defaults
    World world(LoadSceneFile(ResolveScenePath("peg_in_hole")));
    FillSnapshot(world, 0, 0, &snapshot_);
    snapshot_.teleop.active = true;
    snapshot_.alignment.active = true;
    snapshot_.timeline.records = 100;
    snapshot_.timeline.newest_s = 40.0;
    ui_.current_scene = "peg_in_hole";
    ui_.builtin_scenes = {"peg_in_hole", "peg_in_hole_hydroelastic"};
    ui_.defaults = ComputeSceneDefaults(*snapshot_.scene);
    ui_.views = DefaultCameraViews(*snapshot_.scene, "");
    ui_.render_quality.SetAutomatic(true);  // the combo's longest preview: "auto: ..."
    ui_.layers.traction_arrows = true;      // its scale row
    ui_.layers.pressure_auto = false;       // the max pressure row
    ui_.layers.slip_arrows = true;          // its scale and threshold rows
    ui_.contacts.pinned.active = true;      // the selected pair's stiffness line
    ui_.contacts.pinned.last.near_rigid = true;
    inspect_.selected_body = snapshot_.scene->FindBody("peg");
    // The slip meter's longest lines: every value negative with three digits and an exponent.
    SlipReading& slip = snapshot_.slip_meter.reading;
    snapshot_.slip_meter.active = true;
    slip.body = inspect_.selected_body;
    slip.hand = snapshot_.scene->FindBody("panda_hand");
    slip.has_slip = slip.held = true;
    slip.hand_bodies_touching = 2;
    slip.held_since_s = 123.456;
    slip.v_slip_H = Eigen::Vector3d(-1.23e-7, -4.56e-3, -7.89e-9);
    slip.w_slip_rad_per_s = 1.23e-7;
    slip.creep_path_m = 1.23e-3, slip.creep_displacement_m = 4.56e-3;
    slip.creep_angle_rad = 7.89e-3;
    inspect_.ghost_approximation = 3;                        // "Regularized Lagged", the longest
    ui_.layers.contact_colors = ContactColorMode::kGliding;  // "gliding offset", the longest
    FillCalibrateWindow();
  }

  // The Calibrate window open with every row shown: a fit under way (its longest progress line)
  // beside the last one's table, the longest values, an error and a reason not identified.
  void FillCalibrateWindow() {
    CalibrationPanelState& c = ui_.calibration;
    c.show = true;
    auto log = std::make_shared<ReferenceLog>();
    log->source = "/home/someone/a/rather/long/folder/name/peg_in_hole_reference_log.csv";
    c.reference = log;
    c.reference_label = "peg_in_hole_reference_log.csv: 40000 rows, t = 0.001 to 40 s";
    c.running = true;
    c.progress =
        "iteration 123: RMS error 1.23e-05 m; k 1.235e+05, d 12.35, tau_d 0.1235, mu 0.4123, v_s "
        "1.235e-05";
    c.error =
        "calibrate: the run failed at t = 1.234 s: step 1234 (t = 1.234 s) failed: a long "
        "reason from the engine";
    CalibrationResult& r = c.result.emplace();
    r.parameters.assign(std::begin(kCalibratedParameters), std::end(kCalibratedParameters));
    r.initial = {1.2345e12, 1234.5, 1.2345e-3, 4.9876, 1.2345e-8};
    r.fitted = {1.2345e-12, 1234.5, 1.2345e-3, 4.9876, 1.2345e-8};
    r.standard_deviation = {12.345, 123.45, 1.2345e-5, NAN, 12.345};
    r.identified = {true, true, true, false, true};
    r.unidentified_reason = {"", "", "",
                             "changing it by 0.1 moves the fitted coordinates by 1.2e-09 m RMS "
                             "(< 1e-07 m): the data cannot identify it; kept at its initial value",
                             ""};
    r.rms_before_m = 1.2345e-2;
    r.rms_after_m = 1.2345e-9;
    r.iterations = 1234;
    r.traces.push_back({"panda_finger_joint1.q", {0, 1}, {0, 1}, {0, 1}, {0, 1}});
    ShowCalibrationTrace(0, &c);
    c.undo.emplace();
  }
  void TearDown() override { ImGui::DestroyContext(); }

  void Frame() {
    ImGui::GetIO().DisplaySize = ImVec2(kW, height_);
    ImGui::NewFrame();
    UiActions actions;
    const PlotData plots(PlotSeriesNames(), 16);
    DrawUi(snapshot_, plots, kW, height_, &ui_, &actions);
    const PanelLayout layout = ComputePanelLayout(kW, height_, true);
    InspectWindow(snapshot_,
                  PlaceInspectWindow(kW, height_, layout.plots_h,
                                     ShownInsetRect(snapshot_, ui_.views, kW, height_)),
                  &inspect_, &actions);
    ImGui::Render();
  }

  // Opens or closes collapsing headers and tree nodes of a window (their state is kept per ID).
  static void SetOpen(const char* window_name, std::initializer_list<const char*> headers,
                      bool open) {
    ImGuiWindow* window = ImGui::FindWindowByName(window_name);
    ASSERT_NE(window, nullptr) << window_name;
    for (const char* h : headers) window->StateStorage.SetInt(window->GetID(h), open ? 1 : 0);
  }

  // How far the window's widest row reaches past the right edge of its content region [px].
  static float Overflow(const char* window_name) {
    const ImGuiWindow* window = ImGui::FindWindowByName(window_name);
    if (window == nullptr) return -1;
    return window->DC.CursorMaxPos.x - window->WorkRect.Max.x;
  }

  // The sidebar's sections one at a time, so that a failure names the section, in a window as
  // wide but less tall: the sidebar is as wide (340 pixels) and scrolls, as it does at 900 with
  // the sections open by default.
  void ExpectEverySectionFits() {
    height_ = 300;
    Frame();
    const auto sections = {"Simulation", "Contact model", "Hydroelastic",  "Solver",
                           "Contacts",   "Slip meter",    "Teleoperation", "Camera and layers"};
    for (const char* section : sections) {
      SetOpen("contactlab", sections, false);
      SetOpen("contactlab", {section, "keys"}, true);
      for (int i = 0; i < 3; ++i) Frame();
      ASSERT_TRUE(ImGui::FindWindowByName("contactlab")->ScrollbarY) << section;
      EXPECT_LE(Overflow("contactlab"), 0.5f) << section << ": a row is cut off at its right edge";
    }
    height_ = 900;
  }

  float height_ = 900;
  Snapshot snapshot_;
  UiState ui_;
  InspectState inspect_;
};

TEST_F(PanelsAt1440x900, EveryLabelFitsItsPanel) {
  // The sidebar's sections, then the plots and the Inspect window opened, at 1440 × 900.
  ExpectEverySectionFits();
  ImGui::SetWindowCollapsed("Inspect", false);
  for (int i = 0; i < 3; ++i) Frame();
  ASSERT_FALSE(ImGui::FindWindowByName("Inspect")->Collapsed);
  for (const char* window : {"Plots", "Inspect", "Calibrate"}) {
    EXPECT_LE(Overflow(window), 0.5f) << window << ": a row is cut off at its right edge";
  }
}

// Under the rigid model (docs/contact-model.md §8) the Solver panel shows the rigid stage's
// rows, here with their longest values, and the contact read-outs theirs; the ghost's combo
// offers it.
TEST_F(PanelsAt1440x900, EveryLabelFitsItsPanelUnderTheRigidModel) {
  snapshot_.contact_settings.approximation = ContactApproximation::kDrumwrightShell;
  RigidContactStats& rigid = snapshot_.stats.rigid;
  rigid.num_active = 128;
  rigid.passes = 12;
  rigid.solver.num_contacts = 128;
  rigid.solver.phase1_rank = 127;
  rigid.solver.phase1_residual = 1.23e-10;
  rigid.solver.outer_iterations = 60;
  rigid.solver.inner_iterations = 12000;
  rigid.solver.duality_gap = 1.23e-10;
  rigid.solver.tangential_residual = 1.23e-10;
  rigid.solver.least_squares = true;
  rigid.solver.converged = false;
  inspect_.ghost_approximation = 4;  // "Drumwright-Shell"
  ExpectEverySectionFits();
  ImGui::SetWindowCollapsed("Inspect", false);
  for (int i = 0; i < 3; ++i) Frame();
  for (const char* window : {"Plots", "Inspect", "Calibrate"}) {
    EXPECT_LE(Overflow(window), 0.5f) << window << ": a row is cut off at its right edge";
  }
}

}  // namespace
}  // namespace contactlab
