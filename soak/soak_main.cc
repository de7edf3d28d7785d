// contactlab_soak: the long run of docs/architecture.md §8 (Soak). Drives the real runtime with
// random teleoperation and random live parameter changes for a wall-clock duration, switching
// scenes, and checks what a user's long session needs: no NaN in the state, every failed step
// and rejected change reported, resident memory flat after warm-up.
//
//   contactlab_soak --phase headless|gui --minutes M [--report FILE.json] [--seed N]
//
// headless: SimRuntime (the GUI's sim thread, without a window) on peg_in_hole and clutter,
// as fast as possible; keys of the keyboard device and SetOverrides (stiffness, approximation,
// δt, v_s; now and then an invalid value, which must come back as an error).
// gui: the Application in a hidden window (run under xvfb-run): random teleop keys through
// GLFW key events, random pointer drags over the panels (moving whatever slider lies there)
// and scene files dropped on the window.
// Prints one summary line and writes the figures as JSON; exit 1 on NaN, an unreported
// failure, or a peak of memory after warm-up above the warm-up's peak by max(20 MB, 20 %).
#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>

#include "app/runtime/sim_runtime.h"
#include "io/scene_loader.h"
#include "soak/soak_figures.h"
#include "ui/application.h"

namespace contactlab {
namespace {

using Clock = std::chrono::steady_clock;
constexpr const char* kScenes[] = {"peg_in_hole", "clutter"};
constexpr KeyAction kKeys[] = {KeyAction::kMoveXPos,  KeyAction::kMoveXNeg, KeyAction::kMoveYPos,
                               KeyAction::kMoveYNeg,  KeyAction::kMoveZPos, KeyAction::kMoveZNeg,
                               KeyAction::kToggleGrip};

// A random live change; one in ten is invalid on purpose (it must be rejected with a message).
command::SetOverrides RandomOverrides(std::mt19937_64& rng, bool* invalid) {
  std::uniform_real_distribution<double> u(0, 1);
  command::SetOverrides c;
  *invalid = u(rng) < 0.1;
  switch (rng() % 4) {
    case 0:
      c.overrides.stiffness_N_per_m = *invalid ? -1.0 : std::pow(10.0, 5 + 3 * u(rng));
      break;
    case 1:
      c.overrides.approximation = static_cast<ContactApproximation>(rng() % 3);
      *invalid = false;
      break;
    case 2:
      c.overrides.dt_s = *invalid ? 0.0 : std::array{5e-4, 1e-3, 2e-3}[rng() % 3];
      break;
    default:
      c.overrides.stiction_tolerance_m_per_s = *invalid ? -1e-4 : std::pow(10.0, -5 + 2 * u(rng));
  }
  return c;
}

bool StateFinite(const Snapshot& s) {
  for (const Eigen::Isometry3d& X : s.body_poses) {
    if (!X.matrix().allFinite()) return false;
  }
  return true;
}

void RunHeadless(double minutes, std::mt19937_64& rng, SoakFigures* f) {
  InputDevices devices;
  std::string error;
  CreateInputDevices("keyboard", &devices, &error);
  SimRuntime rt(LoadSceneFile(ResolveScenePath(kScenes[0])), /*target_realtime_factor=*/0);
  rt.SetInputDevices(devices);
  rt.Start();
  const auto start = Clock::now();
  uint64_t steps_before_switch = 0;
  int scene = 0, expected_errors = 0;
  for (int tick = 0; Clock::now() - start < std::chrono::duration<double>(60 * minutes); ++tick) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    devices.keyboard->SetKey(kKeys[rng() % 7], rng() % 2 == 0);
    if (tick % 20 == 0) {
      bool invalid = false;
      rt.Post(RandomOverrides(rng, &invalid));
      expected_errors += invalid;
    }
    if (tick % 1200 == 1199) {  // a new scene every minute
      steps_before_switch += rt.Latest()->step_index;
      scene = 1 - scene;
      rt.Post(command::LoadScene{LoadSceneFile(ResolveScenePath(kScenes[scene]))});
      ++f->scene_switches;
    }
    const std::vector<std::string> errors = rt.TakeErrors();
    f->errors_reported += static_cast<int>(errors.size());
    for (const std::string& e : errors) spdlog::debug("{}", e);
    const std::shared_ptr<const Snapshot> s = rt.Latest();
    if (!StateFinite(*s)) ++f->nan_snapshots;
    if (s->paused) {  // a failed step pauses the runtime: it must have said why
      ++f->failures;
      if (errors.empty()) ++f->unreported_failures;
      steps_before_switch += s->step_index;  // a reset starts the count again
      rt.Post(command::Reset{});
      rt.Post(command::Resume{});
    }
    f->steps = steps_before_switch + s->step_index;
    f->Sample(std::chrono::duration<double>(Clock::now() - start).count());
  }
  // A change posted in the last tick is answered a moment later: wait for it (within 5 s, so that
  // a rejection that never comes still counts).
  for (const auto deadline = Clock::now() + std::chrono::seconds(5);
       f->errors_reported < expected_errors && Clock::now() < deadline;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    f->errors_reported += static_cast<int>(rt.TakeErrors().size());
  }
  rt.Stop();
  f->unreported_rejections = std::max(0, expected_errors - f->errors_reported);
}

void RunGui(double minutes, std::mt19937_64& rng, SoakFigures* f) {
  ApplicationOptions o;
  o.scene = o.scene_defaults = LoadSceneFile(ResolveScenePath(kScenes[0]));
  o.scene_name = kScenes[0];
  o.visible = false;
  o.vsync = false;
  o.input = "keyboard";
  // What its random clicks save (Record, Screenshot, Export) lands where it runs, not in the
  // user's data folder.
  o.output_dir = std::filesystem::current_path().string();
  Application app(o);
  const int teleop_keys[] = {GLFW_KEY_W, GLFW_KEY_S, GLFW_KEY_A,    GLFW_KEY_D,
                             GLFW_KEY_E, GLFW_KEY_Q, GLFW_KEY_SPACE};
  std::uniform_real_distribution<float> panel_x(20, 320), panel_y(60, 700);
  const auto start = Clock::now();
  PointerInput pointer;
  int scene = 0;
  uint64_t steps_before_switch = 0;
  for (int frame = 0; Clock::now() - start < std::chrono::duration<double>(60 * minutes); ++frame) {
    app.SendKey(teleop_keys[rng() % 7], rng() % 2 ? GLFW_PRESS : GLFW_RELEASE);
    if (frame % 30 == 0) {  // press on a random panel point, drag sideways for a while
      pointer = {panel_x(rng), panel_y(rng), true, false, false};
    } else if (frame % 30 == 10) {
      pointer.left_down = false;
    }
    pointer.x += pointer.left_down ? std::uniform_real_distribution<float>(-8, 8)(rng) : 0;
    app.SetSyntheticPointer(pointer);
    const FrameStats stats = app.RunFrames(1);
    f->errors_reported = static_cast<int>(stats.errors);
    // Another scene, dropped on the window, every minute (by the clock: a loaded machine
    // renders few frames, and a count of frames once left a 20-minute run without a switch).
    if (Clock::now() - start > std::chrono::minutes(f->scene_switches + 1)) {
      steps_before_switch += app.LatestSnapshot()->step_index;
      scene = 1 - scene;
      app.DropFiles({ResolveScenePath(kScenes[scene])});
      ++f->scene_switches;
    }
    const std::shared_ptr<const Snapshot> s = app.LatestSnapshot();
    if (!StateFinite(*s)) ++f->nan_snapshots;
    f->steps = steps_before_switch + s->step_index;
    f->Sample(std::chrono::duration<double>(Clock::now() - start).count());
  }
}

}  // namespace
}  // namespace contactlab

