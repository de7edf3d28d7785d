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

bool HasJointProgram(const SceneSpec& scene) { return !scene.teleop.joint_sines.empty(); }

JointTarget JointSineTarget(const TeleopProgramSpec::JointSine& sine, double q0, double t_s) {
  const double phase_rad = sine.angular_frequency_rad_per_s * t_s;
  return {q0 + sine.amplitude * std::sin(phase_rad),
          sine.amplitude * sine.angular_frequency_rad_per_s * std::cos(phase_rad)};
}

std::string JointProgramLabel(const SceneSpec& scene) {
  std::string label;
  for (const TeleopProgramSpec::JointSine& sine : scene.teleop.joint_sines) {
    const SceneBody& b = scene.bodies[sine.body];
    label += fmt::format("{}{} {:g} sin({:g} t)", label.empty() ? "" : ", ",
                         b.joint_name.empty() ? b.body.name : b.joint_name, sine.amplitude,
                         sine.angular_frequency_rad_per_s);
  }
  return label;
}

}  // namespace contactlab
