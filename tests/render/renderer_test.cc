// Offscreen rendering through a hidden GLFW window (run under `xvfb-run -a`; skipped without
// a display): lit scene, exact contact-state colours in the pixels, layers, shader errors,
// mesh caching, screenshots.
#include "render/renderer.h"

// glad provides the GL declarations; GLFW must not include the system GL header.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <glad/gl.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "app/runtime/snapshot.h"
#include "engine/world/world.h"
#include "io/png_file.h"
#include "render/camera.h"
#include "render/color_map.h"
#include "render/force_arrow_length.h"
#include "render/gl_loader.h"
#include "render/layer_texture.h"
#include "render/palette.h"
#include "render/render_error.h"
#include "render/render_layers.h"
#include "render/rgb8.h"
#include "render/shader_directory.h"
#include "render/shader_program.h"
#include "test_support/color_map_pixels.h"
#include "test_support/display.h"
#include "test_support/hydro_box_scene.h"

namespace contactlab {
namespace {

namespace fs = std::filesystem;

constexpr int kWidth = 640, kHeight = 480;

// One hidden window and context for the whole suite: creating GL contexts under Xvfb is slow.
// The suite draws into a framebuffer object of its own, not the window's: a hidden window's
// default framebuffer has no pixel ownership guarantee (its contents may be undefined), and the
// pixels must not depend on the window system.
class RendererTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!contactlab::testing::HaveDisplay()) return;  // each test then skips (or fails in CI)
    if (glfwInit() != GLFW_TRUE) {
      setup_error_ = "glfwInit failed with DISPLAY set";
      return;
    }
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SAMPLES, 4);  // what the app asks for; llvmpipe may give fewer
    window_ = glfwCreateWindow(kWidth, kHeight, "render_test", nullptr, nullptr);
    if (window_ == nullptr) {
      setup_error_ = "could not create a hidden GL 3.3 core window";
      return;
    }
    glfwMakeContextCurrent(window_);
    if (!LoadGl(reinterpret_cast<GlProcLoader>(glfwGetProcAddress))) {
      setup_error_ = "LoadGl failed";
      return;
    }
    CreateOffscreenTarget();
  }
  static void CreateOffscreenTarget() {
    glGenRenderbuffers(2, renderbuffers_);
    glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers_[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kWidth, kHeight);
    glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers_[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, kWidth, kHeight);
    glGenFramebuffers(1, &framebuffer_);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                              renderbuffers_[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                              renderbuffers_[1]);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      setup_error_ = "the offscreen framebuffer is incomplete";
    }
  }
  static void TearDownTestSuite() {
    if (framebuffer_ != 0) glDeleteFramebuffers(1, &framebuffer_);
    if (renderbuffers_[0] != 0) glDeleteRenderbuffers(2, renderbuffers_);
    framebuffer_ = 0;
    renderbuffers_[0] = renderbuffers_[1] = 0;
    if (window_ != nullptr) glfwDestroyWindow(window_);
    window_ = nullptr;
    glfwTerminate();
  }
  void SetUp() override {
    CONTACTLAB_REQUIRE_DISPLAY();
    ASSERT_TRUE(setup_error_.empty()) << setup_error_;
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    ASSERT_EQ(w, kWidth);
    ASSERT_EQ(h, kHeight);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);  // a test may have bound another
  }

  static inline GLFWwindow* window_ = nullptr;
  static inline GLuint framebuffer_ = 0;
  static inline GLuint renderbuffers_[2] = {0, 0};
  static inline std::string setup_error_;
};

// Ground half-space plus a box (and optionally more shapes) resting on it.
std::shared_ptr<SceneSpec> RestingScene(bool more_shapes) {
  auto s = std::make_shared<SceneSpec>();
  s->name = "render_test";
  s->contact_settings.dt_s = 2e-3;
  SceneBody ground;
  ground.kind = SceneBody::Kind::kStatic;
  ground.body.name = "ground";
  GeometrySpec plane;
  plane.name = "floor";
  plane.shape = Shape::HalfSpace();
  ground.geometries.push_back(plane);
  s->bodies.push_back(ground);
  auto add = [&](const std::string& name, const Shape& shape, const Eigen::Isometry3d& pose) {
    SceneBody b;
    b.body.name = name;
    GeometrySpec g;
    g.name = name;
    g.shape = shape;
    g.contact.friction = 0.8;
    b.geometries.push_back(g);
    b.body.inertia.mass_kg = 0.5;
    b.body.inertia.inertia_about_com_B = SolidInertia(shape, 0.5);
    b.initial_pose = pose;
    b.initial_velocity = Eigen::VectorXd::Zero(6);
    s->bodies.push_back(b);
  };
  Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
  pose.translation() = Eigen::Vector3d(0, 0, 0.05);
  pose.linear() = Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  add("box", Shape::Box(Eigen::Vector3d(0.08, 0.06, 0.05)), pose);
  if (more_shapes) {
    pose.setIdentity();
    pose.translation() = Eigen::Vector3d(0.05, 0.25, 0.06);
    add("sphere", Shape::Sphere(0.06), pose);
    // Cylinder and capsule lying on their sides (axis along x).
    pose.linear() = Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitY()).toRotationMatrix();
    pose.translation() = Eigen::Vector3d(0.25, -0.12, 0.045);
    add("cylinder", Shape::Cylinder(0.045, 0.2), pose);
    pose.linear() = Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitX()).toRotationMatrix();
    pose.translation() = Eigen::Vector3d(-0.2, 0.15, 0.04);
    add("capsule", Shape::Capsule(0.04, 0.16), pose);
  }
  return s;
}

Snapshot SettledSnapshot(const std::shared_ptr<SceneSpec>& scene, int steps, uint64_t gen = 1) {
  World world(*scene);
  for (int i = 0; i < steps; ++i) EXPECT_TRUE(world.Step());
  Snapshot snapshot;
  FillSnapshot(world, gen, steps, &snapshot);
  return snapshot;
}

Camera CloseCamera() {
  Camera c;
  c.target = Eigen::Vector3f(0, 0, 0.05f);
  c.distance_m = 0.9f;
  c.yaw_rad = 0.8f;
  c.pitch_rad = 0.55f;
  return c;
}

int CountColor(const std::vector<uint8_t>& rgba, Rgb8 c, int tolerance = 8) {
  int count = 0;
  for (size_t i = 0; i + 3 < rgba.size(); i += 4) {
    if (std::abs(rgba[i] - c.r) <= tolerance && std::abs(rgba[i + 1] - c.g) <= tolerance &&
        std::abs(rgba[i + 2] - c.b) <= tolerance) {
      ++count;
    }
  }
  return count;
}

int CountDistinct(const std::vector<uint8_t>& rgba) {
  std::set<uint32_t> colors;
  for (size_t i = 0; i + 3 < rgba.size(); i += 4) {
    colors.insert(rgba[i] | (rgba[i + 1] << 8) | (rgba[i + 2] << 16));
  }
  return static_cast<int>(colors.size());
}

std::vector<uint8_t> RenderToPixels(Renderer& renderer, const Snapshot& s, const Camera& camera,
                                    const RenderLayers& layers) {
  renderer.Render(s, camera, layers, kWidth, kHeight);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  std::vector<uint8_t> pixels = renderer.ReadPixels(kWidth, kHeight);
  // Debugging aid: CONTACTLAB_RENDER_DUMP_DIR=/tmp/x keeps every rendered frame as a PNG.
  if (const char* dir = std::getenv("CONTACTLAB_RENDER_DUMP_DIR")) {
    static int frame = 0;
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    WritePng(std::string(dir) + "/" + test->name() + "_" + std::to_string(frame++) + ".png", kWidth,
             kHeight, pixels);
  }
  return pixels;
}

int DifferingBytes(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  if (a.size() != b.size()) return static_cast<int>(std::max(a.size(), b.size()));
  int differing = 0;
  for (size_t i = 0; i < a.size(); ++i) differing += a[i] != b[i];
  return differing;
}

