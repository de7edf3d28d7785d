// Error control in the window (docs/contact-model.md §1.2, issue 37): a scene stepped under
// error control draws the body that drove the step's error tinted towards kStepErrorColor
// (RenderLayers::step_error); the same scene at a fixed step has no error and no tint. Stepped
// frames: the simulated time follows the frames (StepSimToTime), never the wall clock.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cstdint>
#include <string>
#include <vector>

#include "io/scene_loader.h"
#include "test_support/display.h"
#include "ui/application.h"

namespace contactlab {
namespace {

ApplicationOptions FallingSphere(const TimeIntegration& integrator) {
  ApplicationOptions o;
  o.scene = o.scene_defaults = LoadSceneFile(ResolveScenePath("falling_sphere"));
  o.scene.contact_settings.integrator = integrator;
  o.scene_name = "falling_sphere";
  o.width = 640;
  o.height = 480;
  o.visible = false;
  o.vsync = false;
  o.render_thread_nice = 0;
  o.input = "keyboard";
  return o;
}

// Pixels of the error colour as lit (red well above green and blue) in the 3-D view right of
// the sidebar and above the plots (whose legends have red squares): no body hue is that
// saturated (render/body_colors.h), nor the ground.
size_t ErrorTintedPixels(const std::string& png) {
  int w = 0, h = 0, channels = 0;
  unsigned char* data = stbi_load(png.c_str(), &w, &h, &channels, 3);
  EXPECT_NE(data, nullptr) << png;
  if (!data) return 0;
  size_t n = 0;
  for (int y = h / 10; y < 6 * h / 10; ++y) {
    for (int x = 4 * w / 10; x < w; ++x) {
      const unsigned char* p = data + 3 * (static_cast<size_t>(y) * w + x);
      if (p[0] > 120 && p[1] < p[0] / 3 && p[2] < p[0] / 3) ++n;
    }
  }
  stbi_image_free(data);
  return n;
}

TEST(StepErrorView, TheBodyThatDroveTheErrorIsTintedUnderErrorControlOnly) {
  CONTACTLAB_REQUIRE_DISPLAY();
  const std::string error_png = ::testing::TempDir() + "/step_error_sphere.png";
  const std::string fixed_png = ::testing::TempDir() + "/fixed_step_sphere.png";
  {
    Application app(FallingSphere(TimeIntegration::ErrorControlled(1e-4)));
    app.Screenshot(6, error_png);  // 6 frames of 1/60 s, the last framed on the sphere
    // Frames by simulated time, the steps' sizes varying: 0.1 s, within a step of δt_max past.
    const FrameStats s = app.RunFrames(0);
    EXPECT_GE(s.sim_time_s, 0.1 - 1e-9);
    EXPECT_LT(s.sim_time_s, 0.1 + 5e-4);
  }
  {
    Application app(FallingSphere(TimeIntegration{}));
    app.Screenshot(6, fixed_png);
  }
  EXPECT_GT(ErrorTintedPixels(error_png), 200u) << error_png;
  EXPECT_LT(ErrorTintedPixels(fixed_png), 20u) << fixed_png;
}

}  // namespace
}  // namespace contactlab
