// The GUI's exports with known values: time-stamped names, cropping a plot's pixels, the
// contacts CSV (the --log-contacts columns) and a visible message, not a crash, for a path that
// cannot be written.
#include "ui/panels/exports.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "app/headless/contact_log.h"
#include "render/contact_colors.h"
#include "ui/widgets/contact_color_bar.h"

namespace contactlab {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Snapshot TwoBodySnapshot() {
  auto scene = std::make_shared<SceneSpec>();
  scene->bodies.resize(2);
  scene->bodies[0].body.name = "belt";
  scene->bodies[1].body.name = "box";
  Snapshot s;
  s.scene = scene;
  s.time_s = 0.25;
  ContactResult c;
  c.body_a = 0;
  c.body_b = 1;
  c.position_W = Eigen::Vector3d(1, 2, 3);
  c.normal_W = Eigen::Vector3d::UnitZ();
  c.slip_velocity_W = Eigen::Vector3d(3, 4, 0);
  c.gliding_offset_m = 3.5e-4;
  c.state = ContactResult::State::kSlip;
  s.contacts = {c, c};
  return s;
}

// A temporary output folder of this test process (never the source checkout or $HOME).
std::string OutputDir(const std::string& name) {
  return (fs::temp_directory_path() /
          ("contactlab_exports_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// Without a path the export gets a time-stamped name in the output folder, which is created on
// this first save; a typed path is taken as it is.
TEST(Exports, AnEmptyPathIsATimestampedNameInTheOutputFolder) {
  const std::string dir = OutputDir("empty_path");
  fs::remove_all(dir);
  std::string error;
  const std::string path = ExportPath("", dir, "contactlab_contacts", "csv", &error);
  EXPECT_EQ(error, "");
  EXPECT_TRUE(fs::is_directory(dir));
  EXPECT_EQ(fs::path(path).parent_path(), fs::path(dir));
  EXPECT_TRUE(std::regex_match(fs::path(path).filename().string(),
                               std::regex(R"(contactlab_contacts_\d{8}_\d{6}\.csv)")))
      << path;
  EXPECT_EQ(ExportPath("mine.csv", dir, "x", "csv", &error), "mine.csv");

  ContactInspectorState state;
  EXPECT_EQ(ExportContacts(TwoBodySnapshot(), dir, &state), "");
  std::vector<fs::path> written;
  for (const auto& e : fs::directory_iterator(dir)) written.push_back(e.path());
  ASSERT_EQ(written.size(), 1u);
  EXPECT_NE(state.export_message.find(written[0].string()), std::string::npos);
  EXPECT_EQ(ReadFile(written[0].string()).rfind(kContactCsvHeader, 0), 0u);
  fs::remove_all(dir);
}

TEST(Exports, CropsARectangleClippedToTheImage) {
  // A 4 × 3 image whose pixel (x, y) has red = 10·y + x.
  std::vector<uint8_t> rgba(4 * 3 * 4);
  for (int y = 0; y < 3; ++y) {
    for (int x = 0; x < 4; ++x) rgba[(y * 4 + x) * 4] = static_cast<uint8_t>(10 * y + x);
  }
  int w = 0, h = 0;
  const std::vector<uint8_t> crop = CropRgba(rgba, 4, 3, 1, 1, 9, 9, &w, &h);
  ASSERT_EQ(w, 3);
  ASSERT_EQ(h, 2);
  ASSERT_EQ(crop.size(), 3u * 2u * 4u);
  EXPECT_EQ(crop[0], 11);
  EXPECT_EQ(crop[(1 * 3 + 2) * 4], 23);
  EXPECT_TRUE(CropRgba(rgba, 4, 3, 5, 0, 9, 3, &w, &h).empty());
  EXPECT_EQ(w, 0);
}

TEST(Exports, ContactsCsvHasTheContactLogColumnsAndARowPerContact) {
  const std::string path =
      (fs::temp_directory_path() / ("contactlab_export_" + std::to_string(::getpid()) + ".csv"))
          .string();
  ContactInspectorState state;
  std::snprintf(state.contacts_csv_path, sizeof state.contacts_csv_path, "%s", path.c_str());
  EXPECT_EQ(ExportContacts(TwoBodySnapshot(), OutputDir("unused"), &state), "");
  EXPECT_FALSE(state.export_failed);
  EXPECT_NE(state.export_message.find(path), std::string::npos);
  const std::string csv = ReadFile(path);
  std::istringstream lines(csv);
  std::string header, row;
  std::getline(lines, header);
  EXPECT_EQ(header, kContactCsvHeader);
  int rows = 0;
  while (std::getline(lines, row)) {
    ++rows;
    EXPECT_EQ(row.rfind("0.25,belt,box,1,2,3,0,0,1,", 0), 0u) << row;
    EXPECT_NE(row.find(",5,"), std::string::npos) << row;  // slip speed |(3, 4, 0)|
    EXPECT_NE(row.find(",slip,0.00035,"), std::string::npos) << row;
  }
  EXPECT_EQ(rows, 2);
  fs::remove(path);
}

TEST(Exports, AnUnwritablePathIsAMessageNotACrash) {
  ContactInspectorState state;
  std::snprintf(state.contacts_csv_path, sizeof state.contacts_csv_path, "%s",
                "/nonexistent_dir/contacts.csv");
  const std::string error = ExportContacts(TwoBodySnapshot(), OutputDir("unused"), &state);
  EXPECT_NE(error.find("/nonexistent_dir/contacts.csv"), std::string::npos) << error;
  EXPECT_TRUE(state.export_failed);
  EXPECT_EQ(state.export_message, error);
  PlotViewState view;  // never drawn: an empty rectangle
  std::snprintf(state.plot_png_path, sizeof state.plot_png_path, "%s", "/tmp/unused.png");
  EXPECT_NE(ExportPlotPng(std::vector<uint8_t>(16 * 16 * 4), 16, 16, 1.0f, view,
                          OutputDir("unused"), &state),
            "");
  EXPECT_TRUE(state.export_failed);
  view.rect_x1 = view.rect_y1 = 8;
  std::snprintf(state.plot_png_path, sizeof state.plot_png_path, "%s", "/nonexistent_dir/p.png");
  EXPECT_NE(ExportPlotPng(std::vector<uint8_t>(16 * 16 * 4), 16, 16, 1.0f, view,
                          OutputDir("unused"), &state),
            "");
}

TEST(ContactColorBar, LabelsInTheUnitOfTheTop) {
  EXPECT_EQ(FormatContactValue(0, 5e-4, ContactColorMode::kGliding), "0");
  EXPECT_EQ(FormatContactValue(3.3e-15, 3.3e-15, ContactColorMode::kGliding), "0");
  EXPECT_EQ(FormatContactValue(5e-8, 5e-8, ContactColorMode::kGliding), "0.05 \u00b5m");
  EXPECT_EQ(FormatContactValue(3.1e-4, 5e-4, ContactColorMode::kGliding), "0.31 mm");
  EXPECT_EQ(FormatContactValue(2.5e-5, 5e-5, ContactColorMode::kGliding), "25 \u00b5m");
  EXPECT_EQ(FormatContactValue(0.25, 0.5, ContactColorMode::kSlip), "0.25 m/s");
  EXPECT_EQ(FormatContactValue(0.04, 0.05, ContactColorMode::kSlip), "40 mm/s");
  EXPECT_EQ(FormatContactValue(250e-6, 5e-4, ContactColorMode::kGliding), "0.25 mm");
  EXPECT_EQ(FormatContactValue(0.05, 0.09, ContactColorMode::kGliding), "50 mm");
  EXPECT_EQ(FormatContactValue(120, 200, ContactColorMode::kGliding), "120 m");
  EXPECT_EQ(FormatContactValue(1.5, 2, ContactColorMode::kSlip), "1.5 m/s");
  // Stacked above the pressure bar when both show, at its place otherwise.
  const ColorBarRect alone = ContactColorBarRect(800, 500, false);
  const ColorBarRect above = ContactColorBarRect(800, 500, true);
  const ColorBarRect pressure = PressureColorBarRect(800, 500);
  EXPECT_EQ(alone.y1, pressure.y1);
  EXPECT_LT(above.y1, pressure.y0);
}

}  // namespace
}  // namespace contactlab