// Fraction of pixels equal to the clear colour.
double BackgroundFraction(const std::vector<uint8_t>& rgba) {
  return static_cast<double>(CountColor(rgba, Rgb8{46, 52, 62}, 0)) /
         static_cast<double>(rgba.size() / 4);
}

TEST_F(RendererTest, RestingBoxShowsLitSceneAndStickingContacts) {
  const auto scene = RestingScene(false);
  const Snapshot snapshot = SettledSnapshot(scene, 300);
  ASSERT_FALSE(snapshot.contacts.empty());
  int sticking = 0;
  for (const ContactResult& c : snapshot.contacts) {
    sticking += c.state == ContactResult::State::kStick;
  }
  ASSERT_GT(sticking, 0) << "the resting box should stick";

  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  const std::vector<uint8_t> with_points =
      RenderToPixels(renderer, snapshot, CloseCamera(), layers);
  ASSERT_EQ(with_points.size(), static_cast<size_t>(kWidth * kHeight * 4));
  EXPECT_GT(CountDistinct(with_points), 100) << "more than a cleared framebuffer";
  EXPECT_LT(BackgroundFraction(with_points), 0.5);
  EXPECT_GT(CountColor(with_points, kStickColor), 20);

  layers.contact_points = false;
  const std::vector<uint8_t> without = RenderToPixels(renderer, snapshot, CloseCamera(), layers);
  EXPECT_EQ(CountColor(without, kStickColor), 0);
  EXPECT_GT(CountDistinct(without), 100);
}

TEST_F(RendererTest, EveryContactStateHasItsExactColour) {
  const auto scene = RestingScene(false);
  Snapshot snapshot = SettledSnapshot(scene, 10);
  snapshot.contacts.clear();
  const ContactResult::State states[3] = {ContactResult::State::kStick, ContactResult::State::kSlip,
                                          ContactResult::State::kMargin};
  for (int i = 0; i < 3; ++i) {
    ContactResult c;
    c.position_W = Eigen::Vector3d(-0.15 + 0.15 * i, -0.15, 0.0);
    c.normal_W = Eigen::Vector3d::UnitZ();
    c.normal_force_W = Eigen::Vector3d(0, 0, 3);
    c.friction_force_W = Eigen::Vector3d(0, 6, 0);
    c.state = states[i];
    snapshot.contacts.push_back(c);
  }
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  const std::vector<uint8_t> pixels = RenderToPixels(renderer, snapshot, CloseCamera(), layers);
  EXPECT_GT(CountColor(pixels, kStickColor, 0), 10);
  EXPECT_GT(CountColor(pixels, kSlipColor, 0), 10);
  EXPECT_GT(CountColor(pixels, kMarginColor, 0), 10);
  // The arrows carry their colours (shaded, so only roughly).
  EXPECT_GT(CountColor(pixels, kNormalForceColor, 40), 10);
  EXPECT_GT(CountColor(pixels, kFrictionForceColor, 40), 10);

  layers.contact_points = layers.normal_forces = layers.friction_forces = false;
  const std::vector<uint8_t> none = RenderToPixels(renderer, snapshot, CloseCamera(), layers);
  EXPECT_EQ(CountColor(none, kStickColor), 0);
  EXPECT_EQ(CountColor(none, kSlipColor), 0);
  EXPECT_EQ(CountColor(none, kMarginColor), 0);
}

// A contact marker is a ball of the layer's size drawn as a flat disc (a point sprite): on
// screen π r² pixels for r = radius / (metres per pixel at its distance), in the exact colour,
// and the same behind the box as in front of it (overlays are drawn over the scene).
TEST_F(RendererTest, MarkerCoversItsBallsProjectedDisc) {
  const auto scene = RestingScene(false);
  Snapshot snapshot = SettledSnapshot(scene, 10);
  snapshot.contacts.clear();
  ContactResult c;
  c.position_W = Eigen::Vector3d(0.02, -0.03, 0.05);  // inside the box
  c.normal_W = Eigen::Vector3d::UnitZ();
  c.state = ContactResult::State::kStick;
  snapshot.contacts.push_back(c);
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  layers.normal_forces = layers.friction_forces = false;
  const Camera camera = CloseCamera();
  const float metres_per_pixel = (c.position_W.cast<float>() - camera.Eye()).norm() * 2.0f *
                                 std::tan(0.5f * camera.fov_y_rad) / kHeight;
  for (const float radius_px : {6.0f, 15.0f, 40.0f}) {
    SCOPED_TRACE(radius_px);
    layers.contact_point_size_m = 2.0 * radius_px * metres_per_pixel;
    const std::vector<uint8_t> pixels = RenderToPixels(renderer, snapshot, camera, layers);
    const double disc = M_PI * radius_px * radius_px;
    // Pixel centres inside a circle: π r² within about its perimeter's half.
    EXPECT_NEAR(CountColor(pixels, kStickColor, 0), disc, M_PI * radius_px + 4);
  }
}

// A 3-D view drawn at half the resolution and stretched over the window (BeginScene at a scene
// scale of 0.5) keeps the overlays' least sizes in window pixels: a tiny contact's marker covers
// as many window pixels as at full resolution, not four times as many.
TEST_F(RendererTest, AtHalfResolutionAMarkersLeastSizeIsInWindowPixels) {
  const auto scene = RestingScene(false);
  Snapshot snapshot = SettledSnapshot(scene, 10);
  snapshot.contacts.clear();
  ContactResult c;
  c.position_W = Eigen::Vector3d(0.02, -0.03, 0.05);  // inside the box: drawn over it
  c.normal_W = Eigen::Vector3d::UnitZ();
  c.state = ContactResult::State::kStick;
  snapshot.contacts.push_back(c);
  RenderLayers layers;
  layers.normal_forces = layers.friction_forces = false;
  layers.contact_point_size_m = 1e-5f;  // the least size applies
  // Pixels the marker changes: the frame with it against the frame without.
  const auto marker_pixels = [&](float scale) {
    Renderer renderer(ShaderDirectory());
    RenderQuality quality;
    quality.msaa_samples = 0;
    quality.scene_scale = scale;
    renderer.SetQuality(quality);
    const auto frame = [&](bool points) {
      layers.contact_points = points;
      const ViewportSize drawn = renderer.BeginScene(kWidth, kHeight);
      EXPECT_EQ(drawn, ScaledSceneSize(kWidth, kHeight, scale));
      renderer.Render(snapshot, CloseCamera(), layers, drawn.width, drawn.height);
      renderer.EndScene();
      EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
      return renderer.ReadPixels(kWidth, kHeight);
    };
    const std::vector<uint8_t> with = frame(true), without = frame(false);
    int changed = 0;
    for (size_t i = 0; i + 3 < with.size(); i += 4) {
      int d = 0;
      for (int k = 0; k < 3; ++k) d = std::max(d, std::abs(with[i + k] - without[i + k]));
      changed += d > 40;
    }
    return changed;
  };
  const int full = marker_pixels(1.0f), half = marker_pixels(0.5f);
  EXPECT_GT(full, 20);  // π 3.5² ≈ 38
  EXPECT_GT(half, full / 2);
  EXPECT_LT(half, 2 * full) << full << " window pixels at full resolution";
}

