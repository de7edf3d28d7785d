#include "input/space_mouse_device.h"

#include <spdlog/spdlog.h>

#include <vector>

namespace contactlab {

SpaceMouseDevice::SpaceMouseDevice(SpaceMouseConfig config) : config_(std::move(config)) {
  TryConnect(/*log_failure=*/true);
}

void SpaceMouseDevice::TryConnect(bool log_failure) {
  last_attempt_ = std::chrono::steady_clock::now();
  std::string error;
  const SpnavClient::ConnectResult result = client_.Connect(&error);
  if (result == SpnavClient::ConnectResult::kConnected) {
    raw_.fill(0);
    status_ = "space mouse connected (" + SpnavClient::DaemonSocketPath() + ")";
    spdlog::info("{}", status_);
    ever_connected_ = true;
    return;
  }
  if (result == SpnavClient::ConnectResult::kInUse) {
    status_ = "space mouse busy: " + error;
  } else if (!ever_connected_) {
    status_ = kNoDaemonStatus;
  }
  if (log_failure) spdlog::warn("{} ({}); keyboard input keeps working", status_, error);
}

void SpaceMouseDevice::ApplyButton(int button) {
  const auto it = config_.buttons.find(button);
  if (it == config_.buttons.end()) return;
  switch (it->second) {
    case SpaceMouseButtonAction::kNone:
      break;
    case SpaceMouseButtonAction::kOpenGrip:
      grip_ = 0.0;
      break;
    case SpaceMouseButtonAction::kCloseGrip:
      grip_ = 1.0;
      break;
    case SpaceMouseButtonAction::kToggleGrip:
      grip_ = grip_ >= 0.5 ? 0.0 : 1.0;
      break;
    case SpaceMouseButtonAction::kToggleDominantAxis:
      config_.dominant_axis = !config_.dominant_axis;
      break;
    case SpaceMouseButtonAction::kToggleTranslationLock:
      config_.lock_translation = !config_.lock_translation;
      break;
    case SpaceMouseButtonAction::kToggleRotationLock:
      config_.lock_rotation = !config_.lock_rotation;
      break;
  }
}

TeleopCommand SpaceMouseDevice::Poll(double t) {
  if (!client_.connected()) {
    const auto now = std::chrono::steady_clock::now();
    if (!last_attempt_ || std::chrono::duration<double>(now - *last_attempt_).count() >=
                              config_.reconnect_interval_s) {
      TryConnect(/*log_failure=*/false);
    }
  }
  if (client_.connected()) {
    std::vector<SpnavEvent> events;
    const bool alive = client_.Drain(&events);
    // Apply what arrived before a hang-up too, so a final button press is not lost.
    for (const SpnavEvent& e : events) {
      if (e.type == SpnavEvent::Type::kMotion) {
        raw_ = e.axes;
      } else if (e.type == SpnavEvent::Type::kButtonPress) {
        ApplyButton(e.button);
      }
    }
    if (!alive) {
      raw_.fill(0);  // a vanished daemon must not leave the arm moving
      status_ = kDisconnectedStatus;
      spdlog::warn("{}; twist set to zero, will reconnect", kDisconnectedStatus);
      last_attempt_ = std::chrono::steady_clock::now();
    }
  }
  TeleopCommand c;
  c.t = t;
  c.frame = config_.frame;
  c.grip = grip_;
  if (client_.connected()) SpaceMouseToTwist(raw_, config_, &c);
  return c;
}

}  // namespace contactlab
