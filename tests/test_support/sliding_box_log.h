// The binary's own --log of `sliding_box` (5 s) at k = 1e5 N/m, μ = 0.4, v_s = 1e-3 m/s: the
// reference the calibration tests fit (docs/contact-model.md §10). Written once per process.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "test_support/run_contactlab.h"
#include "test_support/temp_path.h"

namespace contactlab::testing {

inline const std::string& SlidingBoxLog() {
  static const std::string path = [] {
    const std::string p = TempPath("sliding_box_ref.csv");
    const RunResult run = RunContactlab(
        "--headless --scene sliding_box --stiffness 1e5 --friction 0.4 --stiction-tolerance 1e-3 "
        "--log " +
        p);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    return p;
  }();
  return path;
}

}  // namespace contactlab::testing