// An inset drawn after the full view in one scene reuses the full view's shadow map (the
// light's view does not depend on the camera): its pixels are those of the inset drawn alone,
// which makes its own map.
TEST_F(RendererTest, InsetAfterTheFullViewIsTheInsetAlone) {
  const auto scene = RestingScene(true);
  const Snapshot snapshot = SettledSnapshot(scene, 10);
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  Camera inset_camera = CloseCamera();
  inset_camera.yaw_rad = -0.6f;
  inset_camera.distance_m = 0.6f;
  constexpr int x = 380, y = 260, w = 240, h = 200;  // lower left corner, GL's convention
  auto draw = [&](bool full_view) {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glViewport(0, 0, kWidth, kHeight);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    renderer.BeginScene(kWidth, kHeight);
    if (full_view) renderer.Render(snapshot, CloseCamera(), layers, kWidth, kHeight);
    renderer.RenderInset(snapshot, inset_camera, layers, x, y, w, h);
    renderer.EndScene();
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    return renderer.ReadPixels(kWidth, kHeight);
  };
  const std::vector<uint8_t> alone = draw(false), after = draw(true);
  // ReadPixels is top-down: the inset's rows are kHeight − y − h … kHeight − y − 1.
  int differing = 0, shadowed = 0;
  for (int row = kHeight - y - h; row < kHeight - y; ++row) {
    for (int col = x; col < x + w; ++col) {
      const size_t i = 4 * (static_cast<size_t>(row) * kWidth + col);
      for (int k = 0; k < 3; ++k) differing += alone[i + k] != after[i + k];
      shadowed += alone[i] < 90 && alone[i + 1] < 90;  // the ground's shadows are dark grey
    }
  }
  EXPECT_EQ(differing, 0);
  EXPECT_GT(shadowed, 100);  // there are shadows in the inset to get wrong
}

// The ground has a program of its own (the grid and the fade are not computed for body pixels):
// the grid layer draws lines on the floor and leaves the box in the middle as it was.
TEST_F(RendererTest, TheGridIsDrawnOnTheGroundOnly) {
  const auto scene = RestingScene(false);
  const Snapshot snapshot = SettledSnapshot(scene, 1);
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  layers.contact_points = layers.normal_forces = layers.friction_forces = false;
  layers.grid = true;
  const std::vector<uint8_t> with = RenderToPixels(renderer, snapshot, CloseCamera(), layers);
  layers.grid = false;
  const std::vector<uint8_t> without = RenderToPixels(renderer, snapshot, CloseCamera(), layers);
  EXPECT_GT(DifferingBytes(with, without), 3000) << "grid lines on the floor";
  int box_pixels = 0, box_differing = 0;  // the box: coloured pixels (the floor is grey)
  for (size_t i = 0; i + 3 < without.size(); i += 4) {
    const int lo = std::min({without[i], without[i + 1], without[i + 2]});
    const int hi = std::max({without[i], without[i + 1], without[i + 2]});
    if (hi - lo < 40) continue;
    ++box_pixels;
    box_differing += with[i] != without[i] || with[i + 1] != without[i + 1];
  }
  EXPECT_GT(box_pixels, 2000);
  EXPECT_LT(box_differing, box_pixels / 50) << "at most the box's anti-aliased outline";
}

TEST_F(RendererTest, ReadPixelsIsTopDown) {
  // Looking down at a slant: the top of the image is background beyond the faded floor, the
  // bottom is floor.
  const auto scene = RestingScene(false);
  const Snapshot snapshot = SettledSnapshot(scene, 1);
  Renderer renderer(ShaderDirectory());
  Camera camera = CloseCamera();
  camera.pitch_rad = 0.12f;
  camera.distance_m = 3.0f;
  const std::vector<uint8_t> px = RenderToPixels(renderer, snapshot, camera, RenderLayers{});
  auto at = [&](int x, int y) {
    const size_t i = (static_cast<size_t>(y) * kWidth + x) * 4;
    return Rgb8{px[i], px[i + 1], px[i + 2]};
  };
  const Rgb8 top = at(kWidth / 2, 2), bottom = at(kWidth / 2, kHeight - 3);
  EXPECT_EQ(CountColor(std::vector<uint8_t>{top.r, top.g, top.b, 255}, Rgb8{46, 52, 62}, 2), 1)
      << int(top.r) << "," << int(top.g) << "," << int(top.b);
  EXPECT_GT(bottom.r + bottom.g + bottom.b, 3 * 100) << "floor is light grey";
}

TEST_F(RendererTest, FollowBodyKeepsTheBodyInView) {
  const auto scene = RestingScene(false);
  const Snapshot snapshot = SettledSnapshot(scene, 1);
  Renderer renderer(ShaderDirectory());
  Camera camera = CloseCamera();
  camera.target = Eigen::Vector3f(50, 50, 5);  // looking far away
  RenderLayers layers;
  layers.contact_points = layers.normal_forces = layers.friction_forces = false;
  const int body = scene->FindBody("box");
  auto centre_is_box = [&](const std::vector<uint8_t>& px) {
    const size_t i = (static_cast<size_t>(kHeight / 2) * kWidth + kWidth / 2) * 4;
    // Floor and background are grey; a dynamic body is coloured.
    const int lo = std::min({px[i], px[i + 1], px[i + 2]});
    const int hi = std::max({px[i], px[i + 1], px[i + 2]});
    return hi - lo > 30;
  };
  EXPECT_FALSE(centre_is_box(RenderToPixels(renderer, snapshot, camera, layers)));
  camera.follow_body = body;
  EXPECT_TRUE(centre_is_box(RenderToPixels(renderer, snapshot, camera, layers)));
}

