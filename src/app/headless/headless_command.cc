#include "app/headless/headless_command.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <stdexcept>
#include <thread>

#include "app/headless/headless_runner.h"
#include "app/teleop/teleop_controller.h"
#include "app/teleop/teleop_program.h"
#include "engine/world/world.h"
#include "input/input_spec.h"
#include "input/replay_device.h"
#include "io/printable_text.h"
#include "io/scene_loader.h"

namespace contactlab {
namespace {

// The scene's duration, unless --duration says otherwise (or a replay's, RunForTheReplay); the
// paths of its outputs; unpaced unless asked (or in real time where the GUI was asked of a build
// without one).
HeadlessOptions MakeHeadlessOptions(const CommandLine& cl, const SceneSpec& scene, bool gui_built) {
  HeadlessOptions options;
  options.duration_s = cl.duration_s.value_or(scene.duration_s);
  options.log_path = cl.log_path;
  options.contact_log_path = cl.contact_log_path;
  options.solver_log_path = cl.solver_log_path;
  options.newton_log_path = cl.newton_log_path;
  options.hessian_condition = cl.hessian_condition;
  options.summary_path = cl.summary_path;
  options.stop_on_failure = cl.stop_on_failure;
  options.realtime_factor = cl.realtime_factor.value_or(0.0);
  if (!cl.headless && !gui_built) {
    spdlog::info("this build has no GUI; running '{}' headless in real time", scene.name);
    options.realtime_factor = cl.realtime_factor.value_or(1.0);
  }
  return options;
}

// Two threads share a step's islands where the machine has the cores (the results do not
// depend on it: docs/contact-model.md §4.2).
void SetSolverThreads(const CommandLine& cl, World* world) {
  ConvexSolverParameters parameters = world->solver().parameters();
  parameters.num_threads = cl.solver_threads.value_or(
      std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 2));
  world->solver().set_parameters(parameters);
}

// What drives a scene with a robot arm: the input device (headless default: the scene's
// scripted replay), optionally recorded. Owns them for the run.
struct HeadlessTeleop {
  std::unique_ptr<TeleopController> controller;
  InputDevices devices;
  Recorder recorder;
};

// A replay given with --input and no --duration runs until its last command has been applied:
// its last row's t plus one step (a recording of N steps has rows at t = 0 … (N − 1)·δt), so that
// a recording of any length reproduces the recorded run, not the scene's default duration. A
// --duration cuts it short (or runs on, the arm at rest). False (said in one line) when that is
// more steps than a run may take.
bool RunForTheReplay(const CommandLine& cl, const ReplayDevice& replay, double dt_s,
                     HeadlessOptions* options) {
  const double duration_s = replay.end_time() + dt_s;
  if (!(duration_s > 0)) return true;  // rows before t = 0 only: the scene's duration
  if (HeadlessStepCount(duration_s, dt_s) < 0) {
    spdlog::error("--input {} ends at t = {} s: more than {} steps at dt = {} s; give --duration",
                  cl.input, replay.end_time(), kMaxHeadlessSteps, dt_s);
    return false;
  }
  options->duration_s = duration_s;
  spdlog::info("replay: running to its end, t = {:.6g} s (--duration T to change)", duration_s);
  return true;
}

// Sets up teleoperation into *teleop and *options when the scene has a robot arm; false (said
// in one line) on a bad --input or --record.
bool SetUpTeleop(const CommandLine& cl, const World& world, HeadlessTeleop* teleop,
                 HeadlessOptions* options) {
  const auto config = FindTeleopConfig(world.scene());
  if (!config && HasJointProgram(world.scene())) {
    spdlog::error("{}: teleop.joint_sines: the scene has no teleoperated arm to drive",
                  world.scene().source);
    return false;
  }
  if (!config) {
    if (!cl.input.empty() || !cl.record_path.empty()) {
      spdlog::warn("--input/--record: scene '{}' has no robot to teleoperate; ignored",
                   world.scene().name);
    }
    return true;
  }
  // Without --input the scene's program drives: its circle, else its script (if any); a joint
  // program drives the arm whatever the input (TeleopController), the keyboard's grip the
  // fingers.
  std::shared_ptr<CircleDevice> circle =
      cl.input.empty() ? MakeCircleDevice(world.scene()) : nullptr;
  std::string input = cl.input;
  if (input.empty()) {
    const std::string script = world.scene().teleop.script_path;
    input = circle || script.empty() ? "keyboard" : "replay:" + script;
  }
  std::string error;
  if ((!cl.record_path.empty() && !teleop->recorder.Open(cl.record_path, &error)) ||
      !CreateInputDevices(input, &teleop->devices, &error)) {
    spdlog::error("{}", error);
    return false;
  }
  if (circle) teleop->devices.active = std::move(circle);
  const auto* replay = dynamic_cast<const ReplayDevice*>(teleop->devices.active.get());
  if (replay && !cl.input.empty() && !cl.duration_s &&
      !RunForTheReplay(cl, *replay, world.dt(), options)) {
    return false;
  }
  teleop->controller = std::make_unique<TeleopController>(world, *config);
  options->teleop = teleop->controller.get();
  options->input = teleop->devices.active.get();
  if (teleop->recorder.is_open()) options->recorder = &teleop->recorder;
  if (teleop->controller->drives_joints()) {
    spdlog::info("teleoperation: the scene's joint program drives the arm ({}); {} for the grip",
                 JointProgramLabel(world.scene()), teleop->devices.active->Status());
  } else {
    spdlog::info("teleoperation: {}", teleop->devices.active->Status());
  }
  return true;
}

int Run(const CommandLine& cl, const SceneSpec& scene, const HeadlessOptions& base_options) {
  HeadlessOptions options = base_options;
  World world(scene);
  SetSolverThreads(cl, &world);
  HeadlessTeleop teleop;
  if (!SetUpTeleop(cl, world, &teleop, &options)) return kExitBadInput;
  const HeadlessResult r = RunHeadless(&world, options);
  if (r.failed) return kExitRunFailed;  // RunHeadless said why, in one line
  const bool error_controlled =
      world.contact_settings().integrator.scheme == TimeIntegration::Scheme::kErrorControlled;
  spdlog::info("{} ({}, {}): {} steps of {}{} s in {:.3f} s wall, {} not converged", scene.name,
               ContactApproximationName(world.approximation()),
               TimeIntegrationName(world.contact_settings().integrator), r.steps,
               error_controlled ? "at most " : "", world.dt(), r.wall_time_s, r.nonconverged_steps);
  return kExitOk;
}

}  // namespace

