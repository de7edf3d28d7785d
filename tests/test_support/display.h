// GUI tests need an X display (scripts/test.sh runs ctest under xvfb-run). Without one a GUI test
// is skipped, and ctest reports it as skipped, not passed (gtest_discover_tests matches gtest's
// "[  SKIPPED ]" with SKIP_REGULAR_EXPRESSION) — except under CI (CI=true), where a missing
// display is a broken set-up that would hide every GUI test, so the test fails instead.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

namespace contactlab::testing {

inline bool HaveDisplay() {
  const char* d = std::getenv("DISPLAY");
  return d != nullptr && d[0] != '\0';
}

inline bool RunningUnderCi() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string_view(ci) == "true";
}

// Why a GUI test cannot run here ("" when it can).
inline const char* NoDisplayReason() {
  return HaveDisplay() ? "" : "no DISPLAY (run the GUI tests under xvfb-run -a)";
}

}  // namespace contactlab::testing

// In a GUI test's body (or a fixture's SetUp): skips without a display, fails under CI=true.
#define CONTACTLAB_REQUIRE_DISPLAY()                                                  \
  do {                                                                                \
    if (!::contactlab::testing::HaveDisplay()) {                                      \
      if (::contactlab::testing::RunningUnderCi()) {                                  \
        FAIL() << ::contactlab::testing::NoDisplayReason() << ", and CI=true: a GUI " \
               << "test must not be skipped in CI";                                   \
      }                                                                               \
      GTEST_SKIP() << ::contactlab::testing::NoDisplayReason();                       \
    }                                                                                 \
  } while (false)