TEST_F(RendererTest, MeshesAreBuiltOncePerDistinctShapeAndScene) {
  auto scene = RestingScene(true);
  // A second box identical to the first shares its mesh.
  scene->bodies.push_back(scene->bodies[1]);
  scene->bodies.back().body.name = "box2";
  scene->bodies.back().initial_pose.translation() = Eigen::Vector3d(-0.3, -0.2, 0.05);
  const Snapshot snapshot = SettledSnapshot(scene, 1, 7);
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  renderer.Render(snapshot, CloseCamera(), layers, kWidth, kHeight);
  EXPECT_EQ(renderer.num_shape_meshes(), 4);  // box, sphere, cylinder, capsule
  renderer.Render(snapshot, CloseCamera(), layers, kWidth, kHeight);
  EXPECT_EQ(renderer.num_shape_meshes(), 4);
  // A new scene generation with only the box drops the others.
  const auto small = RestingScene(false);
  renderer.Render(SettledSnapshot(small, 1, 8), CloseCamera(), layers, kWidth, kHeight);
  EXPECT_EQ(renderer.num_shape_meshes(), 1);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// The shadow map is drawn again only when a caster moves by more than a quarter texel (or the
// layers change what casts): a frame drawn with the kept map is the frame a new renderer draws.
TEST_F(RendererTest, ShadowMapIsKeptWhileNoCasterMoves) {
  const auto scene = RestingScene(true);
  const Snapshot still = SettledSnapshot(scene, 10);
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  const std::vector<uint8_t> first = RenderToPixels(renderer, still, CloseCamera(), layers);
  const std::vector<uint8_t> again = RenderToPixels(renderer, still, CloseCamera(), layers);
  EXPECT_EQ(renderer.num_shadow_map_draws(), 1);
  EXPECT_EQ(DifferingBytes(first, again), 0);

  // The box (geometry 1) 4 cm along x: its shadow moves with it.
  Snapshot moved = still;
  moved.geometry_poses[1].translation().x() += 0.04;
  moved.body_poses[1].translation().x() += 0.04;
  const std::vector<uint8_t> after_move = RenderToPixels(renderer, moved, CloseCamera(), layers);
  EXPECT_EQ(renderer.num_shadow_map_draws(), 2);
  Renderer fresh(ShaderDirectory());
  EXPECT_EQ(DifferingBytes(after_move, RenderToPixels(fresh, moved, CloseCamera(), layers)), 0);
  EXPECT_GT(DifferingBytes(first, after_move), 1000);

  // A tenth of a millimetre (the map's texel here is millimetres): the map is kept.
  Snapshot crept = moved;
  crept.geometry_poses[1].translation().x() += 1e-4;
  RenderToPixels(renderer, crept, CloseCamera(), layers);
  EXPECT_EQ(renderer.num_shadow_map_draws(), 2);

  // Visual geometry on: other casters (the same meshes here, but the rule does not know).
  layers.visual_geometry = !layers.visual_geometry;
  RenderToPixels(renderer, crept, CloseCamera(), layers);
  EXPECT_EQ(renderer.num_shadow_map_draws(), 3);
}

// Translucent triangles drawn as Dear ImGui draws (colour blended by source alpha, alpha by
// one), through LayerTexture or straight over the scene: the same frame to rounding, and the
// layer blended again a frame later without being drawn again is that frame once more.
TEST_F(RendererTest, LayerTextureBlendsAsTheLayerDrawnStraightOverTheSceneWhereMarked) {
  const fs::path dir = fs::temp_directory_path() / "contactlab_layer_test";
  fs::create_directories(dir);
  std::ofstream(dir / "tri.vert") << "#version 330 core\n"
                                     "layout(location = 0) in vec2 a_p;\n"
                                     "layout(location = 1) in vec4 a_c;\n"
                                     "out vec4 v_c;\n"
                                     "void main() { v_c = a_c; gl_Position = vec4(a_p, 0, 1); }\n";
  std::ofstream(dir / "tri.frag") << "#version 330 core\nin vec4 v_c;\nout vec4 o;\n"
                                     "void main() { o = v_c; }\n";
  const ShaderProgram triangles((dir / "tri.vert").string(), (dir / "tri.frag").string());
  // x, y, r, g, b, a: three overlapping translucent triangles and an opaque one.
  const std::vector<float> vertices = {
      -0.9f, -0.9f, 1, 0, 0, 0.3f, 0.5f, -0.9f, 1, 0, 0, 0.3f, -0.2f, 0.6f, 1, 0, 0, 0.3f,
      -0.5f, -0.6f, 0, 1, 0, 0.6f, 0.9f, -0.6f, 0, 1, 0, 0.6f, 0.2f,  0.9f, 0, 1, 0, 0.6f,
      -0.7f, 0.0f,  0, 0, 1, 0.9f, 0.7f, 0.1f,  0, 0, 1, 0.9f, 0.0f,  0.5f, 0, 0, 1, 0.9f,
      0.6f,  0.6f,  1, 1, 1, 1.0f, 0.9f, 0.6f,  1, 1, 1, 1.0f, 0.9f,  0.9f, 1, 1, 1, 1.0f};
  GLuint vao = 0, vbo = 0;
  glGenVertexArrays(1, &vao);
  glGenBuffers(1, &vbo);
  glBindVertexArray(vao);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(float)),
               vertices.data(), GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                        reinterpret_cast<const void*>(2 * sizeof(float)));
  const auto draw_triangles = [&] {
    glViewport(0, 0, kWidth, kHeight);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_STENCIL_TEST);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    triangles.Use();
    glBindVertexArray(vao);
    glDrawArrays(GL_TRIANGLES, 0, 12);
    glBindVertexArray(0);
    glDisable(GL_BLEND);
  };

  const Snapshot snapshot = SettledSnapshot(RestingScene(true), 10);
  Renderer renderer(ShaderDirectory());
  LayerTexture layer(ShaderDirectory());
  EXPECT_FALSE(layer.Holds(kWidth, kHeight));
  const RenderLayers layers;
  const std::vector<uint8_t> scene = RenderToPixels(renderer, snapshot, CloseCamera(), layers);
  renderer.Render(snapshot, CloseCamera(), layers, kWidth, kHeight);
  draw_triangles();
  const std::vector<uint8_t> straight = renderer.ReadPixels(kWidth, kHeight);

  renderer.Render(snapshot, CloseCamera(), layers, kWidth, kHeight);
  layer.Begin(kWidth, kHeight);
  draw_triangles();
  layer.End();
  layer.Composite();
  const std::vector<uint8_t> layered = renderer.ReadPixels(kWidth, kHeight);
  EXPECT_TRUE(layer.Holds(kWidth, kHeight));
  EXPECT_FALSE(layer.Holds(kWidth + 1, kHeight));
  renderer.Render(snapshot, CloseCamera(), layers, kWidth, kHeight);  // the next frame
  layer.Composite();
  const std::vector<uint8_t> next_frame = renderer.ReadPixels(kWidth, kHeight);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

  int largest_difference = 0;
  for (size_t i = 0; i < straight.size(); ++i) {
    largest_difference = std::max(largest_difference, std::abs(straight[i] - layered[i]));
  }
  EXPECT_LE(largest_difference, 2);
  // A minimized window (an empty framebuffer): the layer holds nothing and blends nothing.
  layer.Begin(0, 0);
  layer.End();
  EXPECT_FALSE(layer.Holds(0, 0));
  EXPECT_FALSE(layer.Holds(kWidth, kHeight));
  renderer.Render(snapshot, CloseCamera(), layers, kWidth, kHeight);
  layer.Composite();
  EXPECT_EQ(DifferingBytes(renderer.ReadPixels(kWidth, kHeight), scene), 0);
  EXPECT_GT(DifferingBytes(scene, straight), 100000);  // the triangles cover much of the frame
  EXPECT_EQ(DifferingBytes(layered, next_frame), 0);

  // Marked where drawn: only the tiles the marks touch are blended, each once however many
  // marks overlap it. Marks over the left half (of whole tiles), the lower left quarter twice:
  // the left half is the straight drawing, the right half the scene, though triangles lie there.
  static_assert((kWidth / 2) % LayerTexture::kTile_px == 0);
  renderer.Render(snapshot, CloseCamera(), layers, kWidth, kHeight);
  layer.Begin(kWidth, kHeight);
  draw_triangles();
  layer.MarkDrawn(-10, -10, kWidth / 2 + 10, kHeight + 20);
  layer.MarkDrawn(0, 0, kWidth / 2, kHeight / 2);
  layer.End();
  layer.Composite();
  const std::vector<uint8_t> marked = renderer.ReadPixels(kWidth, kHeight);
  int left_difference = 0, right_differing = 0;
  for (int row = 0; row < kHeight; ++row) {
    for (int col = 0; col < kWidth; ++col) {
      for (int k = 0; k < 3; ++k) {
        const size_t i = 4 * (static_cast<size_t>(row) * kWidth + col) + k;
        if (col < kWidth / 2) {
          left_difference = std::max(left_difference, std::abs(marked[i] - straight[i]));
        } else {
          right_differing += marked[i] != scene[i];
        }
      }
    }
  }
  EXPECT_LE(left_difference, 2);
  EXPECT_EQ(right_differing, 0);
  glDeleteBuffers(1, &vbo);
  glDeleteVertexArrays(1, &vao);
  fs::remove_all(dir);
}

TEST_F(RendererTest, AllShapesAllLayersAndScreenshot) {
  const auto scene = RestingScene(true);
  const Snapshot snapshot = SettledSnapshot(scene, 400);
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  layers.body_frames = true;
  Camera camera = CloseCamera();
  camera.distance_m = 1.1f;
  const std::vector<uint8_t> px = RenderToPixels(renderer, snapshot, camera, layers);
  EXPECT_GT(CountDistinct(px), 1000);
  EXPECT_GT(CountColor(px, kStickColor) + CountColor(px, kSlipColor), 20);

  const fs::path path = fs::temp_directory_path() / "contactlab_render_test.png";
  WritePng(path.string(), kWidth, kHeight, px);
  std::ifstream in(path, std::ios::binary);
  char magic[8] = {};
  in.read(magic, 8);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
  fs::remove(path);
  // For a human look at the picture: CONTACTLAB_RENDER_CHECK_PNG=/tmp/render_check.png
  // (closer, without the body frames, so the contacts and forces are easy to see).
  if (const char* out = std::getenv("CONTACTLAB_RENDER_CHECK_PNG")) {
    layers.body_frames = false;
    layers.force_scale_m_per_N = 0.02f;
    camera.distance_m = 0.75f;
    WritePng(out, kWidth, kHeight, RenderToPixels(renderer, snapshot, camera, layers));
    spdlog::info("wrote {}", out);
  }
  EXPECT_THROW(WritePng("/nonexistent-dir/x.png", kWidth, kHeight, px), std::runtime_error);
  EXPECT_THROW(WritePng("/tmp/x.png", kWidth, kHeight, std::vector<uint8_t>(3)),
               std::invalid_argument);
}

