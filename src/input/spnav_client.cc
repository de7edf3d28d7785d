#include "input/spnav_client.h"

#include <poll.h>
#include <signal.h>
#include <spnav.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <fstream>

// Xlib.h (pulled in by spnav.h) defines these as macros; nothing below needs them.
#undef None
#undef Status
#undef Bool
#undef Success

namespace contactlab {
namespace {

// spacenavd's events are 8 int32 (type, then x y z rx ry rz period or the button number).
constexpr int kEventBytes = 8 * 4;
constexpr int kMaxEventsPerDrain = 1024;

// libspnav's connection is a process-wide singleton.
std::atomic<bool> g_spnav_in_use{false};

// libspnav writes to the socket with write(); if the daemon vanished in between, that raises
// SIGPIPE, whose default action would kill the whole simulator. Block it on this thread for the
// duration of the call and discard a pending one, without touching the process-wide handler.
class ScopedSigpipeBlock {
 public:
  ScopedSigpipeBlock() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~ScopedSigpipeBlock() {
    sigset_t pending;
    sigpending(&pending);
    if (sigismember(&pending, SIGPIPE) && !sigismember(&old_, SIGPIPE)) {
      sigset_t set;
      sigemptyset(&set);
      sigaddset(&set, SIGPIPE);
      const timespec zero{0, 0};
      sigtimedwait(&set, nullptr, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }

 private:
  sigset_t old_;
};

bool IsSocket(const std::string& path) {
  struct stat st;
  return !path.empty() && stat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode);
}

// Mirrors libspnav 1.0's search: $SPNAV_SOCKET, "socket = PATH" in /etc/spnavrc, default path.
std::vector<std::string> CandidateSocketPaths() {
  std::vector<std::string> paths;
  if (const char* env = std::getenv("SPNAV_SOCKET")) paths.emplace_back(env);
  std::ifstream rc("/etc/spnavrc");
  std::string line;
  while (std::getline(rc, line)) {
    const size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    if (line.compare(start, 6, "socket") != 0) continue;
    const size_t eq = line.find('=', start);
    if (eq == std::string::npos) continue;
    const size_t b = line.find_first_not_of(" \t", eq + 1);
    const size_t e = line.find_last_not_of(" \t\r\n");
    if (b != std::string::npos && e >= b) paths.push_back(line.substr(b, e - b + 1));
    break;
  }
  paths.emplace_back("/var/run/spnav.sock");
  return paths;
}

}  // namespace

SpnavClient::~SpnavClient() { Disconnect(); }

std::string SpnavClient::DaemonSocketPath() { return CandidateSocketPaths().front(); }

SpnavClient::ConnectResult SpnavClient::Connect(std::string* error) {
  if (connected_) return ConnectResult::kConnected;
  // Only call spnav_open when some candidate socket exists: it is then cheap to report "no
  // daemon", and a failed spnav_open leaks a small queue node inside libspnav.
  bool any = false;
  for (const std::string& p : CandidateSocketPaths()) any = any || IsSocket(p);
  if (!any) {
    if (error) *error = "no socket at " + DaemonSocketPath();
    return ConnectResult::kNoDaemon;
  }
  bool expected = false;
  if (!g_spnav_in_use.compare_exchange_strong(expected, true)) {
    if (error) *error = "libspnav connection already in use by another space mouse device";
    return ConnectResult::kInUse;
  }
  int rc;
  {
    ScopedSigpipeBlock block;
    rc = spnav_open();
  }
  if (rc == -1) {
    g_spnav_in_use = false;
    if (error) *error = "cannot connect to " + DaemonSocketPath();
    return ConnectResult::kNoDaemon;
  }
  connected_ = true;
  return ConnectResult::kConnected;
}

void SpnavClient::Disconnect() {
  if (!connected_) return;
  spnav_close();
  connected_ = false;
  g_spnav_in_use = false;
}

bool SpnavClient::Drain(std::vector<SpnavEvent>* events) {
  if (!connected_) return false;  // spnav_poll_event dereferences freed state when closed
  const int fd = spnav_fd();
  // Bounded so a flooding daemon cannot keep Poll from returning.
  for (int i = 0; i < kMaxEventsPerDrain; ++i) {
    // libspnav treats end-of-file like "no event", and it would decode a partially received
    // event as garbage, so peek first: zero bytes on a readable socket means the daemon hung
    // up; fewer than one whole event means wait for the rest.
    char peek[kEventBytes];
    const ssize_t n = recv(fd, peek, sizeof peek, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
      Disconnect();
      return false;
    }
    if (n < static_cast<ssize_t>(sizeof peek)) {
      // A fragment followed by a hang-up would otherwise wait forever for its remainder.
      pollfd p{fd, POLLRDHUP, 0};
      if (n > 0 && poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP))) {
        Disconnect();
        return false;
      }
      return true;
    }
    spnav_event ev;
    const int type = spnav_poll_event(&ev);
    if (type == 0) return true;
    SpnavEvent out;
    if (type == SPNAV_EVENT_MOTION) {
      out.type = SpnavEvent::Type::kMotion;
      out.axes = {ev.motion.x, ev.motion.y, ev.motion.z, ev.motion.rx, ev.motion.ry, ev.motion.rz};
      out.period_ms = static_cast<int>(ev.motion.period);
    } else if (type == SPNAV_EVENT_BUTTON) {
      out.type =
          ev.button.press ? SpnavEvent::Type::kButtonPress : SpnavEvent::Type::kButtonRelease;
      out.button = ev.button.bnum;
    } else {
      continue;  // device / configuration events: nothing to do
    }
    events->push_back(out);
  }
  return true;
}

}  // namespace contactlab
