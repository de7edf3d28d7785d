// The grip-force square wave (issue 36; app/teleop/grip_force_program.h): the SAP paper's
// §VI-D program, 1–16 N, period 6 s, duty 75 %, at known times and its switch instants.
#include "app/teleop/grip_force_program.h"

#include <gtest/gtest.h>

namespace contactlab {
namespace {

TEST(GripForceProgram, SquareWaveIsHighForTheDutyFractionOfEachPeriod) {
  const GripForceSquareWave wave{1.0, 16.0, 6.0, 0.75};  // low, high, period, duty
  // High on [0, 4.5), low on [4.5, 6): each switch instant belongs to the phase it starts.
  EXPECT_EQ(GripForceAt(wave, 0.0), 16.0);
  EXPECT_EQ(GripForceAt(wave, 2.0), 16.0);
  EXPECT_EQ(GripForceAt(wave, 4.49), 16.0);
  EXPECT_EQ(GripForceAt(wave, 4.5), 1.0);
  EXPECT_EQ(GripForceAt(wave, 5.99), 1.0);
  EXPECT_EQ(GripForceAt(wave, 6.0), 16.0);
  EXPECT_EQ(GripForceAt(wave, 10.49), 16.0);
  EXPECT_EQ(GripForceAt(wave, 10.5), 1.0);
  EXPECT_EQ(GripForceAt(wave, 12.0), 16.0);
  EXPECT_EQ(GripForceAt(wave, 16.5), 1.0);
  EXPECT_EQ(GripForceAt(wave, 17.99), 1.0);
  // Before t = 0 the wave continues backwards: −1 s is 5 s into a period (low), −2 s is 4 s.
  EXPECT_EQ(GripForceAt(wave, -1.0), 1.0);
  EXPECT_EQ(GripForceAt(wave, -2.0), 16.0);
  // Duty 0 and 1: always low, always high.
  EXPECT_EQ(GripForceAt({1.0, 16.0, 6.0, 0.0}, 0.0), 1.0);
  EXPECT_EQ(GripForceAt({1.0, 16.0, 6.0, 1.0}, 5.99), 16.0);
  EXPECT_EQ(GripForceProgramLabel(wave), "square wave 1-16 N, 6 s, 75 %");
}

}  // namespace
}  // namespace contactlab
