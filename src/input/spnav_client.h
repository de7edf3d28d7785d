// A thin, non-blocking wrapper around libspnav's AF_UNIX connection to spacenavd.
//
// libspnav 1.0 keeps its connection in process-global state, so only one SpnavClient may be
// connected at a time (a second Connect fails with a message). libspnav finds the daemon socket
// at $SPNAV_SOCKET, then the "socket = PATH" line of /etc/spnavrc, then /var/run/spnav.sock;
// tests point SPNAV_SOCKET at a fake daemon. This is the only file that includes spnav.h (which
// pulls in Xlib.h and its macros).
#pragma once

#include <array>
#include <string>
#include <vector>

namespace contactlab {

struct SpnavEvent {
  enum class Type { kMotion, kButtonPress, kButtonRelease };
  Type type = Type::kMotion;
  std::array<int, 6> axes{};  // x y z rx ry rz, raw daemon units (kMotion)
  int period_ms = 0;          // time since the previous motion event (kMotion)
  int button = 0;             // button number (kButton*)
};

class SpnavClient {
 public:
  SpnavClient() = default;
  ~SpnavClient();
  SpnavClient(const SpnavClient&) = delete;
  SpnavClient& operator=(const SpnavClient&) = delete;

  enum class ConnectResult { kConnected, kNoDaemon, kInUse };

  // Connects to the daemon. kNoDaemon (with *error set) when no daemon socket exists or the
  // connection is refused (a stale socket file); kInUse when another SpnavClient holds
  // libspnav's single connection. Cost: a connect(), plus libspnav's protocol handshake, which
  // waits up to 300 ms for an answer from pre-1.0 spacenavd versions that never answer it.
  ConnectResult Connect(std::string* error);
  void Disconnect();
  bool connected() const { return connected_; }

  // Appends every pending event without blocking. Returns false when the daemon has closed the
  // connection (the client is then disconnected); unknown event types (device add/remove,
  // config) are skipped.
  bool Drain(std::vector<SpnavEvent>* events);

  // The socket path libspnav will try first, for messages.
  static std::string DaemonSocketPath();

 private:
  bool connected_ = false;
};

}  // namespace contactlab
