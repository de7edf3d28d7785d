// The ghost host without the sim thread (the test thread plays it): a ghost fed the main
// run's steps follows them bit for bit; Stop returns while the ghost's thread is busy and the
// stopped ghost is joined only once that thread has ended; a ghost a whole queue behind is
// stopped with a message; a rejected start leaves the running ghost alone. A ghost's thread is
// kept busy for as long as a test needs by holding it inside its "started" log line (no clock
// involved); waits are on conditions, their timeouts only bound a failure.
#include "app/runtime/ghost_host.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <array>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "test_support/pile_scene.h"
#include "test_support/runtime_waits.h"

namespace contactlab {
namespace {

constexpr double kTimeout_s = 60.0;  // bounds a failing wait only
bool WaitFor(const std::function<bool()>& done) { return testing::WaitFor(done, kTimeout_s); }

// While it lives, spdlog's default logger: every line goes on to the previous logger's sinks,
// and the thread logging a line that contains `text` is held there until Release().
class HoldingLogger {
 public:
  explicit HoldingLogger(std::string text)
      : previous_(spdlog::default_logger()),
        sink_(std::make_shared<Sink>(std::move(text), previous_->sinks())) {
    auto logger = std::make_shared<spdlog::logger>("holding", sink_);
    logger->set_level(spdlog::level::info);
    spdlog::set_default_logger(std::move(logger));
  }
  // Declared before the ghosts' host: once they are joined, no thread logs through it.
  ~HoldingLogger() {
    Release();
    spdlog::set_default_logger(previous_);
  }
  bool holding() const { return sink_->holding(); }
  void Release() { sink_->Release(); }

 private:
  // Without a mutex of spdlog's: lines from several threads at once, each held apart.
  class Sink : public spdlog::sinks::base_sink<spdlog::details::null_mutex> {
   public:
    Sink(std::string text, std::vector<spdlog::sink_ptr> forward)
        : text_(std::move(text)), forward_(std::move(forward)) {}
    bool holding() const {
      std::lock_guard lock(mu_);
      return holding_;
    }
    void Release() {
      {
        std::lock_guard lock(mu_);
        released_ = true;
      }
      cv_.notify_all();
    }

   protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
      for (const spdlog::sink_ptr& s : forward_) {
        if (s->should_log(msg.level)) s->log(msg);
      }
      if (std::string_view(msg.payload.data(), msg.payload.size()).find(text_) ==
          std::string_view::npos) {
        return;
      }
      std::unique_lock lock(mu_);
      holding_ = true;
      cv_.wait(lock, [this] { return released_; });
      holding_ = false;
    }
    void flush_() override {}

   private:
    const std::string text_;
    const std::vector<spdlog::sink_ptr> forward_;
    mutable std::mutex mu_;
    std::condition_variable cv_;
    bool holding_ = false, released_ = false;
  };

