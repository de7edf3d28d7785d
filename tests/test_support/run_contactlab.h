// Runs the contactlab binary as an outside test calls it (docs/architecture.md): its exit code
// and everything it printed (stdout and stderr).
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "test_support/build_paths.h"

namespace contactlab::testing {

struct RunResult {
  int exit_code = -1;  // −1: killed by a signal (a crash) or not run
  std::string output;
};

// gcc says __SANITIZE_ADDRESS__; clang 14 only __has_feature (as in io/bounded_child.cc and
// test_support/allocation_counter.cc).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CONTACTLAB_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CONTACTLAB_TEST_SANITIZED 1
#endif
#endif

#ifdef CONTACTLAB_TEST_SANITIZED
// A sanitized binary reserves terabytes of address space for its shadow memory, so the cap is
// the sanitizer allocator's own (scripts/sanitizer_tests.sh).
inline constexpr const char* kMemoryLimit =
    "ASAN_OPTIONS=\"$ASAN_OPTIONS:max_allocation_size_mb=8000:allocator_may_return_null=1\" ";
#else
inline constexpr const char* kMemoryLimit = "ulimit -v 8000000; ";
#endif

// With `limits`, as the reliability tests run it: under 8 GB of memory (a runaway allocation is
// std::bad_alloc, not the machine's memory) and 120 s (a hang is exit 124).
inline RunResult RunContactlab(const std::string& args, bool limits = false) {
  const std::string run = contactlab::testing::ContactlabBinary() + " " + args + " 2>&1";
  const std::string command = limits ? kMemoryLimit + std::string("timeout 120 ") + run : run;
  RunResult r;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  while (fgets(buffer, sizeof buffer, pipe)) r.output += buffer;
  const int status = pclose(pipe);
  // sh reports a child killed by signal N as exit code 128 + N.
  if (WIFEXITED(status) && WEXITSTATUS(status) < 128) r.exit_code = WEXITSTATUS(status);
  return r;
}

}  // namespace contactlab::testing
