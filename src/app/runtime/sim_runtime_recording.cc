// SimRuntime's teleoperation input in the window (command::StartRecording, StopRecording,
// PlayReplay, SelectInput): the replay CSV of --record, written and played by the sim thread,
// and the switch between live devices.
#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <utility>

#include "app/runtime/sim_runtime_impl.h"

namespace contactlab {

// From the initial state, as a headless replay starts: the recording then reproduces the run.
void SimRuntime::Impl::Apply(command::StartRecording& c) {
  auto fresh = std::make_unique<Recorder>();
  std::string error;
  if (!fresh->Open(c.path, &error)) {
    Error(fmt::format("recording not started: {}", error));
    return;
  }
  StopRecordingFile();
  if (replay_device) {  // what is recorded is the live device
    devices.active = std::move(live_device);
    replay_device.reset();
  }
  command::Reset reset;
  Apply(reset);
  recorder = std::move(fresh);
  last_recording_path = c.path;
  spdlog::info("sim runtime: recording teleoperation to {}", c.path);
}

void SimRuntime::Impl::Apply(command::StopRecording&) { StopRecordingFile(); }

void SimRuntime::Impl::StopRecordingFile() {
  if (!recorder) return;
  recorder->Close();
  spdlog::info("sim runtime: recorded {} commands to {}", recorder->rows_written(),
               recorder->path());
  recorder.reset();
}

void SimRuntime::Impl::Apply(command::PlayReplay& c) {
  std::string error;
  std::unique_ptr<ReplayDevice> loaded = ReplayDevice::Load(c.path, &error);
  if (!loaded) {
    Error(fmt::format("replay not started: {}", error));
    return;
  }
  if (!teleop) {
    Error(fmt::format("replay not started: '{}' has no teleoperated arm", world->scene().name));
    return;
  }
  StopRecordingFile();
  if (!replay_device) live_device = devices.active;
  replay_device = std::move(loaded);
  devices.active = replay_device;
  command::Reset reset;
  Apply(reset);
  spdlog::info("sim runtime: playing {} ({:.2f} s)", c.path, replay_device->end_time());
}

void SimRuntime::Impl::Apply(command::SelectInput& c) {
  if (!devices.keyboard || c.kind == InputSpec::Kind::kReplay) return;
  std::shared_ptr<InputDevice> live = MakeLiveInputDevice(c.kind, devices);
  spdlog::info("sim runtime: teleoperation input {}", live->Name());
  (replay_device ? live_device : devices.active) = std::move(live);
}

// After a step: a finished replay hands over to the live device, which starts from the targets
// the replay left (a live device at rest holds them).
void SimRuntime::Impl::EndReplayIfDone() {
  if (!replay_device || !replay_device->Finished(world->time())) return;
  spdlog::info("sim runtime: replay finished at t = {:.3f} s; live input again", world->time());
  devices.active = std::move(live_device);
  replay_device.reset();
}

void SimRuntime::Impl::FillRecordingView(Snapshot* s) const {
  RecordingView& r = s->recording;
  r.recording = recorder != nullptr;
  r.path = last_recording_path;
  r.rows = recorder ? recorder->rows_written() : 0;
  r.replaying = replay_device != nullptr;
  r.replay_end_s = replay_device ? replay_device->end_time() : 0.0;
}

}  // namespace contactlab