int RunHeadlessCommand(const CommandLine& cl, bool gui_built) {
  if (!cl.output_dir.empty()) {
    spdlog::warn("--output-dir is where the GUI saves; a headless run writes only the files named");
  }
  SceneSpec scene;
  try {
    scene = LoadSceneFile(ResolveScenePath(cl.scene));
    ApplyOverrides(cl.overrides, &scene.contact_settings);
    if (cl.circle_frequency_Hz) {
      if (const std::string e = SetCircleFrequency(*cl.circle_frequency_Hz, &scene); !e.empty()) {
        throw std::invalid_argument(e);
      }
    }
  } catch (const std::exception& e) {
    spdlog::error("{}", Printable(e.what(), kMaxErrorLineChars));
    return kExitBadInput;
  }
  const HeadlessOptions options = MakeHeadlessOptions(cl, scene, gui_built);
  if (HeadlessStepCount(options.duration_s, scene.contact_settings.dt_s) < 0) {
    spdlog::error("--duration {} s at dt = {} s is more than {} steps (the run's budget)",
                  options.duration_s, scene.contact_settings.dt_s, kMaxHeadlessSteps);
    return kExitBadInput;
  }
  try {
    return Run(cl, scene, options);
  } catch (const std::invalid_argument& e) {
    spdlog::error("{}", Printable(scene.source + ": " + e.what(), kMaxErrorLineChars));
    return kExitBadInput;
  } catch (const std::exception& e) {
    spdlog::error("{}", Printable(e.what(), kMaxErrorLineChars));
    return kExitError;
  }
}

}  // namespace contactlab
