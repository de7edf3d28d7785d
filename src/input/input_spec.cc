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

bool CreateInputDevices(const InputSpec& spec, InputDevices* devices, std::string* error,
                        const KeyboardConfig& keyboard_config,
                        const SpaceMouseConfig& space_mouse_config,
                        const GamepadConfig& gamepad_config) {
  devices->keyboard = std::make_shared<KeyboardDevice>(keyboard_config);
  switch (spec.kind) {
    case InputSpec::Kind::kKeyboard:
      devices->active = devices->keyboard;
      return true;
    case InputSpec::Kind::kSpaceMouse:
      devices->active =
          std::make_shared<MergedInputDevice>(std::vector<std::shared_ptr<InputDevice>>{
              std::make_shared<SpaceMouseDevice>(space_mouse_config), devices->keyboard});
      return true;
    case InputSpec::Kind::kGamepad:
      devices->gamepad = std::make_shared<GamepadDevice>(gamepad_config);
      devices->active = std::make_shared<MergedInputDevice>(
          std::vector<std::shared_ptr<InputDevice>>{devices->gamepad, devices->keyboard});
      return true;
    case InputSpec::Kind::kReplay: {
      std::unique_ptr<ReplayDevice> replay = ReplayDevice::Load(spec.replay_path, error);
      if (!replay) return false;
      devices->active = std::move(replay);
      return true;
    }
  }
  return false;
}

bool CreateInputDevices(std::string_view option, InputDevices* devices, std::string* error) {
  InputSpec spec;
  return ParseInputSpec(option, &spec, error) && CreateInputDevices(spec, devices, error);
}

}  // namespace contactlab
