#include "ui/panels/teleop_panel.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "app/runtime/sim_runtime.h"
#include "ui/widgets/widgets.h"

namespace contactlab {

namespace {
constexpr const char* kFrames[] = {"device's own", "world", "tool"};

// The live devices the panel switches between (command::SelectInput), in combo order.
constexpr InputSpec::Kind kLiveInputs[] = {InputSpec::Kind::kKeyboard, InputSpec::Kind::kSpaceMouse,
                                           InputSpec::Kind::kGamepad};
constexpr const char* kLiveInputLabels[] = {"keyboard", "space mouse + keyboard",
                                            "gamepad + keyboard"};

// The combo's entry for the active device's name ("spacemouse+keyboard", ...); -1 for a replay.
int LiveInputIndex(const std::string& device_name) {
  if (device_name.rfind("spacemouse", 0) == 0) return 1;
  if (device_name.rfind("gamepad", 0) == 0) return 2;
  if (device_name == "keyboard") return 0;
  return -1;
}

void InputDeviceCombo(const TeleopView& t, UiActions* actions) {
  int selected = LiveInputIndex(t.device_name);
  const char* preview = selected >= 0 ? kLiveInputLabels[selected] : t.device_name.c_str();
  if (!ImGui::BeginCombo("input", preview)) return;
  for (int i = 0; i < 3; ++i) {
    if (ImGui::Selectable(kLiveInputLabels[i], i == selected) && i != selected) {
      actions->commands.push_back(command::SelectInput{kLiveInputs[i]});
    }
  }
  ImGui::EndCombo();
}

// The scene's circle (input/circle_device.h): its frequency, live; a live input chosen above
// takes over from it.
void CircleControls(const TeleopView& t, UiActions* actions) {
  float frequency = static_cast<float>(t.circle_frequency_Hz);
  if (ImGui::SliderFloat("circle", &frequency, 0.0f, 3.0f, "%.2f Hz")) {
    command::SetTeleopOptions c;
    c.circle_frequency_Hz = frequency;
    actions->commands.push_back(c);
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("The scene's circle drives the hand; choose an input above to take over.");
  }
}

// The scene's grip-force program: what it is, whether the slider has overridden it, and a
// checkbox to follow it again (moving the slider unticks it: SetTeleopOptions::grip_force_N).
void GripProgramControls(const TeleopView& t, UiActions* actions) {
  if (t.grip_program.empty()) return;
  bool follow = t.grip_program_followed;
  if (ImGui::Checkbox("follow program", &follow)) {
    command::SetTeleopOptions c;
    c.follow_grip_program = follow;
    actions->commands.push_back(c);
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(follow ? kDimColor : kWarnColor, "%s",
                     GripProgramLine(t.grip_program, follow).c_str());
  ImGui::PopTextWrapPos();
}
}  // namespace

std::string GripProgramLine(const std::string& program, bool followed) {
  return "program: " + program + (followed ? "" : " - overridden");
}

std::string GripStateLabel(double grip, bool latched) {
  const bool closed = grip > 0.5;
  return std::string("grip ") + (closed ? "closed" : "open") + (latched ? " (scene's)" : "") +
         "   Space: " + (closed ? "open" : "close");
}

void TeleopPanel(const Snapshot& snapshot, UiState* ui, UiActions* actions) {
  const TeleopView& t = snapshot.teleop;
  if (!t.active) {
    ImGui::TextColored(kDimColor, "no robot arm in this scene");
    return;
  }
  // Device.
  InputDeviceCombo(t, actions);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(t.device_connected ? kDimColor : kWarnColor, "%s", t.device_status.c_str());
  if (t.device_name.rfind("gamepad", 0) == 0) {  // the pad has no labels of its own
    ImGui::TextColored(kDimColor,
                       "pad: left stick x/y, LB/RB z (tap: 1 mm step, hold: speed), right "
                       "stick yaw/pitch, triggers roll, A gripper, hold B fine");
  }
  if (t.fixed_hand) {
    ImGui::TextColored(kDimColor, "hand fixed to the world: motion commands are ignored");
  }
  if (!t.joint_program.empty()) {
    ImGui::TextColored(kDimColor,
                       "the scene's joint program drives the arm (%s): motion "
                       "commands are ignored",
                       t.joint_program.c_str());
  }
  ImGui::PopTextWrapPos();

  // Settings: posted as commands, shown from the snapshot (the value in force).
  float sensitivity = static_cast<float>(t.sensitivity);
  if (ImGui::SliderFloat("sensitivity", &sensitivity, 0.05f, 10.0f, "%.2f x",
                         ImGuiSliderFlags_Logarithmic)) {
    command::SetTeleopOptions c;
    c.sensitivity = sensitivity;
    actions->commands.push_back(c);
  }
  int frame = static_cast<int>(t.frame);
  if (ImGui::Combo("frame", &frame, kFrames, 3)) {
    command::SetTeleopOptions c;
    c.frame = static_cast<TeleopFrame>(frame);
    actions->commands.push_back(c);
  }
  if (t.circle_driving) CircleControls(t, actions);
  float grip_force = static_cast<float>(t.grip_force_limit_N);
  if (ImGui::SliderFloat("grip force", &grip_force, 1.0f,
                         static_cast<float>(std::max(t.max_grip_force_N, 1.0)), "%.1f N")) {
    command::SetTeleopOptions c;
    c.grip_force_N = grip_force;
    actions->commands.push_back(c);
  }
  GripProgramControls(t, actions);
  ImGui::Checkbox("show target pose", &ui->layers.teleop_target);
  if (ImGui::Button("Reset task")) actions->commands.push_back(command::Reset{});
  ImGui::SameLine();
  ImGui::TextColored(kDimColor, "(R)");

  // State.
  ImGui::TextUnformatted(GripStateLabel(t.grip, t.grip_latched).c_str());
  if (t.grip_latched && ImGui::IsItemHovered()) {
    ImGui::SetTooltip("The scene's initial grip holds until the first gripper toggle.");
  }
  ImGui::Text("opening %.1f mm  squeeze %.1f N", 1e3 * t.finger_opening_m, t.grip_force_N);
  const Eigen::Vector3d p = t.tcp_W.translation();
  ImGui::Text("TCP  %.3f %.3f %.3f m", p.x(), p.y(), p.z());
  const bool lagging = t.position_error_m > 0.005;
  ImGui::TextColored(lagging ? kWarnColor : kDimColor, "target error %.1f mm, %.1f deg",
                     1e3 * t.position_error_m, t.orientation_error_rad * 180.0 / M_PI);
  ImGui::Text("command v %.3f m/s  w %.2f rad/s", t.linear_m_per_s.norm(),
              t.angular_rad_per_s.norm());
  if (t.fixed_hand || !t.joint_program.empty()) {
    // No arm, or an arm the joint program drives: no IK to report.
  } else if (!t.ik_ok || t.ik_num_limited > 0) {
    ImGui::TextColored(kWarnColor, "IK: %d joint(s) at a limit, sigma_min %.3f%s", t.ik_num_limited,
                       t.ik_min_singular_value, t.ik_ok ? "" : ", QP not converged");
  } else {
    ImGui::TextColored(kGoodColor, "IK ok, sigma_min %.3f", t.ik_min_singular_value);
  }
  if (ImGui::TreeNode("keys")) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kDimColor, "%s", MotionKeysHelp(KeyboardConfig{}).c_str());
    ImGui::PopTextWrapPos();
    for (const KeyBinding& b : DefaultKeyMap()) {
      ImGui::Text("%-6s %s", b.key, b.description);
    }
    ImGui::TextColored(kDimColor, "Enter: pause / resume   .: one step");
    ImGui::TreePop();
  }
}

