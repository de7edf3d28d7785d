// The Calibrate window in the application (hidden window, under Xvfb; skipped without a display),
// driven by its requests and stepped frames, the fit's thread joined by the test's wait: a log
// of the sliding box fitted from a wrong start, Accept and Undo reaching the World; a bad path is
// a message and nothing else; the run's own timeline refits the values it ran with; and the
// window's plot on screen (docs/contact-model.md §10).
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <stb_image.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/scene_loader.h"
#include "test_support/display.h"
#include "test_support/run_contactlab.h"
#include "test_support/sliding_box_log.h"
#include "test_support/temp_path.h"
#include "ui/application.h"
#include "ui/panels/calibrate_panel.h"
#include "ui/widgets/plot_widget.h"

namespace contactlab {
namespace {

namespace fs = std::filesystem;
using Kind = CalibrationRequest::Kind;

using contactlab::testing::TempPath;

ApplicationOptions SlidingBox(int width = 640, int height = 480) {
  ApplicationOptions o;
  o.scene = o.scene_defaults = LoadSceneFile(ResolveScenePath("sliding_box"));
  o.scene_name = "sliding_box";
  o.width = width;
  o.height = height;
  o.visible = false;
  o.vsync = false;
  o.render_thread_nice = 0;
  o.input = "keyboard";
  return o;
}

CalibrationRequest Start(std::vector<ContactParameter> parameters, std::vector<double> initial) {
  CalibrationRequest start(Kind::kStart);
  start.parameters = std::move(parameters);
  start.initial = std::move(initial);
  return start;
}

// Fits, waiting on its thread; the outcome shows at the frame after.
void FitAndShow(Application* app, const CalibrationRequest& start) {
  app->RequestCalibration(start);
  app->RunSteppedFrames(1);
  ASSERT_TRUE(app->calibration().running || app->calibration().result.has_value());
  app->WaitForCalibration();
  app->RunSteppedFrames(1);
  EXPECT_FALSE(app->calibration().running);
  ASSERT_TRUE(app->calibration().result.has_value()) << app->calibration().error;
}

TEST(ApplicationCalibration, FitsALoadedLogAndAcceptAndUndoMoveTheSliders) {
  CONTACTLAB_REQUIRE_DISPLAY();
  Application app(SlidingBox());
  app.RunSteppedFrames(1);
  app.RequestCalibration({Kind::kLoadLog, testing::SlidingBoxLog()});
  app.RunSteppedFrames(1);
  const CalibrationPanelState& c = app.calibration();
  ASSERT_TRUE(c.reference) << c.error;
  EXPECT_EQ(c.reference_label, fs::path(testing::SlidingBoxLog()).filename().string() +
                                   ": 5000 rows, t = 0.001 to 5 s");
  FitAndShow(&app, Start({ContactParameter::kStiffness, ContactParameter::kFriction,
                          ContactParameter::kStictionTolerance},
                         {1e6, 0.7, 1e-4}));
  const CalibrationResult& r = *c.result;
  EXPECT_NEAR(r.fitted[0], 1e5, 0.01 * 1e5);
  EXPECT_NEAR(r.fitted[1], 0.4, 0.01 * 0.4);
  EXPECT_NEAR(r.fitted[2], 1e-3, 0.05 * 1e-3);
  // The table as the window shows it.
  const auto table = CalibrationTable(r);
  ASSERT_EQ(table.size(), 3u);
  EXPECT_EQ(table[0][0], "k [N/m]");
  EXPECT_EQ(table[0][1], "1e+06");
  EXPECT_NEAR(std::stod(table[0][2]), 1e5, 0.01 * 1e5);
  EXPECT_EQ(table[1][0], "mu");
  EXPECT_NEAR(std::stod(table[1][2]), 0.4, 0.01 * 0.4);
  for (const auto& row : table) EXPECT_EQ(row[4], "yes");

  app.RequestCalibration(Kind::kAccept);
  app.RunSteppedFrames(2);
  ContactSettings s = app.LatestSnapshot()->contact_settings;
  EXPECT_EQ(s.stiffness_N_per_m, r.fitted[0]) << "the World's settings hold the fit";
  EXPECT_EQ(s.friction, r.fitted[1]);
  EXPECT_EQ(s.stiction_tolerance_m_per_s, r.fitted[2]);
  app.RequestCalibration(Kind::kUndo);
  app.RunSteppedFrames(2);
  s = app.LatestSnapshot()->contact_settings;
  EXPECT_EQ(s.stiffness_N_per_m, 1e5) << "the scene's contact_overrides again";
  EXPECT_EQ(s.friction, 0.4);
  EXPECT_EQ(s.stiction_tolerance_m_per_s, 1e-3);
  EXPECT_FALSE(c.undo.has_value());
  EXPECT_EQ(app.LatestSnapshot()->contact_settings, app.LatestSnapshot()->scene->contact_settings);
}

TEST(ApplicationCalibration, ABadLogIsAMessageAndTheLastReferenceStays) {
  CONTACTLAB_REQUIRE_DISPLAY();
  Application app(SlidingBox());
  app.DropFiles({testing::SlidingBoxLog()});  // a log dropped on the window: the Calibrate window's
  app.RunSteppedFrames(1);
  const CalibrationPanelState& c = app.calibration();
  EXPECT_TRUE(c.show);
  ASSERT_TRUE(c.reference);
  const std::string loaded = c.reference_label;
  const std::string missing = TempPath("missing.csv");
  app.RequestCalibration({Kind::kLoadLog, missing});
  app.RunSteppedFrames(1);
  EXPECT_EQ(c.error, missing + ": cannot open the reference log");
  EXPECT_EQ(app.ToastTexts().back(), "calibrate: " + c.error);
  const std::string malformed = TempPath("malformed.csv");
  std::ofstream(malformed) << "t,box.px\n0.001,abc\n";
  app.RequestCalibration({Kind::kLoadLog, malformed});
  app.RunSteppedFrames(1);
  EXPECT_EQ(c.error, malformed + ":2: 'abc' is not a number");
  EXPECT_EQ(c.reference_label, loaded) << "the last reference stays";
  EXPECT_EQ(app.RunSteppedFrames(2).frames, 2);
  EXPECT_TRUE(app.calibration().reference);
}

// The sliding box runs 1 s in the window (its file's k = 1e5 N/m, μ = 0.4); its timeline, fitted
// from k = 1e6, μ = 0.7, gives those back.
TEST(ApplicationCalibration, TheRunsOwnTimelineRefitsTheValuesItRanWith) {
  CONTACTLAB_REQUIRE_DISPLAY();
  Application app(SlidingBox());
  app.RunSteppedFrames(60);
  app.RequestCalibration(Kind::kUseTimeline);
  app.RunSteppedFrames(1);
  app.WaitForCalibration();
  const CalibrationPanelState& c = app.calibration();
  ASSERT_TRUE(c.reference) << c.error;
  ASSERT_TRUE(c.reference_settings.has_value());
  EXPECT_EQ(*c.reference_settings, app.LatestSnapshot()->contact_settings);
  EXPECT_EQ(c.reference_label.rfind("the run's timeline: ", 0), 0u) << c.reference_label;
  EXPECT_EQ(c.reference->time_s.front(), 1e-3);
  EXPECT_GE(c.reference->time_s.size(), 1000u);
  FitAndShow(&app, Start({ContactParameter::kStiffness, ContactParameter::kFriction}, {1e6, 0.7}));
  EXPECT_NEAR(c.result->fitted[0], 1e5, 0.01 * 1e5);
  EXPECT_NEAR(c.result->fitted[1], 0.4, 0.01 * 0.4);
  EXPECT_LT(c.result->rms_after_m, 1e-7);
}

// Counts the pixels of the plot's rectangle within ±tolerance of a colour.
int PixelsNear(const unsigned char* rgb, int w, const PlotViewState& v, ImU32 colour) {
  const int r = colour & 0xff, g = (colour >> 8) & 0xff, b = (colour >> 16) & 0xff;
  int n = 0;
  for (int y = static_cast<int>(v.rect_y0); y < static_cast<int>(v.rect_y1); ++y) {
    for (int x = static_cast<int>(v.rect_x0); x < static_cast<int>(v.rect_x1); ++x) {
      const unsigned char* p = &rgb[3 * (static_cast<size_t>(y) * w + x)];
      n += std::abs(p[0] - r) <= 30 && std::abs(p[1] - g) <= 30 && std::abs(p[2] - b) <= 30;
    }
  }
  return n;
}

// F12's screenshot of the window after a fit of the run's timeline: its plot shows the
// reference and the fitted run in their colours. Kept as contactlab_calibrate_window.png in the
// temporary folder, to look at.
TEST(ApplicationCalibration, TheWindowPlotsTheReferenceAndTheFit) {
  CONTACTLAB_REQUIRE_DISPLAY();
  ApplicationOptions o = SlidingBox(1440, 900);
  o.output_dir = TempPath("shots");
  fs::remove_all(o.output_dir);
  Application app(o);
  app.RunSteppedFrames(90);  // 1.5 s: the box slides, slows and stops
  app.RequestCalibration(Kind::kUseTimeline);
  app.RunSteppedFrames(1);
  app.WaitForCalibration();
  FitAndShow(&app, Start({ContactParameter::kStiffness, ContactParameter::kFriction}, {3e5, 0.5}));
  app.SendKey(GLFW_KEY_F12, GLFW_PRESS);
  app.RunSteppedFrames(1);
  app.SendKey(GLFW_KEY_F12, GLFW_RELEASE);
  app.RunSteppedFrames(1);
  std::vector<fs::path> saved;
  for (const auto& e : fs::directory_iterator(o.output_dir)) saved.push_back(e.path());
  ASSERT_EQ(saved.size(), 1u);
  const fs::path kept = fs::temp_directory_path() / "contactlab_calibrate_window.png";
  fs::copy_file(saved[0], kept, fs::copy_options::overwrite_existing);
  int w = 0, h = 0, channels = 0;
  unsigned char* rgb = stbi_load(saved[0].string().c_str(), &w, &h, &channels, 3);
  ASSERT_NE(rgb, nullptr);
  ASSERT_EQ(w, 1440);
  const PlotViewState& view = app.calibration().plot_view;
  ASSERT_GT(view.rect_x1 - view.rect_x0, 100);
  ASSERT_LE(view.rect_y1, h) << "the plot is on screen";
  EXPECT_EQ(app.calibration().result->traces[app.calibration().plot_trace].column, "box.px");
  EXPECT_GT(PixelsNear(rgb, w, view, PlotSeriesColor(0)), 50) << "the reference";
  EXPECT_GT(PixelsNear(rgb, w, view, PlotSeriesColor(2)), 50) << "after the fit";
  stbi_image_free(rgb);
  fs::remove_all(o.output_dir);
}

}  // namespace
}  // namespace contactlab