int main(int argc, char** argv) {
  using namespace contactlab;
  spdlog::set_pattern("contactlab_soak: %^%l%$: %v");
  spdlog::set_level(spdlog::level::err);  // the runtime's own log lines would flood the output
  std::string phase = "headless", report;
  double minutes = 1;
  unsigned seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--phase") phase = value;
    if (key == "--minutes") minutes = std::stod(value);
    if (key == "--report") report = value;
    if (key == "--seed") seed = static_cast<unsigned>(std::stoul(value));
    if (key == "--log-level") spdlog::set_level(spdlog::level::from_str(value));
  }
  if ((phase != "headless" && phase != "gui") || !(minutes > 0)) {
    std::fprintf(stderr, "usage: contactlab_soak --phase headless|gui --minutes M [--report F]\n");
    return 2;
  }
  std::mt19937_64 rng(seed);
  SoakFigures figures;
  figures.phase = phase;
  figures.minutes = minutes;
  if (phase == "headless") {
    RunHeadless(minutes, rng, &figures);
  } else {
    RunGui(minutes, rng, &figures);
  }
  const bool ok = figures.Passed();
  std::printf("%s\n", figures.Line().c_str());
  if (!report.empty()) std::ofstream(report) << figures.Json() << "\n";
  return ok ? 0 : 1;
}
