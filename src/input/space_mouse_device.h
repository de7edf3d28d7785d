// 3D space mouse (3Dconnexion) teleoperation through spacenavd / libspnav.
#pragma once

#include <array>
#include <chrono>
#include <optional>
#include <string>

#include "input/input_device.h"
#include "input/space_mouse_mapping.h"
#include "input/spnav_client.h"

namespace contactlab {

// Holds the latest motion reading (spacenavd sends events only when the reading changes; the
// release of the cap arrives as an all-zero event) and the grip state set by buttons.
// Never fatal: with no daemon the device reports "no space mouse daemon (spacenavd) found",
// returns a zero twist and retries every reconnect_interval_s; if the daemon goes away mid
// session the twist drops to zero at once (the grip is held) and it reconnects when the daemon
// returns. Poll never blocks except for libspnav's one-off handshake on a successful connect.
class SpaceMouseDevice : public InputDevice {
 public:
  static constexpr const char* kNoDaemonStatus = "no space mouse daemon (spacenavd) found";
  static constexpr const char* kDisconnectedStatus = "space mouse daemon (spacenavd) disconnected";

  explicit SpaceMouseDevice(SpaceMouseConfig config = {});

  TeleopCommand Poll(double t) override;
  std::string Status() const override { return status_; }
  std::string Name() const override { return "spacemouse"; }

  bool Connected() const override { return client_.connected(); }
  // Live toggles (also reachable through buttons). Not thread-safe: call from the polling thread.
  SpaceMouseConfig& config() { return config_; }

 private:
  void TryConnect(bool log_failure);
  void ApplyButton(int button);

  SpaceMouseConfig config_;
  SpnavClient client_;
  std::array<int, 6> raw_{};
  double grip_ = 0.0;
  std::string status_;
  bool ever_connected_ = false;
  std::optional<std::chrono::steady_clock::time_point> last_attempt_;
};

}  // namespace contactlab
