// Teleoperation on the sim thread (docs/architecture.md §5): the input devices (live, or a
// replay file played in the window), the TeleopController that turns their commands into the
// arm's PD targets, and the recording of those commands (the replay CSV of --record, so that
// `--headless --input replay:FILE` reproduces the run bit for bit). Scene changes and resets
// are the caller's: it tells the session.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "app/runtime/sim_runtime.h"
#include "app/runtime/snapshot.h"
#include "app/teleop/teleop_controller.h"
#include "input/circle_device.h"
#include "input/input_spec.h"
#include "input/recorder.h"
#include "input/replay_device.h"

namespace contactlab {

class TeleopSession {
 public:
  // `error` reports rejected settings and files (on the sim thread).
  explicit TeleopSession(std::function<void(std::string)> error);

  // ---- Before the sim thread starts.
  // And Rebuild(world). A replay among them plays as PlayReplay's does, then the keyboard.
  void SetDevices(InputDevices devices, const World& world);
  void SetRecorder(std::unique_ptr<Recorder> recorder);
  // Any thread: set before the start, never changed (null without devices).
  std::shared_ptr<KeyboardDevice> keyboard() const { return devices_.keyboard; }
  std::shared_ptr<GamepadDevice> gamepad() const { return devices_.gamepad; }

  // ---- Sim thread.
  // A new scene: a controller if `world` has an arm (FindTeleopConfig) and there are devices.
  // A scene whose teleop program is a circle (app/teleop/teleop_program.h) is driven by it
  // until the user takes over by choosing a live input (SelectInput) or plays a replay.
  void Rebuild(const World& world);
  void Reset(const World& world);  // the world was reset: targets and the measured grip too
  // The arm's targets re-anchored where `world` is (after a branch's replay).
  void ResetTargets(const World& world);
  bool active() const { return controller_ != nullptr; }      // a controller is running
  void SetOptions(const command::SetTeleopOptions& options);  // bad values: reported, kept
  // Before a step with live input: polls the active device at the world's time, records the
  // command, and turns it into `world`'s PD targets.
  void Update(World* world);
  // After a step: the net normal force on the leader finger (0 without a controller).
  void MeasureGrip(const World& world);
  double measured_grip_force_N() const { return grip_force_N_measured_; }
  // The active device's name and status, kept for Fill (strings: not on every step).
  void RefreshDeviceStatus();
  void Fill(TeleopView* view) const;
  void Fill(RecordingView* view) const;

  // ---- Recording and replaying in the window (command::StartRecording, PlayReplay, ...).
  // Opens `path` for a recording (null, reported, if it cannot be written), and ends any
  // recording and replay: what is recorded is the live device. The caller then resets the run
  // and hands the recorder to StartRecording.
  std::unique_ptr<Recorder> OpenRecording(const std::string& path);
  void StartRecording(std::unique_ptr<Recorder> recorder, const std::string& path);
  void StopRecording();  // closes the file
  // Loads a replay CSV to play in place of the live device (false, reported, if it is
  // malformed or the scene, `scene_name`, has no arm); ends a recording. The caller then resets
  // the run.
  bool PlayReplay(const std::string& path, const std::string& scene_name);
  double replay_end_s() const { return replay_device_ ? replay_device_->end_time() : 0.0; }
  // Switches the live device (during a replay: the one that takes over at its end).
  void SelectInput(InputSpec::Kind kind);
  // After a step at `time_s`: a finished replay hands over to the live device, which starts
  // from the targets the replay left (a live device at rest holds them).
  void EndReplayIfDone(double time_s);

 private:
  void StartKeyboardAtTheLatchedGrip();
  void HandOverToTheLiveDevice();
  void StartTheScenesCircle(const SceneSpec& scene);
  void EndTheCircle();
  void RestartButtonMotion();
  void LimitButtonSpeeds();
  std::function<void(std::string)> error_;
  InputDevices devices_;
  std::unique_ptr<Recorder> recorder_;
  std::unique_ptr<TeleopController> controller_;
  double sensitivity_ = 1.0;
  TeleopFrame frame_ = TeleopFrame::kDeviceOwn;
  std::optional<double> grip_force_N_;  // set by the UI; else the robot's default
  std::string grip_program_label_;      // the controller's grip-force program ("": none)
  std::string joint_program_label_;     // the scene's joint program ("": none)
  double grip_force_N_measured_ = 0;    // |net normal force| on the leader finger, last step
  std::string device_name_, device_status_;
  bool device_connected_ = true;
  std::shared_ptr<InputDevice> live_device_;  // set aside while a replay plays
  std::shared_ptr<ReplayDevice> replay_device_;
  std::shared_ptr<CircleDevice> circle_device_;  // the scene's circle while it drives
  std::string last_recording_path_;
};

}  // namespace contactlab
