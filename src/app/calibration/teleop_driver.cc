#include "app/calibration/teleop_driver.h"

#include <memory>
#include <stdexcept>

#include "app/teleop/teleop_controller.h"
#include "app/teleop/teleop_program.h"
#include "input/input_spec.h"

namespace contactlab {
namespace {

// One run's device and controller, shared by the StepDriver that calls them.
struct TeleopRun {
  std::shared_ptr<InputDevice> device;
  std::unique_ptr<TeleopController> controller;
};

}  // namespace

std::function<StepDriver(const World&)> MakeTeleopDriver(const SceneSpec& scene,
                                                         const std::string& input) {
  const std::optional<TeleopConfig> config = FindTeleopConfig(scene);
  if (!config) {
    if (!input.empty()) {
      throw std::invalid_argument("--input " + input + ": the scene has no robot to teleoperate");
    }
    return {};
  }
  // Without --input, the scene's program drives, as in a headless run (its circle, else its
  // script, else the idle keyboard).
  const bool circle = input.empty() && MakeCircleDevice(scene) != nullptr;
  std::string option = input;
  if (option.empty()) {
    option = circle || scene.teleop.script_path.empty() ? "keyboard"
                                                        : "replay:" + scene.teleop.script_path;
  }
  InputSpec spec;
  std::string error;
  if (!ParseInputSpec(option, &spec, &error)) throw std::invalid_argument(error);
  if (spec.kind != InputSpec::Kind::kKeyboard && spec.kind != InputSpec::Kind::kReplay) {
    throw std::invalid_argument("--input " + option +
                                ": a calibration replays its input: keyboard (idle) or "
                                "replay:FILE.csv");
  }
  // Loaded once (a bad replay file is refused before any run) and shared by the runs: a replay
  // samples its rows by time and the idle keyboard has no state; the circle integrates its phase,
  // so each run has its own.
  InputDevices devices;
  if (!CreateInputDevices(option, &devices, &error)) throw std::invalid_argument(error);
  return [scene, config, circle, shared = devices.active](const World& world) {
    auto run = std::make_shared<TeleopRun>();
    run->device = circle ? MakeCircleDevice(scene) : shared;
    run->controller = std::make_unique<TeleopController>(world, *config);
    return [run](World* w) {
      run->controller->Update(run->device->PollStep(w->time(), w->next_dt()), w);
    };
  };
}

}  // namespace contactlab