// The rows a colour covers (roughly: arrows are shaded): its vertical extent in pixels.
int RowsSpanned(const std::vector<uint8_t>& rgba, Rgb8 c, int tolerance) {
  int top = kHeight, bottom = -1;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      const uint8_t* p = &rgba[4 * (static_cast<size_t>(y) * kWidth + x)];
      if (std::abs(p[0] - c.r) <= tolerance && std::abs(p[1] - c.g) <= tolerance &&
          std::abs(p[2] - c.b) <= tolerance) {
        top = std::min(top, y);
        bottom = std::max(bottom, y);
      }
    }
  }
  return bottom < 0 ? 0 : bottom - top + 1;
}

// A 30 N grip at 1 cm/N is 30 cm: across the view of a gripper it read as a coordinate axis. Long
// arrows are drawn within kMaxForceArrowViewFraction of the view's height; short ones at the
// layers' scale.
TEST_F(RendererTest, AStrongForceStaysWithinAFractionOfTheViewAWeakOneKeepsItsScale) {
  Snapshot snapshot = SettledSnapshot(RestingScene(false), 10);
  snapshot.contacts.resize(1);
  ContactResult& c = snapshot.contacts[0];
  c.position_W = Eigen::Vector3d(0.2, 0.0, 0.0);  // beside the box, in front of nothing
  c.normal_W = Eigen::Vector3d::UnitZ();
  c.friction_force_W.setZero();
  Camera camera;  // level, looking along +y at the contact from 0.9 m
  camera.target = Eigen::Vector3f(0.2f, 0.0f, 0.0f);
  camera.distance_m = 0.9f;
  camera.yaw_rad = static_cast<float>(-M_PI / 2);
  camera.pitch_rad = 0.0f;
  const float view_height_m = 2.0f * 0.9f * std::tan(0.5f * camera.fov_y_rad);  // 0.76 m
  const float px_per_m = kHeight / view_height_m;
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  layers.contact_points = layers.friction_forces = false;
  layers.force_scale_m_per_N = 0.01f;
  constexpr int kTolerance = 60;  // shaded

  c.normal_force_W = Eigen::Vector3d(0, 0, 30);  // 30 cm at the scale: 190 pixels
  const int strong = RowsSpanned(RenderToPixels(renderer, snapshot, camera, layers),
                                 kNormalForceColor, kTolerance);
  EXPECT_LE(strong, kMaxForceArrowViewFraction * kHeight + 2) << "30 N";
  EXPECT_GE(strong, 0.5f * kMaxForceArrowViewFraction * kHeight) << "30 N: still long";

  c.normal_force_W = Eigen::Vector3d(0, 0, 3);  // 3 cm: 19 pixels, below the knee
  const int weak = RowsSpanned(RenderToPixels(renderer, snapshot, camera, layers),
                               kNormalForceColor, kTolerance);
  EXPECT_NEAR(weak, 0.03f * px_per_m, 3.0f) << "3 N";
  EXPECT_LT(weak, strong);
}

