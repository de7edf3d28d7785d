#include "input/input_spec.h"

#include "input/merged_device.h"
#include "input/replay_device.h"
#include "input/space_mouse_device.h"

namespace contactlab {

bool ParseInputSpec(std::string_view value, InputSpec* spec, std::string* error) {
  constexpr std::string_view kReplayPrefix = "replay:";
  *spec = InputSpec{};
  if (value.empty() || value == "keyboard") {
    spec->kind = InputSpec::Kind::kKeyboard;
  } else if (value == "spacemouse") {
    spec->kind = InputSpec::Kind::kSpaceMouse;
  } else if (value == "gamepad") {
    spec->kind = InputSpec::Kind::kGamepad;
  } else if (value.substr(0, kReplayPrefix.size()) == kReplayPrefix &&
             value.size() > kReplayPrefix.size()) {
    spec->kind = InputSpec::Kind::kReplay;
    spec->replay_path = std::string(value.substr(kReplayPrefix.size()));
  } else {
    if (error) {
      *error = "--input: expected keyboard, spacemouse, gamepad or replay:FILE, got \"" +
               std::string(value) + "\"";
    }
    return false;
  }
  return true;
}

std::shared_ptr<InputDevice> MakeLiveInputDevice(InputSpec::Kind kind, const InputDevices& devices,
                                                 const SpaceMouseConfig& space_mouse_config) {
  using Sources = std::vector<std::shared_ptr<InputDevice>>;
  switch (kind) {
    case InputSpec::Kind::kSpaceMouse:
      return std::make_shared<MergedInputDevice>(
          Sources{std::make_shared<SpaceMouseDevice>(space_mouse_config), devices.keyboard});
    case InputSpec::Kind::kGamepad:
      return std::make_shared<MergedInputDevice>(Sources{devices.gamepad, devices.keyboard});
    case InputSpec::Kind::kKeyboard:
    case InputSpec::Kind::kReplay:
      break;
  }
  return devices.keyboard;
}

bool CreateInputDevices(const InputSpec& spec, InputDevices* devices, std::string* error,
                        const KeyboardConfig& keyboard_config,
                        const SpaceMouseConfig& space_mouse_config,
                        const GamepadConfig& gamepad_config) {
  devices->keyboard = std::make_shared<KeyboardDevice>(keyboard_config);
  devices->gamepad = std::make_shared<GamepadDevice>(gamepad_config);
  if (spec.kind != InputSpec::Kind::kReplay) {
    devices->active = MakeLiveInputDevice(spec.kind, *devices, space_mouse_config);
    return true;
  }
  std::unique_ptr<ReplayDevice> replay = ReplayDevice::Load(spec.replay_path, error);
  if (!replay) return false;
  devices->active = std::move(replay);
  return true;
}

bool CreateInputDevices(std::string_view option, InputDevices* devices, std::string* error) {
  InputSpec spec;
  return ParseInputSpec(option, &spec, error) && CreateInputDevices(spec, devices, error);
}

}  // namespace contactlab