  std::shared_ptr<spdlog::logger> previous_;
  std::shared_ptr<Sink> sink_;
};

// Declared after a GhostHost: releases the held thread before the host joins it, even when an
// assertion ends the test early.
struct ReleaseBeforeJoin {
  HoldingLogger* hold;
  ~ReleaseBeforeJoin() { hold->Release(); }
};

// A push on body 1 that changes every step: the ghost must take the main run's inputs.
ExternalForce Push(int step) {
  return {1, Eigen::Vector3d(0.01, 0, 0), Eigen::Vector3d(0.3 * step, 0.1, 2.0)};
}

struct Errors {
  std::vector<std::string> lines;
  std::function<void(std::string)> Sink() {
    return [this](std::string e) { lines.push_back(std::move(e)); };
  }
};

TEST(GhostHost, AGhostFedTheMainRunsStepsFollowsThemBitForBit) {
  World main(testing::PileScene(3, 2e-3));
  Errors errors;
  GhostHost host(10.0, errors.Sink());
  host.Start(main, 0, 0, {}, "same");  // the main run's settings
  EXPECT_TRUE(host.active());
  for (int k = 0; k < 50; ++k) {
    main.SetExternalForce(Push(k));
    host.Feed(main, 1);
    ASSERT_TRUE(main.Step());
  }
  GhostView view;
  ASSERT_TRUE(WaitFor([&] {
    host.Fill(&view);
    return view.ready && view.lag_s == 0;
  }));
  EXPECT_EQ(view.label, "same");
  const std::shared_ptr<const Snapshot> s = host.Latest();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->step_index, 50u);
  for (int b = 0; b < static_cast<int>(s->body_poses.size()); ++b) {
    EXPECT_EQ(s->body_poses[b].matrix(), main.BodyPose(b).matrix()) << "body " << b;
  }
  std::vector<GhostSample> samples;
  host.DrainSamples(&samples);
  ASSERT_EQ(samples.size(), 50u);
  EXPECT_EQ(samples.front().step_index, 1u);
  EXPECT_EQ(samples.back().step_index, 50u);
  const Eigen::Vector3d p = main.BodyPose(1).translation();
  EXPECT_EQ(samples.back().body_position_W, (std::array<double, 3>{p.x(), p.y(), p.z()}));
  EXPECT_TRUE(errors.lines.empty());
}

// A ghost that steps other sizes (here a fixed step four main steps long): before each of its
// steps it applies the newest main inputs stamped at or before its time (a zero-order hold),
// and steps only while they are known. Fed main steps 0…9 (stamped k·δt), it steps from 0, 4 δt
// and 8 δt with main steps 0, 4 and 8's pushes, stops at 12 δt > 9 δt, and its lag is in
// seconds: the main run's planned time (10 δt) less its own, at least 0.
TEST(GhostHost, AGhostOfOtherStepSizesHoldsTheNewestInputsAtItsTime) {
  constexpr double kDt = 1.0 / 512;
  World main(testing::PileScene(3, kDt));
  Errors errors;
  GhostHost host(10.0, errors.Sink());
  ContactOverrides longer;
  longer.dt_s = 4 * kDt;
  host.Start(main, 0, 0, longer, "4 dt");
  for (int k = 0; k < 10; ++k) {
    main.SetExternalForce(Push(k));
    host.Feed(main, 1);
    ASSERT_TRUE(main.Step());
  }
  ASSERT_TRUE(WaitFor([&] {
    const std::shared_ptr<const Snapshot> g = host.Latest();
    return g && g->time_s == 12 * kDt;
  }));
  World replica(testing::PileScene(3, kDt));
  replica.SetOverrides(longer);
  for (int k : {0, 4, 8}) {
    replica.SetExternalForce(Push(k));
    ASSERT_TRUE(replica.Step());
  }
  const std::shared_ptr<const Snapshot> g = host.Latest();
  EXPECT_EQ(g->step_index, 3u);
  for (int b = 0; b < static_cast<int>(g->body_poses.size()); ++b) {
    EXPECT_EQ(g->body_poses[b].matrix(), replica.BodyPose(b).matrix()) << "body " << b;
  }
  GhostView view;
  host.Fill(&view);
  EXPECT_EQ(view.lag_s, 0.0) << "ahead by 2 δt: no lag";
  std::vector<GhostSample> samples;
  host.DrainSamples(&samples);
  ASSERT_EQ(samples.size(), 3u);
  EXPECT_EQ(samples[1].time_s, 8 * kDt);
  main.SetExternalForce(Push(10));
  host.Feed(main, 1);  // stamped 10 δt, before the ghost's 12 δt: not yet its step's
  host.Fill(&view);
  EXPECT_EQ(view.lag_s, 0.0);
  EXPECT_TRUE(errors.lines.empty());
}

