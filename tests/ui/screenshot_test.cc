// The GUI through the real binary: `contactlab --screenshot` for every built-in scene (under
// Xvfb; skipped without a display), the contact point colour of a resting box (also under the
// rigid model), and the clean failure without a display.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include "io/scene_loader.h"
#include "render/body_colors.h"
#include "render/palette.h"
#include "render/rgb8.h"
#include "test_support/build_paths.h"
#include "test_support/color_map_pixels.h"
#include "test_support/display.h"
#include "test_support/temp_path.h"
#include "ui/panels/panels.h"
#include "ui/view/camera_views.h"
#include "ui/view/gliding_overlay.h"
#include "ui/widgets/contact_color_bar.h"
#include "ui/widgets/pressure_color_bar.h"

namespace {

namespace fs = std::filesystem;

struct Result {
  int exit_code = -1;
  std::string output;
};

// Runs contactlab with a small window (llvmpipe is slow).
Result RunContactlab(const std::string& args, const std::string& env = "") {
  const std::string command = env + " CONTACTLAB_WINDOW_SIZE=640x480 " +
                              contactlab::testing::ContactlabBinary() + " " + args + " 2>&1";
  Result r;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  while (fgets(buffer, sizeof buffer, pipe)) r.output += buffer;
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

using contactlab::testing::TempPath;

struct Image {
  int w = 0, h = 0;
  std::vector<uint8_t> rgb;  // 3 bytes per pixel
  bool ok() const { return w > 0 && h > 0; }
};

Image LoadPng(const std::string& path) {
  Image img;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &img.w, &img.h, &channels, 3);
  if (!data) return Image{};
  img.rgb.assign(data, data + static_cast<size_t>(img.w) * img.h * 3);
  stbi_image_free(data);
  return img;
}

// The part of the window the panels leave to the scene.
struct Region {
  int x0, y0, x1, y1;
};
Region SceneRegion(const Image& img) {
  const contactlab::PanelLayout l = contactlab::ComputePanelLayout(img.w, img.h, true);
  return {static_cast<int>(l.sidebar_w) + 2, 0, img.w, img.h - static_cast<int>(l.plots_h) - 2};
}

template <typename F>
void ForEachPixel(const Image& img, const Region& r, F f) {
  for (int y = r.y0; y < r.y1; ++y) {
    for (int x = r.x0; x < r.x1; ++x) {
      const uint8_t* p = &img.rgb[(static_cast<size_t>(y) * img.w + x) * 3];
      f(p[0], p[1], p[2]);
    }
  }
}

// Number of distinct colours after quantizing to 5 bits per channel.
size_t DistinctColours(const Image& img, const Region& r) {
  std::set<uint32_t> colours;
  ForEachPixel(img, r, [&](int red, int green, int blue) {
    colours.insert((red >> 3) << 10 | (green >> 3) << 5 | (blue >> 3));
  });
  return colours.size();
}

// Fraction of the pixels that have the most common colour (the clear colour of an empty frame).
double DominantColourFraction(const Image& img, const Region& r) {
  std::map<uint32_t, size_t> counts;
  size_t best = 0, total = 0;
  ForEachPixel(img, r, [&](int red, int green, int blue) {
    best = std::max(best, ++counts[red << 16 | green << 8 | blue]);
    ++total;
  });
  return total ? static_cast<double>(best) / total : 1.0;
}

// Pixels of a clearly coloured thing (bodies, contact points, arrows): the sky, the ground, the
// grid and shadows are all close to grey.
size_t ColouredPixels(const Image& img, const Region& r) {
  size_t n = 0;
  ForEachPixel(img, r, [&](int red, int green, int blue) {
    n += std::max({red, green, blue}) - std::min({red, green, blue}) >= 40;
  });
  return n;
}

// Pixels within ±tolerance per channel of a colour.
size_t PixelsNear(const Image& img, const Region& r, contactlab::Rgb8 c, int tolerance) {
  size_t n = 0;
  ForEachPixel(img, r, [&](int red, int green, int blue) {
    n += std::abs(red - c.r) <= tolerance && std::abs(green - c.g) <= tolerance &&
         std::abs(blue - c.b) <= tolerance;
  });
  return n;
}

// Pixels within ±tolerance per channel of some colour of the pressure colour map; those inside
// `exclude` (e.g. the colour bar) are counted in *excluded instead.
size_t ColorMapPixels(const Image& img, const Region& r, int tolerance, const Region& exclude,
                      size_t* excluded) {
  size_t n = 0;
  *excluded = 0;
  for (int y = r.y0; y < r.y1; ++y) {
    for (int x = r.x0; x < r.x1; ++x) {
      const uint8_t* p = &img.rgb[(static_cast<size_t>(y) * img.w + x) * 3];
      if (!contactlab::testing::IsColorMapPixel(p, tolerance)) continue;
      const bool in_excluded =
          x >= exclude.x0 && x < exclude.x1 && y >= exclude.y0 && y < exclude.y1;
      (in_excluded ? *excluded : n) += 1;
    }
  }
  return n;
}

// Writes a scene file (the path form of --scene) of a 1 kg box, 0.1 × 0.1 × height_m, at
// z = z_m over a static ground with point contact; returns its path.
std::string WriteBoxOnGroundScene(const std::string& name, const std::string& z_m,
                                  const std::string& height_m) {
  const std::string path = TempPath(name + ".yaml");
  std::ofstream out(path);
  out << "scene: " << name
      << "\n"
         "dt: 1.0e-3\n"
         "duration: 1.0\n"
         "model: lagged\n"
         "default_contact: {stiffness: 1.0e6, hunt_crossley: 50.0, relaxation_time: 0.1, "
         "friction: 0.5}\n"
         "bodies:\n"
         "  - name: ground\n"
         "    type: static\n"
         "    shapes: [{type: half_space, stiffness: .inf}]\n"
         "  - name: box\n"
         "    mass: 1.0\n"
         "    position: [0, 0, "
      << z_m << "]\n    shapes: [{type: box, size: [0.1, 0.1, " << height_m << "]}]\n";
  return path;
}

std::vector<std::string> BuiltinScenes() {
  std::vector<std::string> names;
  for (const auto& e :
       fs::directory_iterator(fs::path(contactlab::testing::SourceDirectory()) / "assets/scenes")) {
    if (e.path().extension() == ".yaml") names.push_back(e.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(Screenshot, NoDisplayIsOneClearErrorAndExitCode2) {
  const std::string png = TempPath("nodisplay.png");
  const Result r = RunContactlab("--screenshot " + png + " --frames 2 --scene falling_sphere",
                                 "env -u DISPLAY -u WAYLAND_DISPLAY");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("display"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  EXPECT_FALSE(fs::exists(png));
}

TEST(Screenshot, BadArgumentsFailBeforeOpeningAWindow) {
  Result r = RunContactlab("--screenshot /tmp/x.png --frames 0");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  r = RunContactlab("--screenshot /tmp/x.png --frames 2 --scene no_such_scene");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no_such_scene"), std::string::npos) << r.output;
  r = RunContactlab("--headless --screenshot /tmp/x.png --frames 2");
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

class BuiltinSceneScreenshot : public ::testing::TestWithParam<std::string> {};

TEST_P(BuiltinSceneScreenshot, ShowsTheScene) {
  CONTACTLAB_REQUIRE_DISPLAY();
  const std::string png = TempPath(GetParam() + ".png");
  const Result r = RunContactlab("--screenshot " + png + " --frames 6 --scene " + GetParam());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Image img = LoadPng(png);
  ASSERT_TRUE(img.ok()) << png;
  EXPECT_EQ(img.w, 640);
  EXPECT_EQ(img.h, 480);
  // Where the panels leave room: a lit, shaded scene with coloured bodies, not a flat clear.
  const Region scene = SceneRegion(img);
  EXPECT_GT(DistinctColours(img, scene), 30u) << png;
  EXPECT_LT(DominantColourFraction(img, scene), 0.85) << png;
  EXPECT_GT(ColouredPixels(img, scene), 300u) << png;
  // The panels are drawn: the sidebar is not the scene's background.
  EXPECT_GT(DistinctColours(img, Region{0, 0, scene.x0 - 2, img.h}), 20u) << png;
  if (!HasFailure()) fs::remove(png);
}

INSTANTIATE_TEST_SUITE_P(AllScenes, BuiltinSceneScreenshot, ::testing::ValuesIn(BuiltinScenes()),
                         [](const auto& info) { return info.param; });

TEST(Screenshot, RestingBoxShowsStickingContactPoints) {
  CONTACTLAB_REQUIRE_DISPLAY();
  // A box resting on the ground, from a scene file (the path form of --scene).
  const std::string scene = WriteBoxOnGroundScene("resting_box", "0.05", "0.1");
  for (const std::string& s : {scene, std::string("incline")}) {
    const std::string png = TempPath("stick.png");
    const Result r = RunContactlab("--screenshot " + png + " --frames 10 --scene " + s);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const Image img = LoadPng(png);
    ASSERT_TRUE(img.ok());
    EXPECT_GE(PixelsNear(img, SceneRegion(img), contactlab::kStickColor, 10), 20u) << s;
    if (!HasFailure()) fs::remove(png);
  }
  fs::remove(scene);
}

// The rigid model (docs/contact-model.md §8) through the window: a box resting on the ground
// and the sphere of falling_sphere, rolling by 0.5 s (30 frames), have their contacts pressed
// and sticking (a rolling contact does not slip; the least-squares polish makes it stick
// exactly), drawn as points in the stick colour as under the compliant models.
TEST(Screenshot, TheRigidModelDrawsItsStickingContactPoints) {
  CONTACTLAB_REQUIRE_DISPLAY();
  const std::string box = WriteBoxOnGroundScene("rigid_box", "0.05", "0.1");
  for (const std::string& s : {box, std::string("falling_sphere")}) {
    const std::string png = TempPath("rigid.png");
    const Result r =
        RunContactlab("--screenshot " + png + " --frames 30 --model drumwright_shell --scene " + s);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const Image img = LoadPng(png);
    ASSERT_TRUE(img.ok());
    EXPECT_GE(PixelsNear(img, SceneRegion(img), contactlab::kStickColor, 10), 20u) << s;
    EXPECT_LT(PixelsNear(img, SceneRegion(img), contactlab::kSlipColor, 10), 5u) << s;
    if (!HasFailure()) fs::remove(png);
  }
  fs::remove(box);
}

TEST(Screenshot, HydroBoxShowsThePressurePatchAndItsColourBar) {
  CONTACTLAB_REQUIRE_DISPLAY();
  // The box's bottom face is a pressure patch on the ground: drawn in the colour map's colours
  // (through the box), with the colour bar in the scene's bottom-right corner. A box on point
  // contact has neither.
  const std::string point_scene = WriteBoxOnGroundScene("hydro_box_point", "0.026", "0.05");
  for (const std::string& s : {std::string("hydro_box"), point_scene}) {
    const std::string png = TempPath("hydro.png");
    const Result r = RunContactlab("--screenshot " + png + " --frames 20 --scene " + s);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const Image img = LoadPng(png);
    ASSERT_TRUE(img.ok());
    const contactlab::PanelLayout layout = contactlab::ComputePanelLayout(img.w, img.h, true);
    const contactlab::ColorBarRect bar =
        contactlab::PressureColorBarRect(static_cast<float>(img.w), img.h - layout.plots_h);
    const Region bar_region{static_cast<int>(bar.x0), static_cast<int>(bar.y0),
                            static_cast<int>(bar.x1), static_cast<int>(bar.y1)};
    size_t in_bar = 0;
    const size_t patch = ColorMapPixels(img, SceneRegion(img), 2, bar_region, &in_bar);
    if (s == "hydro_box") {
      EXPECT_GT(patch, 300u) << png;
      EXPECT_GT(in_bar, 1000u) << png;
    } else {
      EXPECT_LT(patch, 20u) << png;
      EXPECT_LT(in_bar, 20u) << png;
    }
    if (!HasFailure()) fs::remove(png);
  }
  fs::remove(point_scene);
}

Region ToRegion(const contactlab::ColorBarRect& r) {
  return {static_cast<int>(r.x0), static_cast<int>(r.y0), static_cast<int>(r.x1),
          static_cast<int>(r.y1)};
}

TEST(Screenshot, ConveyorInTheGlidingColourModeShowsItsColourBarAndOverlay) {
  CONTACTLAB_REQUIRE_DISPLAY();
  // The box slides on the belt with SAP (gliding offset up to ~1 cm, conveyor.yaml): its contact
  // points take colours of the map (not the state colours), the gliding colour bar shows in the
  // scene's bottom-right corner, and the gliding overlay's line is drawn. By state: no bar.
  for (const std::string mode : {"gliding", "state"}) {
    const std::string png = TempPath("conveyor_" + mode + ".png");
    const Result r =
        RunContactlab("--screenshot " + png +
                      " --frames 40 --scene conveyor --model sap --contact-colors " + mode);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const Image img = LoadPng(png);
    ASSERT_TRUE(img.ok());
    const contactlab::PanelLayout layout = contactlab::ComputePanelLayout(img.w, img.h, true);
    const Region bar = ToRegion(
        contactlab::ContactColorBarRect(static_cast<float>(img.w), img.h - layout.plots_h, false));
    size_t in_bar = 0;
    const size_t markers = ColorMapPixels(img, SceneRegion(img), 2, bar, &in_bar);
    EXPECT_GT(PixelsNear(img, SceneRegion(img), contactlab::kGlidingLineColor, 6), 10u) << png;
    const size_t state_markers = PixelsNear(img, SceneRegion(img), contactlab::kSlipColor, 10) +
                                 PixelsNear(img, SceneRegion(img), contactlab::kStickColor, 10);
    if (mode == "gliding") {
      EXPECT_GT(in_bar, 1000u) << png;
      EXPECT_GT(markers, 20u) << png;
      EXPECT_LT(state_markers, 5u) << png;
    } else {
      EXPECT_LT(in_bar, 20u) << png;
      EXPECT_GT(state_markers, 20u) << png;
    }
    if (!HasFailure()) fs::remove(png);
  }
}

TEST(Screenshot, ContactViewsFromTheCommandLineDrawSlipArrowsAndThePatchWireframe) {
  CONTACTLAB_REQUIRE_DISPLAY();
  // The box slides on the belt: with --contact-view slip its contacts carry teal slip arrows
  // (none by default); hydro_box's pressure patch with --contact-view wireframe is outlined in
  // the edge colour (the colour bar's white labels are there either way: the difference counts).
  auto shot = [](const std::string& name, const std::string& args) {
    const std::string png = TempPath(name + ".png");
    const Result r = RunContactlab("--screenshot " + png + " --frames 40 " + args);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    Image img = LoadPng(png);
    EXPECT_TRUE(img.ok()) << png;
    fs::remove(png);
    return img;
  };
  const Image slip = shot("slip", "--scene conveyor --contact-view slip --vector-scale fixed");
  const Image plain = shot("plain", "--scene conveyor");
  ASSERT_TRUE(slip.ok() && plain.ok());
  EXPECT_GT(PixelsNear(slip, SceneRegion(slip), contactlab::kSlipVelocityColor, 40), 50u);
  EXPECT_LT(PixelsNear(plain, SceneRegion(plain), contactlab::kSlipVelocityColor, 40), 5u);
  const Image wire = shot("wire", "--scene hydro_box --contact-view wireframe");
  const Image solid = shot("solid", "--scene hydro_box");
  ASSERT_TRUE(wire.ok() && solid.ok());
  EXPECT_GT(PixelsNear(wire, SceneRegion(wire), contactlab::kPatchEdgeColor, 6),
            PixelsNear(solid, SceneRegion(solid), contactlab::kPatchEdgeColor, 6) + 150u);
}

TEST(Screenshot, ABadContactColourModeIsOneClearErrorAndExitCode2) {
  const Result r = RunContactlab("--screenshot /tmp/x.png --contact-colors pressure");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--contact-colors must be state, gliding or slip"), std::string::npos)
      << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
}

}  // namespace

namespace {

// Pixels tinted towards the ghost's colour (cyan): blue and green well above red.
size_t CyanPixels(const Image& img) {
  const Region scene = SceneRegion(img);
  size_t n = 0;
  for (int y = scene.y0; y < scene.y1; ++y) {
    for (int x = scene.x0; x < scene.x1; ++x) {
      const uint8_t* p = &img.rgb[(static_cast<size_t>(y) * img.w + x) * 3];
      if (p[2] > p[0] + 60 && p[1] > p[0] + 40) ++n;
    }
  }
  return n;
}

TEST(Screenshot, TheGhostIsDrawnSeeThroughInItsColour) {
  CONTACTLAB_REQUIRE_DISPLAY();
  size_t cyan[2] = {0, 0};
  for (int with_ghost = 0; with_ghost < 2; ++with_ghost) {
    const std::string png = TempPath("ghost.png");
    const Result r = RunContactlab("--screenshot " + png + " --frames 60 --scene falling_sphere" +
                                   (with_ghost ? " --ghost sap" : ""));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const Image img = LoadPng(png);
    ASSERT_TRUE(img.ok());
    cyan[with_ghost] = CyanPixels(img);
    if (!HasFailure()) fs::remove(png);
  }
  // The resting sphere, tinted by the ghost resting in the same place (a few hundred pixels).
  EXPECT_LT(cyan[0], 50u);
  EXPECT_GT(cyan[1], 250u) << "without " << cyan[0] << ", with the ghost " << cyan[1];
  EXPECT_EQ(RunContactlab("--headless --ghost sap --scene clutter").exit_code, 2);
  EXPECT_EQ(RunContactlab("--screenshot x.png --ghost fast --scene clutter").exit_code, 2);
}

}  // namespace

namespace {

// Pixels of a lit body of sRGB colour c: shading scales a colour (about equally per channel
// in sRGB, whose gamma is close to a power law), so the chromaticity r:g:b/(r+g+b) stays within
// `tolerance`; too dark a pixel says nothing about its hue. `exclude`: a rectangle not counted.
size_t BodyPixels(const Image& img, const Region& r, const Eigen::Vector3f& c, float tolerance,
                  const Region& exclude) {
  const Eigen::Vector3f chroma = c / c.sum();
  size_t n = 0;
  for (int y = r.y0; y < r.y1; ++y) {
    for (int x = r.x0; x < r.x1; ++x) {
      if (x >= exclude.x0 && x < exclude.x1 && y >= exclude.y0 && y < exclude.y1) continue;
      const uint8_t* p = &img.rgb[(static_cast<size_t>(y) * img.w + x) * 3];
      const Eigen::Vector3f q(p[0], p[1], p[2]);
      if (q.sum() < 90) continue;
      n += (q / q.sum() - chroma).cwiseAbs().maxCoeff() <= tolerance;
    }
  }
  return n;
}

Eigen::Vector3f SceneBodyColor(const contactlab::SceneSpec& scene, const std::string& name) {
  const int b = scene.FindBody(name);
  if (b < 0) return Eigen::Vector3f::Zero();
  const contactlab::SceneBody& sb = scene.bodies[b];
  return sb.color ? Eigen::Vector3f(sb.color->cast<float>())
                  : contactlab::ToFloat(contactlab::BodyColor(b, sb.kind));
}

// Issue 13: the task camera (peg_in_hole's default main view) and the wrist camera show the
// peg and the block with the hole large enough to judge the alignment: each visible, together
// at least 5 % of the part of the window the panels leave (the inset's pixels not counted).
TEST(Screenshot, PegInHoleTaskAndWristCamerasShowThePegAndTheHole) {
  CONTACTLAB_REQUIRE_DISPLAY();
  const contactlab::SceneSpec scene =
      contactlab::LoadSceneFile(contactlab::ResolveScenePath("peg_in_hole"));
  const Eigen::Vector3f peg = SceneBodyColor(scene, "peg");
  const Eigen::Vector3f block = SceneBodyColor(scene, "block");
  ASSERT_GT((peg / peg.sum() - block / block.sum()).cwiseAbs().maxCoeff(), 0.1f);
  for (const std::string camera : {"", "wrist"}) {
    SCOPED_TRACE("camera " + camera);
    const std::string png = TempPath("peg_in_hole_camera_" + camera + ".png");
    // The GUI's default window size (the issue's), not the small one of the other tests.
    const Result r = RunContactlab("--screenshot " + png +
                                   " --window-size 1280x720 --frames 30 --scene peg_in_hole" +
                                   (camera.empty() ? "" : " --camera " + camera));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const Image img = LoadPng(png);
    ASSERT_TRUE(img.ok()) << png;
    const Region region = SceneRegion(img);
    const contactlab::InsetRect inset =
        contactlab::ComputeInsetRect(img.w, img.h, contactlab::CameraViews{}.inset_height_fraction);
    const Region exclude{static_cast<int>(inset.x) - 3, static_cast<int>(inset.y) - 3,
                         static_cast<int>(inset.x + inset.w) + 3,
                         static_cast<int>(inset.y + inset.h) + 3};
    const size_t peg_px = BodyPixels(img, region, peg, 0.03f, exclude);
    const size_t block_px = BodyPixels(img, region, block, 0.03f, exclude);
    const double area = static_cast<double>(region.x1 - region.x0) * (region.y1 - region.y0);
    std::printf("camera '%s': peg %zu px, block %zu px, %.1f %% of %0.f px (%s)\n", camera.c_str(),
                peg_px, block_px, 100.0 * (peg_px + block_px) / area, area, png.c_str());
    EXPECT_GT(peg_px, 0.005 * area) << png;
    EXPECT_GT(block_px, 0.005 * area) << png;
    EXPECT_GE(peg_px + block_px, 0.05 * area) << png;
    if (!HasFailure() && !std::getenv("CONTACTLAB_KEEP_SCREENSHOTS")) fs::remove(png);
  }
}

TEST(Screenshot, AnUnknownCameraIsOneLineListingTheScenesCamerasAndExitCode2) {
  const Result r = RunContactlab("--screenshot /tmp/x.png --scene peg_in_hole --camera elbow");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--camera elbow"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("free, task, wrist"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
}

}  // namespace

namespace {

TEST(Screenshot, PegInHoleShowsTheAlignmentAids) {
  CONTACTLAB_REQUIRE_DISPLAY();
  // At the start the peg hangs 10 cm beside the hole: its axis lands outside (orange), and the
  // hole's rim is outlined (yellow); both drawn unshaded, in their exact colours.
  const std::string png = TempPath("alignment.png");
  const Result r = RunContactlab("--screenshot " + png +
                                 " --frames 10 --window-size 1280x720 --scene peg_in_hole");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Image img = LoadPng(png);
  ASSERT_TRUE(img.ok());
  EXPECT_GE(PixelsNear(img, SceneRegion(img), contactlab::kHoleOutlineColor, 12), 40u) << png;
  EXPECT_GE(PixelsNear(img, SceneRegion(img), contactlab::kMisalignedColor, 12), 20u) << png;
  if (!HasFailure()) fs::remove(png);
}

// --gui-stats writes the run's frame statistics as JSON; with --fixed-quality the quality stays at
// the best level whatever the frame rate. (The automatic quality stepping down on slow frames is
// tested in frames of a known period: ApplicationQuality in application_test.cc.)
TEST(GuiStats, FixedQualityKeepsTheBestLevelAndTheJsonSaysSoWithTheFrameCost) {
  CONTACTLAB_REQUIRE_DISPLAY();
  // The value of a key of the JSON the run wrote.
  const auto field = [](const std::string& json, const std::string& key) {
    const size_t at = json.find("\"" + key + "\":");
    if (at == std::string::npos) return std::string();
    const size_t value = json.find_first_not_of(' ', at + key.size() + 3);
    return json.substr(value, 40);
  };
  const std::string json_path = TempPath("gui_stats_fixed.json");
  const Result r = RunContactlab(
      "--scene falling_sphere --window-size 640x480 --duration 1 --fixed-quality --gui-stats " +
      json_path);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(json_path);
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fs::remove(json_path);
  ASSERT_FALSE(json.empty());
  EXPECT_GT(std::stoi(field(json, "frames")), 0) << json;
  EXPECT_EQ(std::stoi(field(json, "changes")), 0) << json;
  EXPECT_EQ(field(json, "label").rfind("\"MSAA 4x, soft shadows 1024x1024\"", 0), 0u) << json;
  // Where the frames' time went: the 3-D view's share is measured (its first field, the mean).
  const size_t cost = json.find("\"frame_cost_ms\": {\"scene\":");
  ASSERT_NE(cost, std::string::npos) << json;
  EXPECT_GT(std::stod(field(json.substr(cost), "mean")), 0.0) << json;
}

}  // namespace
