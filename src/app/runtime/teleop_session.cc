#include "app/runtime/teleop_session.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <exception>
#include <utility>

#include "app/teleop/grip_force_program.h"
#include "app/teleop/teleop_program.h"

namespace contactlab {

TeleopSession::TeleopSession(std::function<void(std::string)> error) : error_(std::move(error)) {}

// A replay from the command line (--input replay:FILE) plays as the Play button's does: for
// its length, with its progress shown, and then the keyboard takes over (docs/architecture.md
// §5), instead of holding the arm still for as long as the window is open.
void TeleopSession::SetDevices(InputDevices devices, const World& world) {
  devices_ = std::move(devices);
  if (auto replay = std::dynamic_pointer_cast<ReplayDevice>(devices_.active)) {
    replay_device_ = std::move(replay);
    live_device_ = MakeLiveInputDevice(InputSpec::Kind::kKeyboard, devices_);
  }
  Rebuild(world);
}

void TeleopSession::SetRecorder(std::unique_ptr<Recorder> recorder) {
  recorder_ = std::move(recorder);
}

void TeleopSession::Rebuild(const World& world) {
  controller_.reset();
  grip_force_N_measured_ = 0;
  RestartButtonMotion();
  EndTheCircle();
  if (!devices_.active) return;
  StartTheScenesCircle(world.scene());
  const std::optional<TeleopConfig> config = FindTeleopConfig(world.scene());
  if (!config && HasJointProgram(world.scene())) {
    error_(fmt::format("'{}': teleop.joint_sines: the scene has no teleoperated arm to drive",
                       world.scene().name));
  }
  if (!config) return;
  try {
    controller_ = std::make_unique<TeleopController>(world, *config);
    // A slider setting from an earlier scene carries over, but not over a scene's program.
    if (grip_force_N_ && !config->grip_force_program) controller_->SetGripForce(*grip_force_N_);
    grip_program_label_ =
        config->grip_force_program ? GripForceProgramLabel(*config->grip_force_program) : "";
    joint_program_label_ = JointProgramLabel(world.scene());
    LimitButtonSpeeds();
    StartKeyboardAtTheLatchedGrip();
  } catch (const std::exception& e) {
    error_(fmt::format("teleoperation unavailable for '{}': {}", world.scene().name, e.what()));
  }
}

// The scene's circle drives in place of the live device, which is set aside (as during a
// replay) to take over when the user chooses an input; a replay from the command line plays
// first.
void TeleopSession::StartTheScenesCircle(const SceneSpec& scene) {
  if (replay_device_) return;
  circle_device_ = MakeCircleDevice(scene);
  if (!circle_device_) return;
  live_device_ = std::move(devices_.active);
  devices_.active = circle_device_;
}

void TeleopSession::EndTheCircle() {
  if (!circle_device_) return;
  if (devices_.active == circle_device_) devices_.active = std::move(live_device_);
  circle_device_.reset();
}

void TeleopSession::Reset(const World& world) {
  ResetTargets(world);
  grip_force_N_measured_ = 0;
}

void TeleopSession::ResetTargets(const World& world) {
  RestartButtonMotion();
  if (!controller_) return;
  controller_->Reset(world);
  StartKeyboardAtTheLatchedGrip();
}

// The controller clamps the commands it is given, and the sensitivity scales a live device's
// before that: the keys and shoulder buttons move and catch up at no more than the clamp lets
// through, so that the displacement they owe is applied as they count it.
void TeleopSession::LimitButtonSpeeds() {
  if (!controller_) return;
  constexpr double kBelow = 1 - 1e-9;  // × sensitivity rounds to no more than the clamp
  const double linear = kBelow * controller_->config().max_linear_speed_m_per_s / sensitivity_;
  const double angular = kBelow * controller_->config().max_angular_speed_rad_per_s / sensitivity_;
  if (devices_.keyboard) devices_.keyboard->SetSpeedLimits(linear, angular);
  if (devices_.gamepad) devices_.gamepad->SetSpeedLimits(linear, angular);
}

// The keys' and shoulder buttons' displacement not yet executed belongs to targets that were
// just set anew (input/button_motion.h): dropped, not carried into the new ones.
void TeleopSession::RestartButtonMotion() {
  if (devices_.keyboard) devices_.keyboard->RestartMotion();
  if (devices_.gamepad) devices_.gamepad->RestartMotion();
}

// The controller holds a scene's initial grip until the device's grip changes
// (TeleopController::Update); the keyboard's Space toggles its own grip. Starting that toggle at
// the latched grip makes the first press do what the panel shows it will (open a closed
// gripper), instead of "closing" the keyboard's open grip under the latch, which changes nothing.
void TeleopSession::StartKeyboardAtTheLatchedGrip() {
  const std::optional<double>& initial_grip = controller_->config().initial_grip;
  if (initial_grip && devices_.keyboard) devices_.keyboard->SetGrip(*initial_grip);
}

void TeleopSession::SetOptions(const command::SetTeleopOptions& options) {
  if (const std::optional<double>& f = options.grip_force_N) {
    if (!(*f > 0) || !std::isfinite(*f)) {
      error_(fmt::format("grip force {} N rejected: must be positive and finite", *f));
    } else {
      grip_force_N_ = *f;
      if (controller_) {
        controller_->FollowGripProgram(false);
        controller_->SetGripForce(*f);
      }
    }
  }
  if (options.follow_grip_program && controller_) {
    controller_->FollowGripProgram(*options.follow_grip_program);
  }
  if (const std::optional<double>& s = options.sensitivity) {
    if (!(*s >= 0.05 && *s <= 10.0)) {
      error_(fmt::format("teleop sensitivity {} rejected: must be within [0.05, 10]", *s));
    } else {
      sensitivity_ = *s;
      LimitButtonSpeeds();
    }
  }
  if (const std::optional<TeleopFrame>& frame = options.frame) {
    if (*frame < TeleopFrame::kDeviceOwn || *frame > TeleopFrame::kTool) {
      error_(fmt::format("teleop frame {} rejected: 0 (device), 1 (world) or 2 (tool)",
                         static_cast<int>(*frame)));
    } else {
      frame_ = *frame;
    }
  }
  if (const std::optional<double>& f = options.circle_frequency_Hz) {
    if (!(*f >= 0 && *f <= CircleDevice::kMaxFrequencyHz)) {
      error_(fmt::format("circle frequency {} Hz rejected: must be within [0, {}]", *f,
                         CircleDevice::kMaxFrequencyHz));
    } else if (circle_device_) {
      circle_device_->SetFrequency(*f);
    }
  }
}

void TeleopSession::Update(World* world) {
  if (!controller_ || !devices_.active) return;
  TeleopCommand command = devices_.active->PollStep(world->time(), world->next_dt());
  if (devices_.active->IsLive()) {  // a replay reproduces its recording exactly
    command.linear_m_per_s *= sensitivity_;
    command.angular_rad_per_s *= sensitivity_;
    if (frame_ == TeleopFrame::kWorld) command.frame = CommandFrame::kWorld;
    if (frame_ == TeleopFrame::kTool) command.frame = CommandFrame::kTool;
  }
  if (recorder_) recorder_->Record(controller_->InWorldAxes(command));
  controller_->Update(command, world);
}

void TeleopSession::MeasureGrip(const World& world) {
  grip_force_N_measured_ = controller_ && !controller_->config().finger_bodies.empty()
                               ? world.NetNormalForce(controller_->config().finger_bodies[0]).norm()
                               : 0.0;
}

void TeleopSession::RefreshDeviceStatus() {
  if (!devices_.active) return;
  device_name_ = devices_.active->Name();
  device_status_ = devices_.active->Status();
  device_connected_ = devices_.active->Connected();
}

void TeleopSession::Fill(TeleopView* view) const {
  TeleopView& v = *view;
  v.active = controller_ != nullptr;
  v.sensitivity = sensitivity_;
  v.frame = frame_;
  v.device_name = device_name_;
  v.device_status = device_status_;
  v.device_connected = device_connected_;
  v.circle_driving = circle_device_ != nullptr;
  v.circle_frequency_Hz = circle_device_ ? circle_device_->frequency_Hz() : 0.0;
  if (!controller_) return;
  const TeleopState& t = controller_->state();
  v.target_tcp_W = t.target_tcp_W;
  v.tcp_W = t.tcp_W;
  v.position_error_m = t.position_error_m;
  v.orientation_error_rad = t.orientation_error_rad;
  const TeleopCommand applied = controller_->InWorldAxes(t.command);
  v.linear_m_per_s = applied.linear_m_per_s;
  v.angular_rad_per_s = applied.angular_rad_per_s;
  v.grip = t.command.grip;
  v.grip_latched = t.grip_latched;
  v.grip_force_limit_N = controller_->grip_force();
  v.max_grip_force_N = controller_->config().max_grip_force_N;
  v.grip_force_N = grip_force_N_measured_;
  v.grip_program = grip_program_label_;
  v.grip_program_followed = controller_->following_grip_program();
  v.fixed_hand = controller_->config().arm_bodies.empty();
  v.joint_program = joint_program_label_;
  v.finger_opening_m = t.finger_opening_m;
  v.ik_ok = t.ik_ok;
  v.ik_num_limited = t.ik_num_limited;
  v.ik_failures = t.ik_failures;
  v.ik_min_singular_value = t.ik_min_singular_value;
}

void TeleopSession::Fill(RecordingView* view) const {
  RecordingView& r = *view;
  r.recording = recorder_ != nullptr;
  r.path = last_recording_path_;
  r.rows = recorder_ ? recorder_->rows_written() : 0;
  r.replaying = replay_device_ != nullptr;
  r.replay_end_s = replay_end_s();
}

std::unique_ptr<Recorder> TeleopSession::OpenRecording(const std::string& path) {
  auto fresh = std::make_unique<Recorder>();
  std::string error;
  if (!fresh->Open(path, &error)) {
    error_(std::string(kRecordingNotStarted) + error);
    return nullptr;
  }
  StopRecording();
  if (replay_device_) HandOverToTheLiveDevice();  // what is recorded is the live device
  return fresh;
}

void TeleopSession::StartRecording(std::unique_ptr<Recorder> recorder, const std::string& path) {
  recorder_ = std::move(recorder);
  last_recording_path_ = path;
  spdlog::info("sim runtime: recording teleoperation to {}", path);
}

void TeleopSession::StopRecording() {
  if (!recorder_) return;
  recorder_->Close();
  spdlog::info("sim runtime: recorded {} commands to {}", recorder_->rows_written(),
               recorder_->path());
  recorder_.reset();
}

bool TeleopSession::PlayReplay(const std::string& path, const std::string& scene_name) {
  std::string error;
  std::unique_ptr<ReplayDevice> loaded = ReplayDevice::Load(path, &error);
  if (!loaded) {
    error_(fmt::format("replay not started: {}", error));
    return false;
  }
  if (!controller_) {
    error_(fmt::format("replay not started: '{}' has no teleoperated arm", scene_name));
    return false;
  }
  StopRecording();
  EndTheCircle();
  if (!replay_device_) live_device_ = devices_.active;
  replay_device_ = std::move(loaded);
  devices_.active = replay_device_;
  return true;
}

void TeleopSession::SelectInput(InputSpec::Kind kind) {
  if (!devices_.keyboard || kind == InputSpec::Kind::kReplay) return;
  std::shared_ptr<InputDevice> live = MakeLiveInputDevice(kind, devices_);
  spdlog::info("sim runtime: teleoperation input {}", live->Name());
  // A pad not polled until now owes its buttons' steps of the meantime to no one.
  if (devices_.gamepad) devices_.gamepad->RestartMotion();
  if (circle_device_) {  // the user takes over from the scene's circle, at once
    circle_device_.reset();
    live_device_.reset();
    devices_.active = std::move(live);
    if (devices_.keyboard && controller_) {
      devices_.keyboard->SetGrip(controller_->state().command.grip);
    }
    return;
  }
  (replay_device_ ? live_device_ : devices_.active) = std::move(live);
}

void TeleopSession::EndReplayIfDone(double time_s) {
  if (!replay_device_ || !replay_device_->Finished(time_s)) return;
  spdlog::info("sim runtime: replay finished at t = {:.3f} s; live input again", time_s);
  HandOverToTheLiveDevice();
}

// The keyboard's Space toggles from the grip the replay left applied, as it does from a scene's
// latch (StartKeyboardAtTheLatchedGrip): taking over neither opens nor closes the gripper.
void TeleopSession::HandOverToTheLiveDevice() {
  devices_.active = std::move(live_device_);
  replay_device_.reset();
  if (devices_.keyboard && controller_)
    devices_.keyboard->SetGrip(controller_->state().command.grip);
  RestartButtonMotion();  // keys pressed during the replay were not the live device's
}

}  // namespace contactlab
