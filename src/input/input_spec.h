// `--input keyboard|spacemouse|gamepad|replay:FILE`: parsing the option and building the devices.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "input/gamepad_device.h"
#include "input/input_device.h"
#include "input/keyboard_device.h"
#include "input/space_mouse_mapping.h"

namespace contactlab {

struct InputSpec {
  enum class Kind { kKeyboard, kSpaceMouse, kGamepad, kReplay };
  Kind kind = Kind::kKeyboard;
  std::string replay_path;  // kReplay only
};

// Parses the option value; an empty string means keyboard. On error returns false and sets
// *error to one line naming the option.
bool ParseInputSpec(std::string_view value, InputSpec* spec, std::string* error);

struct InputDevices {
  // Always present: the GUI feeds key events here whatever the --input choice.
  std::shared_ptr<KeyboardDevice> keyboard;
  // Always present: the GUI feeds it the pad's state every frame, so that the teleop panel can
  // switch to the gamepad while the simulation runs (used only when it is the live device).
  std::shared_ptr<GamepadDevice> gamepad;
  // What the simulation polls: the keyboard itself; space mouse or gamepad + keyboard merged (so
  // the keyboard keeps working without the device); or the replay alone (so replays are exact).
  std::shared_ptr<InputDevice> active;
};

// Builds the devices. Only a bad replay file fails (error "FILE:LINE: ..."); a missing space
// mouse daemon is reported in the log and in active->Status(), not as an error.
bool CreateInputDevices(const InputSpec& spec, InputDevices* devices, std::string* error,
                        const KeyboardConfig& keyboard_config = {},
                        const SpaceMouseConfig& space_mouse_config = {},
                        const GamepadConfig& gamepad_config = {});
// The live device of a kind (keyboard, space mouse or gamepad; not replay) built around the
// keyboard and gamepad in *devices: each of the others is merged with the keyboard. Connecting
// to spacenavd only tries its socket once, so this is cheap enough for the simulation thread.
std::shared_ptr<InputDevice> MakeLiveInputDevice(InputSpec::Kind kind, const InputDevices& devices,
                                                 const SpaceMouseConfig& space_mouse_config = {});

// ParseInputSpec, then CreateInputDevices: the devices for an `--input` value.
bool CreateInputDevices(std::string_view option, InputDevices* devices, std::string* error);

}  // namespace contactlab
