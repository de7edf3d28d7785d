#include "app/teleop/teleop_program.h"

#include <spdlog/fmt/fmt.h>

#include <cmath>

namespace contactlab {

bool HasTeleopCircle(const SceneSpec& scene) { return scene.teleop.circle_radius_m > 0; }

std::shared_ptr<CircleDevice> MakeCircleDevice(const SceneSpec& scene) {
  if (!HasTeleopCircle(scene)) return nullptr;
  return std::make_shared<CircleDevice>(
      scene.teleop.circle_radius_m, scene.teleop.circle_frequency_Hz, scene.contact_settings.dt_s);
}

std::string SetCircleFrequency(double frequency_Hz, SceneSpec* scene) {
  if (!HasTeleopCircle(*scene)) {
    return fmt::format("--circle-frequency: scene '{}' has no teleop circle", scene->name);
  }
  if (!(frequency_Hz >= 0 && frequency_Hz <= CircleDevice::kMaxFrequencyHz)) {
    return fmt::format("--circle-frequency {}: must be within [0, {}] Hz", frequency_Hz,
                       CircleDevice::kMaxFrequencyHz);
  }
  scene->teleop.circle_frequency_Hz = frequency_Hz;
  return "";
}

}  // namespace contactlab