TEST_F(RendererTest, TwoHundredBodiesShareMeshes) {
  // A hand-built snapshot (no simulation): 200 bodies of 4 distinct shapes on a grid, each with
  // a contact, all layers on.
  auto scene = std::make_shared<SceneSpec>(*RestingScene(true));
  const int base = static_cast<int>(scene->bodies.size());
  for (int i = base; i < 200; ++i) {
    scene->bodies.push_back(scene->bodies[1 + i % 4]);
    scene->bodies.back().body.name = "copy" + std::to_string(i);
  }
  Snapshot s;
  s.scene = scene;
  s.scene_generation = 42;
  int g = 0;
  for (size_t b = 0; b < scene->bodies.size(); ++b) {
    Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
    if (b > 0)
      X.translation() = Eigen::Vector3d(0.25 * (b % 15) - 1.8, 0.25 * (b / 15) - 1.8, 0.06);
    s.body_poses.push_back(X);
    for (const GeometrySpec& spec : scene->bodies[b].geometries) {
      s.geometries.push_back(&spec);
      s.geometry_poses.push_back(X * spec.X_BG);
      s.geometry_body.push_back(static_cast<int>(b));
      ++g;
      ContactResult c;
      c.position_W = X.translation() - Eigen::Vector3d(0, 0, 0.05);
      c.normal_force_W = Eigen::Vector3d(0, 0, 5);
      c.friction_force_W = Eigen::Vector3d(1, 1, 0);
      c.state = b % 2 ? ContactResult::State::kStick : ContactResult::State::kSlip;
      if (b > 0) s.contacts.push_back(c);
    }
  }
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  layers.body_frames = true;
  Camera camera;
  camera.distance_m = 5.0f;
  camera.target.setZero();
  RenderToPixels(renderer, s, camera, layers);  // builds the meshes
  EXPECT_EQ(renderer.num_shape_meshes(), 4);
  const auto start = std::chrono::steady_clock::now();
  constexpr int kFrames = 5;
  for (int i = 0; i < kFrames; ++i) renderer.Render(s, camera, layers, kWidth, kHeight);
  glFinish();
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() /
      kFrames;
  spdlog::info("200 bodies, {} contacts, all layers: {:.1f} ms/frame ({})", s.contacts.size(), ms,
               reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  EXPECT_EQ(renderer.num_shape_meshes(), 4);
  const std::vector<uint8_t> px = renderer.ReadPixels(kWidth, kHeight);
  EXPECT_GT(CountColor(px, kStickColor, 0), 100);
  EXPECT_GT(CountColor(px, kSlipColor, 0), 100);
}

// The incline scene's ramp: a static half-space pitched by −20° about y (normal tilted to −x),
// and nothing else.
std::shared_ptr<SceneSpec> TiltedPlaneScene(double pitch_rad) {
  auto s = std::make_shared<SceneSpec>();
  s->name = "tilted_plane";
  SceneBody ramp;
  ramp.kind = SceneBody::Kind::kStatic;
  ramp.body.name = "ramp";
  ramp.initial_pose.linear() =
      Eigen::AngleAxisd(pitch_rad, Eigen::Vector3d::UnitY()).toRotationMatrix();
  GeometrySpec plane;
  plane.name = "ramp";
  plane.shape = Shape::HalfSpace();
  ramp.geometries.push_back(plane);
  s->bodies.push_back(ramp);
  return s;
}

TEST_F(RendererTest, TiltedHalfSpaceIsDrawnInItsOwnPose) {
  // Seen from the side (looking along −x, level), a horizontal plane through the target is edge
  // on (a line at mid-height); the 20° ramp rises towards the viewer and covers a wedge of the
  // view: the floor shows both above and below the middle row, on opposite sides.
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  Camera camera;
  camera.target = Eigen::Vector3f(0, 0, 0);
  camera.distance_m = 2.0f;
  camera.yaw_rad = 0.0f;
  camera.pitch_rad = 0.0f;
  auto floor_rows = [&](double pitch_rad, int* above, int* below) {
    const auto scene = TiltedPlaneScene(pitch_rad);
    const std::vector<uint8_t> px =
        RenderToPixels(renderer, SettledSnapshot(scene, 0), camera, layers);
    *above = *below = 0;
    for (int y = 0; y < kHeight; ++y) {
      const size_t i = (static_cast<size_t>(y) * kWidth + kWidth / 2) * 4;
      const bool background = px[i] == 46 && px[i + 1] == 52 && px[i + 2] == 62;
      if (background) continue;
      if (y < kHeight / 2 - 4) ++*above;
      if (y > kHeight / 2 + 4) ++*below;
    }
  };
  int above = 0, below = 0;
  floor_rows(0.0, &above, &below);
  EXPECT_EQ(above + below, 0) << "a level floor seen level is a line";
  floor_rows(-20.0 * M_PI / 180.0, &above, &below);
  // The ramp rises towards +x (z = x tan 20°): near the viewer it is above the eye.
  EXPECT_GT(above + below, kHeight / 4) << "above " << above << ", below " << below;
}

TEST(GroundQuad, LiesInTheHalfSpacePlaneWithItsNormal) {
  // The incline's ramp (pitched −20° about y), moved off the origin.
  Eigen::Isometry3d X_WG = Eigen::Isometry3d::Identity();
  X_WG.linear() =
      Eigen::AngleAxisd(-20.0 * M_PI / 180.0, Eigen::Vector3d::UnitY()).toRotationMatrix();
  X_WG.translation() = Eigen::Vector3d(0.3, -0.2, 0.1);
  const Eigen::Vector3d n = X_WG.linear().col(2);
  const GroundQuadPlacement quad = PlaceGroundQuad(X_WG, Eigen::Vector3f(2.2f, 0.4f, 1.0f));
  // Every point of the quad mesh (z = 0) lands on the plane; its normal is the frame's +z.
  for (const Eigen::Vector4f& corner :
       {Eigen::Vector4f(-10, -10, 0, 1), Eigen::Vector4f(10, -10, 0, 1),
        Eigen::Vector4f(10, 10, 0, 1), Eigen::Vector4f(0, 0, 0, 1)}) {
    const Eigen::Vector3d p = (quad.model * corner).head<3>().cast<double>();
    EXPECT_NEAR(n.dot(p - X_WG.translation()), 0.0, 1e-5) << p.transpose();
  }
  const Eigen::Vector3d normal_W =
      (quad.model * Eigen::Vector4f(0, 0, 1, 0)).head<3>().cast<double>();
  EXPECT_LT((normal_W - n).norm(), 1e-6);
  EXPECT_GT(std::abs(normal_W.x()), 0.3) << "tilted, not the horizontal floor";
  // Centred under the target: the target's projection onto the plane, in whole metres.
  const Eigen::Vector3d target_G = X_WG.inverse() * Eigen::Vector3d(2.2, 0.4, 1.0);
  EXPECT_EQ(quad.center, Eigen::Vector2f(std::round(target_G.x()), std::round(target_G.y())));
  EXPECT_EQ((quad.plane_from_mesh.block<2, 1>(0, 3)), quad.center);

  // A z-up floor stays the horizontal ground through z = 0.
  const GroundQuadPlacement floor =
      PlaceGroundQuad(Eigen::Isometry3d::Identity(), Eigen::Vector3f(3.4f, -1.6f, 0.2f));
  EXPECT_EQ(floor.center, Eigen::Vector2f(3, -2));
  EXPECT_NEAR((floor.model * Eigen::Vector4f(7, 5, 0, 1)).z(), 0.0f, 1e-6f);
}

// Ground, a dynamic box at the origin and a static wall (a box) at +x between it and a
// camera on the +x side.
std::shared_ptr<SceneSpec> WallScene() {
  auto s = RestingScene(false);
  SceneBody wall;
  wall.kind = SceneBody::Kind::kStatic;
  wall.body.name = "wall";
  GeometrySpec g;
  g.name = "wall";
  g.shape = Shape::Box(Eigen::Vector3d(0.03, 0.4, 0.25));
  g.X_BG.translation() = Eigen::Vector3d(0.3, 0, 0.25);
  wall.geometries.push_back(g);
  s->bodies.push_back(wall);
  return s;
}

TEST_F(RendererTest, StaticGeometryInFrontOfDynamicBodiesIsSeeThrough) {
  const auto scene = WallScene();
  const Snapshot snapshot = SettledSnapshot(scene, 1);
  ASSERT_EQ(snapshot.geometries.size(), 3u);  // floor, box, wall
  Camera camera;
  camera.target = Eigen::Vector3f(0, 0, 0.05f);
  camera.distance_m = 1.5f;
  camera.yaw_rad = 0.0f;  // from +x: the wall hides the box
  camera.pitch_rad = 0.15f;
  std::vector<char> see_through;
  SeeThroughGeometries(snapshot, camera.Eye(), &see_through);
  EXPECT_EQ(see_through, (std::vector<char>{0, 0, 1}));
  Camera behind = camera;
  behind.yaw_rad = static_cast<float>(M_PI);  // from −x: nothing in front of the box
  SeeThroughGeometries(snapshot, behind.Eye(), &see_through);
  EXPECT_EQ(see_through, (std::vector<char>{0, 0, 0}));

  // Coloured (dynamic body) pixels: none through the opaque wall, many through the see-through
  // one.
  auto coloured = [](const std::vector<uint8_t>& px) {
    int n = 0;
    for (size_t i = 0; i + 3 < px.size(); i += 4) {
      const int lo = std::min({px[i], px[i + 1], px[i + 2]});
      const int hi = std::max({px[i], px[i + 1], px[i + 2]});
      n += hi - lo > 25;
    }
    return n;
  };
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  layers.contact_points = layers.normal_forces = layers.friction_forces = false;
  layers.see_through_static = false;
  const int opaque = coloured(RenderToPixels(renderer, snapshot, camera, layers));
  layers.see_through_static = true;
  const int see_through_px = coloured(RenderToPixels(renderer, snapshot, camera, layers));
  EXPECT_LT(opaque, 50);
  EXPECT_GT(see_through_px, 1000);
  // Seen from the other side the wall is behind the box and stays opaque: same picture.
  layers.see_through_static = false;
  const std::vector<uint8_t> a = RenderToPixels(renderer, snapshot, behind, layers);
  layers.see_through_static = true;
  const std::vector<uint8_t> b = RenderToPixels(renderer, snapshot, behind, layers);
  EXPECT_EQ(a, b);
}

// The inset takes the full view's shadow map even where its own camera sees other casters (the
// wall see-through from the full view's side casts no shadow there, but would from the inset's):
// one shadow pass for the first frame and none for the next frames of the same poses, not two a
// frame.
TEST_F(RendererTest, AnInsetDrawsNoShadowMapOfItsOwn) {
  const auto scene = WallScene();
  const Snapshot snapshot = SettledSnapshot(scene, 1);
  Camera through_wall;
  through_wall.target = Eigen::Vector3f(0, 0, 0.05f);
  through_wall.distance_m = 1.5f;
  through_wall.yaw_rad = 0.0f;  // from +x: the wall is see-through
  through_wall.pitch_rad = 0.15f;
  Camera behind = through_wall;
  behind.yaw_rad = static_cast<float>(M_PI);  // from −x: the wall is opaque and casts
  Renderer renderer(ShaderDirectory());
  const RenderLayers layers;
  for (int frame = 0; frame < 3; ++frame) {
    renderer.BeginScene(kWidth, kHeight);
    renderer.Render(snapshot, through_wall, layers, kWidth, kHeight);
    renderer.RenderInset(snapshot, behind, layers, 380, 260, 240, 200);
    renderer.EndScene();
    EXPECT_EQ(renderer.num_shadow_map_draws(), 1) << "frame " << frame;
  }
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST_F(RendererTest, EmptySnapshotAndDegenerateSizesDoNotCrash) {
  Renderer renderer(ShaderDirectory());
  Snapshot empty;
  renderer.Render(empty, Camera{}, RenderLayers{}, kWidth, kHeight);
  renderer.Render(empty, Camera{}, RenderLayers{}, 0, 0);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_TRUE(renderer.ReadPixels(0, 0).empty());
}

// Copies the shader directory to a fresh temp dir for corruption.
fs::path CopyShaders(const std::string& tag) {
  const fs::path dir = fs::temp_directory_path() / ("contactlab_shaders_" + tag);
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& entry : fs::directory_iterator(ShaderDirectory())) {
    fs::copy_file(entry.path(), dir / entry.path().filename());
  }
  return dir;
}

TEST_F(RendererTest, BrokenShaderThrowsNamingTheFileWithTheLog) {
  const fs::path dir = CopyShaders("broken");
  {
    std::ofstream out(dir / "lit.frag", std::ios::app);
    out << "\nthis is not glsl;\n";
  }
  try {
    Renderer renderer(dir.string());
    FAIL() << "expected RenderError";
  } catch (const RenderError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find((dir / "lit.frag").string()), std::string::npos) << message;
    EXPECT_NE(message.find("compile"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
  }
  // A missing file is named too.
  fs::remove(dir / "overlay.vert");
  fs::copy_file(ShaderDirectory() + "/lit.frag", dir / "lit.frag",
                fs::copy_options::overwrite_existing);
  try {
    Renderer renderer(dir.string());
    FAIL() << "expected RenderError";
  } catch (const RenderError& e) {
    EXPECT_NE(std::string(e.what()).find("overlay.vert"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

TEST_F(RendererTest, LinkErrorThrowsNamingTheFiles) {
  // Compiles alone (a shader without main() is a valid compilation unit) but cannot link.
  const fs::path dir = CopyShaders("link");
  {
    std::ofstream out(dir / "shadow.frag", std::ios::trunc);
    out << "#version 330 core\nvoid not_main() {}\n";
  }
  try {
    Renderer renderer(dir.string());
    FAIL() << "expected RenderError";
  } catch (const RenderError& e) {
    EXPECT_NE(std::string(e.what()).find("shadow.frag"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

using testing::IsColorMapPixel;

int CountColorMapPixels(const std::vector<uint8_t>& rgba) {
  int count = 0;
  for (size_t i = 0; i + 3 < rgba.size(); i += 4) count += IsColorMapPixel(&rgba[i]);
  return count;
}

// Pixel bounding box (x0, y0, x1, y1; image rows top down) of world points seen by `camera`.
Eigen::Vector4f ProjectedBox(const Camera& camera, const std::vector<Eigen::Vector3f>& points) {
  const Eigen::Matrix4f vp =
      camera.Projection(static_cast<float>(kWidth) / kHeight) * camera.View();
  Eigen::Vector4f box(1e9f, 1e9f, -1e9f, -1e9f);
  for (const Eigen::Vector3f& p : points) {
    const Eigen::Vector4f clip = vp * p.homogeneous();
    const float x = (clip.x() / clip.w() * 0.5f + 0.5f) * kWidth;
    const float y = (0.5f - clip.y() / clip.w() * 0.5f) * kHeight;
    box = Eigen::Vector4f(std::min(box[0], x), std::min(box[1], y), std::max(box[2], x),
                          std::max(box[3], y));
  }
  return box;
}

// CloseCamera aimed at hydro_box's resting box from close by.
Camera HydroBoxCamera() {
  Camera camera = CloseCamera();
  camera.target = Eigen::Vector3f(0, 0, 0.02f);
  camera.distance_m = 0.45f;
  return camera;
}

TEST_F(RendererTest, HydroelasticPatchShowsThroughTheRestingBox) {
  // hydro_box at rest: the patch is the box's bottom face on the ground, inside the box, seen
  // from above through it (x-ray hatching in the colour map's exact colours).
  const auto scene = std::make_shared<SceneSpec>(testing::HydroBoxScene());
  const Snapshot snapshot = SettledSnapshot(scene, 500);
  ASSERT_EQ(snapshot.hydroelastic.patches.size(), 1u);
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  layers.normal_forces = layers.friction_forces = false;
  const Camera camera = HydroBoxCamera();
  const std::vector<uint8_t> on = RenderToPixels(renderer, snapshot, camera, layers);
  layers.contact_patches = false;
  const std::vector<uint8_t> off = RenderToPixels(renderer, snapshot, camera, layers);
  const int on_count = CountColorMapPixels(on), off_count = CountColorMapPixels(off);
  EXPECT_GT(on_count, 2000) << "the 10 cm patch, about half of it in exact colours";
  EXPECT_LT(off_count, 20) << "nothing else in the scene has the map's colours";

  // Where the patch is: inside the projection of the box's bottom face.
  const Eigen::Vector4f box = ProjectedBox(
      camera, {{-0.05f, -0.05f, 0}, {0.05f, -0.05f, 0}, {0.05f, 0.05f, 0}, {-0.05f, 0.05f, 0}});
  int inside = 0;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      const size_t i = (static_cast<size_t>(y) * kWidth + x) * 4;
      if (IsColorMapPixel(&on[i]) && x >= box[0] - 2 && x <= box[2] + 2 && y >= box[1] - 2 &&
          y <= box[3] + 2) {
        ++inside;
      }
    }
  }
  EXPECT_GT(inside, 0.98 * (on_count - off_count));

  // At rest the pressure is nearly uniform: with the automatic range [0, max] the patch is the
  // top of the map (yellow); with a range 1000 × too wide, the bottom (dark purple).
  layers.contact_patches = true;
  EXPECT_GT(CountColor(on, PressureColorMap8(1.0f), 12), on_count / 2);
  layers.pressure_max_Pa = 1000.0f * snapshot.hydroelastic.max_pressure_Pa;
  const std::vector<uint8_t> wide = RenderToPixels(renderer, snapshot, camera, layers);
  EXPECT_GT(CountColor(wide, PressureColorMap8(0.0f), 3), on_count / 2);
  EXPECT_LT(CountColor(wide, PressureColorMap8(1.0f), 12), 20);
}

TEST_F(RendererTest, HydroelasticPatchShowsThroughABodyDrawnWithVisualGeometry) {
  // The same resting box, drawn with a visual (as a URDF link is) instead of its collision
  // box: the visual marks the stencil for its body, so the patch still shows through it.
  auto scene = std::make_shared<SceneSpec>(testing::HydroBoxScene());
  const int box = scene->FindBody("box");
  ASSERT_GE(box, 0);
  VisualSpec visual;
  visual.shape = scene->bodies[box].geometries[0].shape;
  scene->bodies[box].visuals.push_back(visual);
  const Snapshot snapshot = SettledSnapshot(scene, 500);
  ASSERT_EQ(snapshot.hydroelastic.patches.size(), 1u);
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  layers.normal_forces = layers.friction_forces = false;
  ASSERT_TRUE(layers.visual_geometry);
  const std::vector<uint8_t> pixels = RenderToPixels(renderer, snapshot, HydroBoxCamera(), layers);
  EXPECT_GT(CountColorMapPixels(pixels), 2000);
}

TEST_F(RendererTest, PatchFacesHaveNoPointMarkersAndTractionArrowsOnDemand) {
  const auto scene = std::make_shared<SceneSpec>(testing::HydroBoxScene());
  const Snapshot snapshot = SettledSnapshot(scene, 500);
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  layers.normal_forces = layers.friction_forces = false;
  const Camera camera = HydroBoxCamera();
  // With the patch layer, only the two balls' point contacts have markers; without it every
  // face has one (a sticking marker per face centroid).
  const int with_patch =
      CountColor(RenderToPixels(renderer, snapshot, camera, layers), kStickColor);
  layers.contact_patches = false;
  const int without = CountColor(RenderToPixels(renderer, snapshot, camera, layers), kStickColor);
  EXPECT_GT(without, 5 * std::max(with_patch, 1));

  // Traction arrows: off by default; on, one per face (normal traction, red).
  layers.contact_patches = true;
  layers.contact_points = false;
  const int red_off =
      CountColor(RenderToPixels(renderer, snapshot, camera, layers), kNormalForceColor, 40);
  layers.traction_arrows = true;
  layers.traction_scale_m_per_Pa = 2e-5f;  // 1.3 kPa: 2.6 cm
  const std::vector<uint8_t> arrows = RenderToPixels(renderer, snapshot, camera, layers);
  EXPECT_GT(CountColor(arrows, kNormalForceColor, 40), red_off + 500);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  if (const char* out = std::getenv("CONTACTLAB_PATCH_CHECK_PNG")) {
    WritePng(out, kWidth, kHeight, arrows);
  }
}

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

// The level camera of AStrongForce… aimed at a lone contact at (0.2, 0, 0), with that contact
// pressed and only the layers under test on.
struct LoneContact {
  Snapshot snapshot;
  Camera camera;
  RenderLayers layers;
  float px_per_m = 0;
};
LoneContact LoneContactView() {
  LoneContact v;
  v.snapshot = SettledSnapshot(RestingScene(false), 10);
  v.snapshot.contacts.resize(1);
  ContactResult& c = v.snapshot.contacts[0];
  c.position_W = Eigen::Vector3d(0.2, 0.0, 0.0);
  c.normal_W = Eigen::Vector3d::UnitX();
  c.normal_force_W.setZero();
  c.friction_force_W.setZero();
  c.slip_velocity_W.setZero();
  c.state = ContactResult::State::kSlip;
  v.camera.target = Eigen::Vector3f(0.2f, 0.0f, 0.0f);
  v.camera.distance_m = 0.9f;
  v.camera.yaw_rad = static_cast<float>(-M_PI / 2);
  v.camera.pitch_rad = 0.0f;
  v.px_per_m = kHeight / (2.0f * 0.9f * std::tan(0.5f * v.camera.fov_y_rad));  // 630 px/m
  v.layers.contact_points = v.layers.normal_forces = v.layers.friction_forces = false;
  return v;
}

TEST_F(RendererTest, SlipArrowsSpanTheirScaledLengthFixedLengthOrNothingBelowTheThreshold) {
  LoneContact v = LoneContactView();
  v.snapshot.contacts[0].slip_velocity_W = Eigen::Vector3d(0, 0, 0.03);  // 3 cm/s, upward
  Renderer renderer(ShaderDirectory());
  constexpr int kTolerance = 60;  // shaded
  EXPECT_EQ(RowsSpanned(RenderToPixels(renderer, v.snapshot, v.camera, v.layers),
                        kSlipVelocityColor, kTolerance),
            0)
      << "no slip arrows by default";
  v.layers.slip_arrows = true;
  v.layers.slip_scale_s = 1.0f;  // 3 cm: 19 pixels
  EXPECT_NEAR(RowsSpanned(RenderToPixels(renderer, v.snapshot, v.camera, v.layers),
                          kSlipVelocityColor, kTolerance),
              0.03f * v.px_per_m, 3.0f);
  v.layers.vector_scaling = VectorScaling::kFixed;
  v.layers.fixed_arrow_length_px = 90.0f;
  EXPECT_NEAR(RowsSpanned(RenderToPixels(renderer, v.snapshot, v.camera, v.layers),
                          kSlipVelocityColor, kTolerance),
              90.0f, 3.0f);
  v.layers.slip_threshold_m_per_s = 0.05f;  // above the slip: hidden, even at a fixed length
  EXPECT_EQ(RowsSpanned(RenderToPixels(renderer, v.snapshot, v.camera, v.layers),
                        kSlipVelocityColor, kTolerance),
            0);
  v.layers.slip_threshold_m_per_s = 0.0f;
  v.snapshot.contacts[0].state = ContactResult::State::kSeparating;  // no friction: no slip shown
  EXPECT_EQ(RowsSpanned(RenderToPixels(renderer, v.snapshot, v.camera, v.layers),
                        kSlipVelocityColor, kTolerance),
            0);
}

TEST_F(RendererTest, ForceArrowsScaleLogarithmicallyAndHideBelowTheirThreshold) {
  LoneContact v = LoneContactView();
  v.snapshot.contacts[0].normal_force_W = Eigen::Vector3d(0, 0, 30);
  v.layers.normal_forces = true;
  v.layers.force_scale_m_per_N = 0.01f;
  Renderer renderer(ShaderDirectory());
  constexpr int kTolerance = 60;
  // Log: s·r·ln(1 + 30 N / 1 N) = 3.4 cm (22 pixels), where linear is 30 cm (compressed).
  v.layers.vector_scaling = VectorScaling::kLog;
  EXPECT_NEAR(RowsSpanned(RenderToPixels(renderer, v.snapshot, v.camera, v.layers),
                          kNormalForceColor, kTolerance),
              0.01f * std::log(31.0f) * v.px_per_m, 3.0f);
  v.layers.force_threshold_N = 30.0f;  // at the threshold: not drawn
  EXPECT_EQ(RowsSpanned(RenderToPixels(renderer, v.snapshot, v.camera, v.layers), kNormalForceColor,
                        kTolerance),
            0);
  v.layers.force_threshold_N = 29.0f;
  EXPECT_GT(RowsSpanned(RenderToPixels(renderer, v.snapshot, v.camera, v.layers), kNormalForceColor,
                        kTolerance),
            15);
}

TEST_F(RendererTest, PatchWireframeOutlinesTheContactSurfacesTriangles) {
  const auto scene = std::make_shared<SceneSpec>(testing::HydroBoxScene());
  const Snapshot snapshot = SettledSnapshot(scene, 500);
  ASSERT_GT(snapshot.hydroelastic.num_faces(), 10);
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  layers.normal_forces = layers.friction_forces = layers.contact_points = false;
  const Camera camera = HydroBoxCamera();
  const std::vector<uint8_t> solid = RenderToPixels(renderer, snapshot, camera, layers);
  layers.patch_wireframe = true;
  const std::vector<uint8_t> wire = RenderToPixels(renderer, snapshot, camera, layers);
  const int edges = CountColor(wire, kPatchEdgeColor, 6) - CountColor(solid, kPatchEdgeColor, 6);
  // Lines one pixel wide over the 10 cm patch (~120 pixels across here), many triangles.
  EXPECT_GT(edges, 400);
  EXPECT_LT(CountColorMapPixels(wire), CountColorMapPixels(solid)) << "edges over the colours";
  // Inside the patch's projection, as the patch itself.
  const Eigen::Vector4f box = ProjectedBox(
      camera, {{-0.05f, -0.05f, 0}, {0.05f, -0.05f, 0}, {0.05f, 0.05f, 0}, {-0.05f, 0.05f, 0}});
  int outside = 0;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      const uint8_t* p = &wire[(static_cast<size_t>(y) * kWidth + x) * 4];
      const bool edge = std::abs(p[0] - kPatchEdgeColor.r) <= 6 &&
                        std::abs(p[1] - kPatchEdgeColor.g) <= 6 &&
                        std::abs(p[2] - kPatchEdgeColor.b) <= 6;
      outside += edge && (x < box[0] - 2 || x > box[2] + 2 || y < box[1] - 2 || y > box[3] + 2);
    }
  }
  EXPECT_LT(outside, 20);
}

TEST_F(RendererTest, AFixedPressureRangeMapsAKnownPressureToItsColour) {
  // Every corner at 2020 Pa: with the range fixed at [1000, 6100] Pa that is t = 0.2 of the
  // map, entry 51 exactly; with [0, 6100] it is t = 0.33, another colour.
  const auto scene = std::make_shared<SceneSpec>(testing::HydroBoxScene());
  Snapshot snapshot = SettledSnapshot(scene, 500);
  std::fill(snapshot.hydroelastic.vertex_pressure_Pa.begin(),
            snapshot.hydroelastic.vertex_pressure_Pa.end(), 2020.0f);
  Renderer renderer(ShaderDirectory());
  RenderLayers layers;
  layers.normal_forces = layers.friction_forces = layers.contact_points = false;
  layers.pressure_auto = false;
  layers.pressure_min_Pa = 1000.0f;
  layers.pressure_max_Pa = 6100.0f;
  const std::vector<uint8_t> fixed = RenderToPixels(renderer, snapshot, HydroBoxCamera(), layers);
  const int patch = CountColorMapPixels(fixed);
  EXPECT_GT(patch, 2000);
  EXPECT_GT(CountColor(fixed, PressureColorMap8(0.2f), 2), 0.9 * patch);
  layers.pressure_min_Pa = 0.0f;
  const std::vector<uint8_t> from0 = RenderToPixels(renderer, snapshot, HydroBoxCamera(), layers);
  EXPECT_LT(CountColor(from0, PressureColorMap8(0.2f), 2), 0.01 * patch);
  EXPECT_GT(CountColor(from0, PressureColorMap8(2020.0f / 6100.0f), 3), 0.9 * patch);
}

}  // namespace
}  // namespace contactlab
