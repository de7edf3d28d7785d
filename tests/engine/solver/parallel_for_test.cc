// ParallelFor: every iteration runs once, on more than one thread at a time, errors come back to
// the caller, and helpers that fell asleep between loops wake for the next one.
#include "engine/solver/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace contactlab {
namespace {

TEST(ParallelForTest, EveryIterationRunsOnceOnAThreadOfTheTeam) {
  for (const int num_threads : {1, 2, 3}) {
    ParallelFor team(num_threads);
    ASSERT_EQ(team.num_threads(), num_threads);
    for (int n = 0; n <= 40; ++n) {
      std::vector<std::atomic<int>> calls(n);
      std::atomic<bool> thread_in_range{true};
      auto body = [&](int i, int thread) {
        calls[i].fetch_add(1);
        if (thread < 0 || thread >= num_threads) thread_in_range = false;
      };
      team.Run(n, body);
      for (int i = 0; i < n; ++i) ASSERT_EQ(calls[i].load(), 1) << num_threads << " " << n;
      EXPECT_TRUE(thread_in_range);
    }
  }
}

TEST(ParallelForTest, TwoThreadsRunIterationsAtOnce) {
  // Iteration 0 waits until iteration 1 has started: only a second thread can start it.
  ParallelFor team(2);
  std::atomic<bool> second_started{false};
  bool waited_out = true;
  auto body = [&](int i, int) {
    if (i == 1) {
      second_started = true;
      return;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!second_started && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    waited_out = !second_started;
  };
  team.Run(2, body);
  EXPECT_FALSE(waited_out);
}

TEST(ParallelForTest, AnErrorReachesTheCallerAndTheTeamGoesOn) {
  ParallelFor team(2);
  std::atomic<int> calls{0};
  auto failing = [&](int i, int) {
    calls.fetch_add(1);
    if (i == 7) throw std::runtime_error("iteration 7");
  };
  EXPECT_THROW(team.Run(20, failing), std::runtime_error);
  EXPECT_EQ(calls.load(), 20);  // the other iterations still ran
  std::atomic<int> after{0};
  auto counting = [&](int, int) { after.fetch_add(1); };
  team.Run(20, counting);
  EXPECT_EQ(after.load(), 20);
}

TEST(ParallelForTest, SleepingHelpersWakeForTheNextLoop) {
  // Idle far longer than the helpers spin, so that they sleep: each loop must still finish.
  ParallelFor team(3);
  for (int round = 0; round < 4; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::vector<std::atomic<int>> calls(16);
    auto body = [&](int i, int) { calls[i].fetch_add(1); };
    team.Run(16, body);
    for (int i = 0; i < 16; ++i) ASSERT_EQ(calls[i].load(), 1) << round;
  }
}

}  // namespace
}  // namespace contactlab
