// A minimal spacenavd for tests: serves the AF_UNIX protocol (events are 8 int32: type 0 motion
// x y z rx ry rz period, 1 press / 2 release + button number) on a socket in a temp dir.
// It answers libspnav 1.0's protocol-change request like spacenavd >= 1.0 or, with
// answer_protocol_request = false, ignores it like older daemons.
#pragma once

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

namespace contactlab::test_support {

class FakeSpacenavd {
 public:
  static constexpr int32_t kReqTag = 0x7faa0000;
  static constexpr int32_t kReqChangeProto = 0x5500;

  explicit FakeSpacenavd(std::string socket_path, bool answer_protocol_request = true)
      : path_(std::move(socket_path)), answer_(answer_protocol_request) {}
  ~FakeSpacenavd() { Stop(); }

  bool Start() {
    listen_fd_ = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path_.c_str(), sizeof addr.sun_path - 1);
    unlink(path_.c_str());
    if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return false;
    if (listen(listen_fd_, 4) != 0) return false;
    stop_ = false;
    thread_ = std::thread([this] { Serve(); });
    return true;
  }

  // Daemon exit: drops the client, removes the socket.
  void Stop() {
    if (!thread_.joinable()) return;
    stop_ = true;
    thread_.join();
    std::lock_guard lock(mutex_);
    if (client_fd_ >= 0) close(client_fd_);
    client_fd_ = -1;
    close(listen_fd_);
    listen_fd_ = -1;
    unlink(path_.c_str());
  }

  bool WaitForClient(std::chrono::milliseconds timeout = std::chrono::milliseconds(30000)) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, timeout, [this] { return client_fd_ >= 0; });
  }

  bool SendMotion(int x, int y, int z, int rx, int ry, int rz, int period_ms = 16) {
    return Send({0, x, y, z, rx, ry, rz, period_ms});
  }
  bool SendButton(int button, bool press) {
    return Send({press ? 1 : 2, button, 0, 0, 0, 0, 0, 0});
  }

  // Raw bytes, e.g. half an event, to exercise partial reads.
  bool SendRaw(const void* data, size_t size) {
    std::lock_guard lock(mutex_);
    return client_fd_ >= 0 &&
           send(client_fd_, data, size, MSG_NOSIGNAL) == static_cast<ssize_t>(size);
  }

  int protocol_requests() const { return protocol_requests_; }

 private:
  bool Send(const std::array<int32_t, 8>& event) {
    std::lock_guard lock(mutex_);
    if (client_fd_ < 0) return false;
    return send(client_fd_, event.data(), sizeof event, MSG_NOSIGNAL) == sizeof event;
  }

  void Serve() {
    while (!stop_) {
      int client;
      {
        std::lock_guard lock(mutex_);
        client = client_fd_;
      }
      pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {client, POLLIN, 0}};
      if (poll(fds, client >= 0 ? 2 : 1, 10) <= 0) continue;
      if (fds[0].revents & POLLIN) {
        const int fd = accept(listen_fd_, nullptr, nullptr);
        std::lock_guard lock(mutex_);
        if (client_fd_ >= 0) close(client_fd_);  // one client at a time is all tests need
        client_fd_ = fd;
        cv_.notify_all();
        continue;
      }
      if (client >= 0 && (fds[1].revents & (POLLIN | POLLHUP))) {
        int32_t word;
        const ssize_t n = recv(client, &word, sizeof word, 0);
        std::lock_guard lock(mutex_);
        if (n <= 0) {
          close(client_fd_);
          client_fd_ = -1;
          continue;
        }
        if (n == sizeof word && (word & 0xffff0000) == kReqTag &&
            (word & 0xff00) == kReqChangeProto) {
          ++protocol_requests_;
          if (answer_) {
            const int32_t reply = kReqTag | kReqChangeProto | 1;
            send(client_fd_, &reply, sizeof reply, MSG_NOSIGNAL);
          }
        }
        // Anything else (an old-protocol sensitivity float) is ignored, like spacenavd would.
      }
    }
  }

  std::string path_;
  bool answer_;
  int listen_fd_ = -1;
  int client_fd_ = -1;
  std::atomic<bool> stop_{false};
  std::atomic<int> protocol_requests_{0};
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
};

}  // namespace contactlab::test_support