int GlfwKeysForName(const char* key_name, int keys[2]) {
  if (std::strlen(key_name) == 1 && key_name[0] >= 'A' && key_name[0] <= 'Z') {
    keys[0] = GLFW_KEY_A + (key_name[0] - 'A');
    return 1;
  }
  if (std::strcmp(key_name, "Space") == 0) {
    keys[0] = GLFW_KEY_SPACE;
    return 1;
  }
  if (std::strcmp(key_name, "+") == 0) {
    keys[0] = GLFW_KEY_EQUAL;  // '+' is shift+'=' on a US layout
    keys[1] = GLFW_KEY_KP_ADD;
    return 2;
  }
  if (std::strcmp(key_name, "-") == 0) {
    keys[0] = GLFW_KEY_MINUS;
    keys[1] = GLFW_KEY_KP_SUBTRACT;
    return 2;
  }
  if (std::strcmp(key_name, "Shift") == 0) {
    keys[0] = GLFW_KEY_LEFT_SHIFT;
    keys[1] = GLFW_KEY_RIGHT_SHIFT;
    return 2;
  }
  return 0;
}

void FeedTeleopKeys(bool teleop_active, std::span<const KeyEvent> events, double known_until_s,
                    int64_t poll, KeyboardDevice* keyboard) {
  if (keyboard == nullptr) return;
  const ImGuiIO& io = ImGui::GetIO();
  if (!teleop_active || io.WantCaptureKeyboard || io.KeyCtrl || io.KeyAlt || io.KeySuper) {
    keyboard->ReleaseAll(known_until_s, poll);
    return;
  }
  std::vector<TimedKeyEvent> timed;
  timed.reserve(events.size());
  for (const KeyEvent& e : events) {
    for (const KeyBinding& b : DefaultKeyMap()) {
      int keys[2] = {-1, -1};
      const int n = GlfwKeysForName(b.key, keys);
      for (int k = 0; k < n; ++k) {
        if (keys[k] == e.glfw_key) timed.push_back({b.action, e.down, e.t_s, e.poll});
      }
    }
  }
  keyboard->HandOver(timed, known_until_s);
}

}  // namespace contactlab