TEST(GhostHost, StopReturnsWhileTheGhostsThreadIsBusyAndJoinsItOnceEnded) {
  HoldingLogger hold("ghost (held): started");
  World main(testing::PileScene(3, 2e-3));
  Errors errors;
  GhostHost host(10.0, errors.Sink());
  const ReleaseBeforeJoin release{&hold};
  host.Start(main, 0, 0, {}, "held");
  ASSERT_TRUE(WaitFor([&] { return hold.holding(); }));  // its thread, inside its log line
  // Stopped from another thread with a bound: a Stop that joined would wait for the held
  // thread forever.
  std::future<void> stopped =
      std::async(std::launch::async, [&] { host.Stop("the test stopped it"); });
  const bool returned =
      stopped.wait_for(std::chrono::duration<double>(kTimeout_s)) == std::future_status::ready;
  hold.Release();  // either way, so that a failure ends too
  ASSERT_TRUE(returned) << "Stop waited for the ghost's thread";
  stopped.get();
  EXPECT_FALSE(host.active());
  EXPECT_EQ(host.Latest(), nullptr);
  EXPECT_EQ(host.retired(), 1);
  ASSERT_EQ(errors.lines.size(), 1u);
  EXPECT_EQ(errors.lines[0], "ghost (held) stopped: the test stopped it");
  GhostView view;
  host.Fill(&view);
  EXPECT_FALSE(view.active);
  EXPECT_EQ(view.stopped_reason, "the test stopped it");
  // Released, its thread ends; the next Stop (or Start) joins it.
  ASSERT_TRUE(WaitFor([&] {
    host.Stop("");
    return host.retired() == 0;
  }));
}

TEST(GhostHost, AGhostAWholeQueueBehindIsStopped) {
  HoldingLogger hold("ghost (held): started");  // it takes no step: the queue fills up
  constexpr double kDt = 1.0 / 512;             // a lag of 3 δt is a queue of exactly 3 steps
  World main(testing::PileScene(3, kDt));
  Errors errors;
  GhostHost host(3 * kDt, errors.Sink());
  const ReleaseBeforeJoin release{&hold};
  host.Start(main, 0, 0, {}, "held");
  for (int k = 0; k < 3; ++k) {
    host.Feed(main, 1);
    ASSERT_TRUE(main.Step());
  }
  GhostView view;
  host.Fill(&view);
  EXPECT_TRUE(view.active);
  EXPECT_EQ(view.lag_s, 3 * kDt);
  EXPECT_TRUE(errors.lines.empty());
  host.Feed(main, 1);  // a fourth: no room
  EXPECT_FALSE(host.active());
  ASSERT_EQ(errors.lines.size(), 1u);
  EXPECT_NE(errors.lines[0].find("ghost (held) stopped: it fell more than"), std::string::npos)
      << errors.lines[0];
  host.Fill(&view);
  EXPECT_FALSE(view.active);
  EXPECT_EQ(view.lag_s, 0.0);
}

TEST(GhostHost, ARejectedStartLeavesTheRunningGhostAlone) {
  World main(testing::PileScene(3, 2e-3));
  Errors errors;
  GhostHost host(10.0, errors.Sink());
  host.Start(main, 0, 0, {}, "");
  ContactOverrides bad;
  bad.dt_s = -1.0;
  host.Start(main, 0, 0, bad, "bad");
  ASSERT_EQ(errors.lines.size(), 1u);
  EXPECT_EQ(errors.lines[0].rfind("ghost rejected: ", 0), 0u) << errors.lines[0];
  EXPECT_TRUE(host.active());
  EXPECT_EQ(host.retired(), 0);
  GhostView view;
  host.Fill(&view);
  EXPECT_EQ(view.label, "ghost");  // the name of a ghost without a label
  // A new ghost replaces it; the old one is stopped without a message.
  host.Start(main, 0, 0, {}, "second");
  host.Fill(&view);
  EXPECT_EQ(view.label, "second");
  EXPECT_EQ(view.stopped_reason, "");
  EXPECT_EQ(errors.lines.size(), 1u);
}

}  // namespace
}  // namespace contactlab
