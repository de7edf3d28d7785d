// The sim thread's pacing with known answers: given time points (no clock, no sleeping), the
// due time of every step is the anchor plus the simulated time over the target factor, a pace
// too far behind re-anchors instead of catching up, and the achieved factor is simulated over
// wall time across the window of rate marks. δt and the wall times are powers of two in
// nanoseconds' reach, so every expected value is exact.
#include "app/runtime/pacer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>

namespace contactlab {
namespace {

using Clock = Pacer::Clock;
using std::chrono::milliseconds;
using std::chrono::nanoseconds;

const Clock::time_point kT0 = Clock::time_point{} + std::chrono::hours(1);
constexpr double kDt = 1.0 / 64;  // 15.625 ms
constexpr int64_t kDtNs = 15'625'000;

Clock::time_point At(int64_t ns) { return kT0 + nanoseconds(ns); }

TEST(Pacer, EveryStepIsDueAtTheAnchorPlusItsSimulatedTimeOverTheFactor) {
  Pacer pacer(0.5);  // a step of δt every 2 δt of wall time
  EXPECT_EQ(pacer.NextStepDue(kT0, kDt, kDt), kT0) << "unanchored: due at once";
  for (int k = 1; k <= 10; ++k) {
    pacer.StepTaken(kDt, At(2 * kDtNs * (k - 1) + 1000));  // each step done early
    EXPECT_EQ(pacer.NextStepDue(At(2 * kDtNs * (k - 1) + 2000), kDt, kDt), At(2 * kDtNs * k)) << k;
  }
  EXPECT_EQ(pacer.sim_total_s(), 10 * kDt);
  // Asked again after the due time, the answer stays: the loop takes the step.
  EXPECT_EQ(pacer.NextStepDue(At(2 * kDtNs * 10 + 5), kDt, kDt), At(2 * kDtNs * 10));
}

TEST(Pacer, ALateStepIsMadeUpWithinTheLagBoundAndReanchoredBeyondIt) {
  // Factor 0.5: the bound is max(2 δt / 0.5, 20 ms) = 62.5 ms, steps-bound.
  Pacer slow(0.5);
  slow.NextStepDue(kT0, kDt, kDt);
  slow.StepTaken(kDt, kT0);
  const Clock::time_point due = At(2 * kDtNs);
  EXPECT_EQ(slow.NextStepDue(due + milliseconds(62), kDt, kDt), due) << "within: caught up";
  EXPECT_EQ(slow.NextStepDue(due + milliseconds(63), kDt, kDt), due + milliseconds(63))
      << "beyond: re-anchored at now";
  slow.StepTaken(kDt, due + milliseconds(64));
  EXPECT_EQ(slow.NextStepDue(due + milliseconds(65), kDt, kDt),
            due + milliseconds(63) + nanoseconds(2 * kDtNs));

  // Factor 4: 2 δt / 4 = 7.8 ms < 20 ms, time-bound.
  Pacer fast(4.0);
  fast.NextStepDue(kT0, kDt, kDt);
  fast.StepTaken(kDt, kT0);
  const Clock::time_point fast_due = At(kDtNs / 4);
  EXPECT_EQ(fast.NextStepDue(fast_due + milliseconds(19), kDt, kDt), fast_due);
  EXPECT_EQ(fast.NextStepDue(fast_due + milliseconds(21), kDt, kDt), fast_due + milliseconds(21));
}

TEST(Pacer, ANewFactorOrAReanchorStartsThePaceAtNow) {
  Pacer pacer(1.0);
  pacer.NextStepDue(kT0, kDt, kDt);
  pacer.StepTaken(kDt, kT0);
  EXPECT_EQ(pacer.NextStepDue(kT0, kDt, kDt), At(kDtNs));
  pacer.Reanchor();  // a pause, say, of a second
  EXPECT_EQ(pacer.NextStepDue(At(1'000'000'000), kDt, kDt), At(1'000'000'000));
  pacer.StepTaken(kDt, At(1'000'000'000));
  EXPECT_EQ(pacer.NextStepDue(At(1'000'000'000), kDt, kDt), At(1'000'000'000 + kDtNs));

  pacer.SetTargetFactor(2.0);
  EXPECT_EQ(pacer.target_factor(), 2.0);
  EXPECT_EQ(pacer.NextStepDue(At(1'000'000'001), kDt, kDt), At(1'000'000'001));
  pacer.StepTaken(kDt, At(1'000'000'002));
  EXPECT_EQ(pacer.NextStepDue(At(1'000'000'003), kDt, kDt), At(1'000'000'001 + kDtNs / 2));
}

// Error control (docs/contact-model.md §1.2): the steps' sizes vary, and each is due when the
// simulated time at its end is reached, the sum of the sizes taken, never a count times δt. The
// lag bound is δt_max's: a run of small steps does not make the pace re-anchor sooner.
TEST(Pacer, VariableStepsAreDueAtTheirEndTimesAndTheLagBoundIsDtMaxs) {
  Pacer pacer(1.0);
  const double sizes[] = {kDt / 8, kDt / 2, kDt / 4, kDt, kDt / 16};
  EXPECT_EQ(pacer.NextStepDue(kT0, sizes[0], 4 * kDt), kT0);
  int64_t end_ns = 0;
  for (int k = 0; k < 4; ++k) {
    pacer.StepTaken(sizes[k], At(end_ns));
    end_ns += static_cast<int64_t>(sizes[k + 1] * 1e9);
    // The anchor was the end of the first step (due at once): its end is kT0.
    EXPECT_EQ(pacer.NextStepDue(At(1000), sizes[k + 1], 4 * kDt), At(end_ns)) << k;
  }
  EXPECT_EQ(pacer.sim_total_s(), kDt / 8 + kDt / 2 + kDt / 4 + kDt);
  // δt_max = 4 δt: the bound is 8 δt = 125 ms, though the next step is δt/16 (2 δt/16 ≪ 20 ms).
  const Clock::time_point due = At(end_ns);
  EXPECT_EQ(pacer.NextStepDue(due + milliseconds(124), kDt / 16, 4 * kDt), due);
  EXPECT_EQ(pacer.NextStepDue(due + milliseconds(126), kDt / 16, 4 * kDt), due + milliseconds(126));
}

TEST(Pacer, TheAchievedFactorIsSimOverWallTimeAcrossTheOldestOfElevenMarks) {
  Pacer pacer(1.0);
  // One step every 50 ms: every step takes a mark. δt first, then 2 δt per step.
  const auto end_of = [](int k) { return At(int64_t{50'000'000} * k); };
  pacer.StepTaken(kDt, end_of(1));
  EXPECT_EQ(pacer.achieved_factor(), 0.0) << "one mark: no window yet";
  pacer.StepTaken(kDt, end_of(2));
  EXPECT_EQ(pacer.achieved_factor(), kDt / 0.05);
  for (int k = 3; k <= 10; ++k) pacer.StepTaken(kDt, end_of(k));
  for (int k = 11; k <= 15; ++k) pacer.StepTaken(2 * kDt, end_of(k));
  // Marks 5…15: steps 6…15 of sim time (5 δt + 5 · 2 δt) over 0.5 s.
  EXPECT_EQ(pacer.achieved_factor(), 15 * kDt / 0.5);
  EXPECT_EQ(pacer.sim_total_s(), 20 * kDt);

  // Steps closer than 50 ms to the newest mark take none: the window still starts at mark 5.
  pacer.StepTaken(kDt, end_of(15) + milliseconds(25));
  EXPECT_EQ(pacer.achieved_factor(), 16 * kDt / 0.525);

  // A new window after a pause: 0 until two marks are apart.
  pacer.ClearAchievedFactor();
  EXPECT_EQ(pacer.achieved_factor(), 0.0);
  pacer.StepTaken(kDt, end_of(30));
  EXPECT_EQ(pacer.achieved_factor(), 0.0);
  pacer.StepTaken(kDt, end_of(31));
  EXPECT_EQ(pacer.achieved_factor(), kDt / 0.05);
  EXPECT_EQ(pacer.sim_total_s(), 23 * kDt) << "monotone: a window is not the total";
}

}  // namespace
}  // namespace contactlab
