#include "io/bounded_child.h"

#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <stdexcept>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CONTACTLAB_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CONTACTLAB_SANITIZED 1
#endif
#endif

namespace contactlab {
namespace {

// The answer's first byte: '1' success (the bytes follow), '0' failure (the reason follows).
constexpr char kSucceeded = '1', kFailed = '0';

// Under a sanitizer the child gets no address-space limit: the shadow memory reserves terabytes
// of address space (the sanitizer's own allocator cap bounds it instead).
#ifndef CONTACTLAB_SANITIZED
// Current virtual size of this process [bytes], from /proc/self/statm (0 if unreadable).
double VirtualSizeBytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long pages = 0;
  const int read = std::fscanf(f, "%lu", &pages);
  std::fclose(f);
  return read == 1 ? static_cast<double>(pages) * static_cast<double>(::sysconf(_SC_PAGESIZE)) : 0;
}
#endif

bool WriteAll(int fd, const std::string& bytes) {
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

[[noreturn]] void RunChild(int fd, const std::function<std::string()>& work,
                           const ChildBudget& budget) {
  // The reader's own crash is the parent's to report: handlers inherited from the parent (a
  // sanitizer's, a fuzzer's) must not treat it as the parent's crash.
  for (const int signal : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGXCPU}) {
    std::signal(signal, SIG_DFL);
  }
  const rlim_t cpu = static_cast<rlim_t>(budget.cpu_s);
  const rlimit cpu_limit{cpu, cpu + 1};  // SIGXCPU at the soft limit, SIGKILL a second later
  ::setrlimit(RLIMIT_CPU, &cpu_limit);
#ifndef CONTACTLAB_SANITIZED
  const rlim_t memory = static_cast<rlim_t>(VirtualSizeBytes() + budget.memory_GB * 1e9);
  const rlimit memory_limit{memory, memory};
  ::setrlimit(RLIMIT_AS, &memory_limit);
#endif
  std::string answer;
  try {
    answer = kSucceeded + work();
  } catch (const std::runtime_error& e) {
    answer = kFailed + std::string(e.what());
  } catch (const std::bad_alloc&) {
    answer = kFailed + fmt::format("more than {:g} GB of memory", budget.memory_GB);
  }
  // _exit: neither the parent's atexit handlers nor its stdio buffers run twice.
  ::_exit(WriteAll(fd, answer) ? 0 : 1);
}

std::string DescribeStop(int status, const ChildBudget& budget) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    if (signal == SIGXCPU || signal == SIGKILL) {
      return fmt::format("more than {} s of CPU time", budget.cpu_s);
    }
    return fmt::format("the reader crashed (signal {})", signal);
  }
  return "the reader stopped without an answer";
}

}  // namespace

ChildResult RunInBoundedChild(const std::function<std::string()>& work, const ChildBudget& budget) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) throw std::runtime_error("cannot create a pipe for the reader");
  // The child inherits unwritten stdio buffers: a reader that flushes them (assimp's assertion
  // message on std::cerr flushes std::cout, so stdout) would print the parent's pending output
  // a second time.
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    throw std::runtime_error("cannot start a process for the reader");
  }
  if (pid == 0) {
    ::close(pipe_fds[0]);
    RunChild(pipe_fds[1], work, budget);
  }
  ::close(pipe_fds[1]);
  std::string answer;
  char buffer[65536];
  for (;;) {  // read to the end before waiting: the answer may exceed the pipe's buffer
    const ssize_t n = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    answer.append(buffer, static_cast<size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ChildResult result;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || answer.empty()) {
    result.failure = DescribeStop(status, budget);
    return result;
  }
  result.ok = answer[0] == kSucceeded;
  (result.ok ? result.bytes : result.failure) = answer.substr(1);
  return result;
}

}  // namespace contactlab
