// The real-time loop: snapshots exchanged under load stay whole, no command is lost, slider
// changes reach the next step, reset is exact, bad values are rejected, pacing follows wall
// time without catch-up bursts, and plot samples arrive one per step.
#include "app/runtime/sim_runtime.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <thread>

#include "app/runtime/spsc_ring.h"
#include "test_support/pile_scene.h"
#include "test_support/runtime_waits.h"

namespace contactlab {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

double Since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Waits end as soon as their condition holds: the timeout only bounds a failing test, so it is
// generous (TSan on a loaded machine 3× slower than this one).
constexpr double kTimeout_s = 60.0;

bool WaitFor(const std::function<bool()>& done, double timeout_s = kTimeout_s) {
  return testing::WaitFor(done, timeout_s);
}

SceneSpec Pile(int n, double dt = 1e-3) { return testing::PileScene(n, dt); }

// One sphere (scene body 1) sliding along the floor at 3 m/s.
SceneSpec SlidingSphere() {
  SceneSpec s = Pile(1);
  s.bodies[1].initial_pose = Eigen::Isometry3d::Identity();
  s.bodies[1].initial_pose.translation() = Eigen::Vector3d(0, 0, 0.05 - 0.5 * 9.81 / 1e6);
  s.bodies[1].initial_velocity = Eigen::VectorXd::Zero(6);
  s.bodies[1].initial_velocity[3] = 3.0;
  return s;
}

// Paused from the start: steps happen only on StepOnce, so runs are deterministic.
void StepAndWait(SimRuntime* rt, int steps) { testing::StepAndWait(rt, steps, kTimeout_s); }

// Waits until every command posted so far has been handled.
void Settle(SimRuntime* rt, uint64_t posted) {
  ASSERT_TRUE(WaitFor([&] { return rt->commands_processed() == posted; }));
}

TEST(SimRuntime, InitialSnapshotBeforeStart) {
  const SceneSpec scene = Pile(3);
  SimRuntime rt(scene);
  std::shared_ptr<const Snapshot> s = rt.Latest();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->step_index, 0u);
  EXPECT_EQ(s->time_s, 0.0);
  EXPECT_EQ(s->body_poses.size(), scene.bodies.size());
  EXPECT_EQ(s->geometries.size(), 4u);
  EXPECT_EQ(rt.plot_body(), 1);  // the first dynamic body
  SceneSpec bad = scene;
  bad.contact_settings.dt_s = -1;
  EXPECT_THROW(SimRuntime{bad}, std::invalid_argument);
}

TEST(SimRuntime, SnapshotExchangeUnderLoad) {
  const SceneSpec scene = Pile(6);
  SimRuntime rt(scene, 0.0);  // unpaced: the writer publishes as fast as it can
  rt.Start();
  std::atomic<bool> failed{false};
  std::atomic<int> seen{0};
  std::thread reader([&] {
    uint64_t last_step = 0;
    // Until the writer has published 200 steps and the reader read 1000 times, however slow
    // the machine (the time limit only bounds a failing run).
    const Clock::time_point t0 = Clock::now();
    while ((last_step < 200 || seen < 1000) && Since(t0) < kTimeout_s && !failed) {
      std::shared_ptr<const Snapshot> s = rt.Latest();
      bool ok = s != nullptr && s->step_index >= last_step &&
                s->body_poses.size() == scene.bodies.size() &&
                s->net_normal_force.size() == scene.bodies.size() &&
                s->net_friction_force.size() == scene.bodies.size() &&
                s->geometry_poses.size() == 7 && s->geometry_body.size() == 7 &&
                s->geometries.size() == 7 && s->scene != nullptr &&
                std::abs(s->time_s - s->step_index * scene.contact_settings.dt_s) <
                    1e-9 * (1 + s->step_index) &&
                s->stats.num_contacts == static_cast<int>(s->contacts.size());
      if (ok) {
        for (const Eigen::Isometry3d& X : s->body_poses) ok = ok && X.matrix().allFinite();
        for (size_t g = 0; g < s->geometries.size(); ++g) {
          ok = ok && s->geometries[g] == &s->scene->bodies[s->geometry_body[g]].geometries[0];
        }
        for (const ContactResult& c : s->contacts) {
          ok = ok && c.body_a >= 0 && c.body_b < static_cast<int>(scene.bodies.size()) &&
               c.normal_force_W.allFinite();
        }
      }
      if (!ok) failed = true;
      if (s) last_step = s->step_index;
      ++seen;
    }
  });
  reader.join();
  const uint64_t steps = rt.Latest()->step_index;
  rt.Stop();
  EXPECT_FALSE(failed);
  EXPECT_GE(steps, 200u);
  EXPECT_GE(seen.load(), 1000);
}

TEST(SimRuntime, NoCommandIsLost) {
  SimRuntime rt(Pile(3), 0.0);
  rt.Start();
  constexpr int kN = 1000;
  double last_friction = 0;
  int last_body = -1;
  for (int i = 0; i < kN; ++i) {
    if (i % 2 == 0) {
      command::SetOverrides c;
      last_friction = 0.1 + 1e-4 * i;
      c.overrides.friction = last_friction;
      rt.Post(c);
    } else {
      last_body = i % 4;  // bodies 0..3
      rt.Post(command::SelectPlotBody{last_body});
    }
  }
  Settle(&rt, kN);
  EXPECT_EQ(rt.commands_processed(), static_cast<uint64_t>(kN));
  const uint64_t now = rt.Latest()->step_index;
  ASSERT_TRUE(WaitFor([&] { return rt.Latest()->step_index > now; }));
  const std::shared_ptr<const Snapshot> s = rt.Latest();
  ASSERT_TRUE(s->contact_settings.friction.has_value());
  EXPECT_EQ(*s->contact_settings.friction, last_friction);
  EXPECT_EQ(rt.plot_body(), last_body);
  EXPECT_TRUE(rt.TakeErrors().empty());
  rt.Stop();
}

TEST(SimRuntime, SliderChangeReachesTheNextStep) {
  SimRuntime rt(SlidingSphere());
  rt.Post(command::Pause{});
  rt.Start();
  StepAndWait(&rt, 10);  // the sphere slides at μ = 0.5 (the override replaces 0.8 below)
  command::SetOverrides first;
  first.overrides.friction = 0.5;
  rt.Post(first);
  StepAndWait(&rt, 5);
  std::shared_ptr<const Snapshot> before = rt.Latest();
  const double n0 = before->net_normal_force[1].norm();
  ASSERT_GT(n0, 1.0);  // ~ m g = 4.9 N
  EXPECT_NEAR(before->net_friction_force[1].norm() / n0, 0.5, 0.05);

  command::SetOverrides slider;
  slider.overrides.friction = 0.2;
  rt.Post(slider);
  StepAndWait(&rt, 1);
  std::shared_ptr<const Snapshot> after = rt.Latest();
  EXPECT_EQ(after->step_index, before->step_index + 1);
  ASSERT_TRUE(after->contact_settings.friction);
  EXPECT_EQ(*after->contact_settings.friction, 0.2);
  const double n1 = after->net_normal_force[1].norm();
  ASSERT_GT(n1, 1.0);
  EXPECT_NEAR(after->net_friction_force[1].norm() / n1, 0.2, 0.05);

  // A softer contact at the same penetration pushes less in the very next step.
  command::SetOverrides softer;
  softer.overrides.stiffness_N_per_m = 2e5;
  rt.Post(softer);
  StepAndWait(&rt, 1);
  std::shared_ptr<const Snapshot> soft = rt.Latest();
  ASSERT_TRUE(soft->contact_settings.stiffness_N_per_m);
  EXPECT_EQ(*soft->contact_settings.stiffness_N_per_m, 2e5);
  EXPECT_LT(soft->net_normal_force[1].norm(), 0.8 * n1);

  // δt changes through the overrides as well, and the time advances by the new δt.
  command::SetOverrides dt;
  dt.overrides.dt_s = 5e-4;
  rt.Post(dt);
  StepAndWait(&rt, 1);
  std::shared_ptr<const Snapshot> third = rt.Latest();
  EXPECT_EQ(third->contact_settings.dt_s, 5e-4);
  EXPECT_NEAR(third->time_s - soft->time_s, 5e-4, 1e-12);
  EXPECT_TRUE(rt.TakeErrors().empty());
  rt.Stop();
}

TEST(SimRuntime, ClearingAnOverrideRestoresEachPairsSceneValue) {
  // The sphere (μ = 0.8) slides on the floor (μ = 0.5): the pair's μ combines both (§6,
  // 2·0.8·0.5/1.3 ≈ 0.615), which neither geometry's value is. Posting a "scene value" as an
  // override would not reset the pair; clearing the override does.
  SimRuntime rt(SlidingSphere());
  rt.Post(command::Pause{});
  rt.Start();
  StepAndWait(&rt, 10);
  auto mu = [](const Snapshot& s) {
    const double n = s.net_normal_force[1].norm();
    EXPECT_GT(n, 1.0);
    return s.net_friction_force[1].norm() / n;
  };
  const std::shared_ptr<const Snapshot> scene = rt.Latest();
  const double pair_mu = 2 * 0.8 * 0.5 / 1.3;
  ASSERT_NEAR(mu(*scene), pair_mu, 0.02);
  EXPECT_FALSE(scene->contact_settings.friction);

  command::SetOverrides slider;
  slider.overrides.friction = 0.8;  // the sphere's own value, as a representative "scene value"
  rt.Post(slider);
  StepAndWait(&rt, 3);
  ASSERT_NEAR(mu(*rt.Latest()), 0.8, 0.02) << "an override replaces the pair's value";

  command::SetOverrides reset;
  reset.overrides.clear.friction = true;
  rt.Post(reset);
  StepAndWait(&rt, 1);
  std::shared_ptr<const Snapshot> s = rt.Latest();
  EXPECT_FALSE(s->contact_settings.friction);
  EXPECT_NEAR(mu(*s), pair_mu, 0.02);

  // Clearing one override leaves the others in force.
  command::SetOverrides others;
  others.overrides.friction = 0.4;
  others.overrides.stiffness_N_per_m = 3e5;
  others.overrides.hunt_crossley_s_per_m = 1.0;
  others.overrides.relaxation_time_s = 0.01;
  rt.Post(others);
  rt.Post(reset);
  StepAndWait(&rt, 1);
  s = rt.Latest();
  EXPECT_FALSE(s->contact_settings.friction);
  ASSERT_TRUE(s->contact_settings.stiffness_N_per_m);
  EXPECT_EQ(*s->contact_settings.stiffness_N_per_m, 3e5);
  EXPECT_TRUE(s->contact_settings.hunt_crossley_s_per_m);
  EXPECT_TRUE(s->contact_settings.relaxation_time_s);
  command::SetOverrides all;
  all.overrides.clear = {true, true, true, true};
  rt.Post(all);
  StepAndWait(&rt, 1);
  s = rt.Latest();
  EXPECT_FALSE(s->contact_settings.stiffness_N_per_m);
  EXPECT_FALSE(s->contact_settings.hunt_crossley_s_per_m);
  EXPECT_FALSE(s->contact_settings.relaxation_time_s);
  EXPECT_FALSE(s->contact_settings.friction);

  // Clear and set in one command: the clear goes first, the value stays.
  command::SetOverrides both;
  both.overrides.clear.friction = true;
  both.overrides.friction = 0.3;
  rt.Post(both);
  StepAndWait(&rt, 1);
  ASSERT_TRUE(rt.Latest()->contact_settings.friction);
  EXPECT_EQ(*rt.Latest()->contact_settings.friction, 0.3);
  EXPECT_TRUE(rt.TakeErrors().empty());
  rt.Stop();
}

TEST(SimRuntime, ClearedOverridesStepExactlyLikeTheScene) {
  // Bit for bit: a run whose overrides were set and cleared between the same two steps as
  // another run that never had any takes identical steps afterwards.
  auto run = [](bool detour) {
    SimRuntime rt(Pile(3));
    rt.Post(command::Pause{});
    rt.Start();
    StepAndWait(&rt, 30);
    if (detour) {
      command::SetOverrides set;
      set.overrides.friction = 0.1;
      set.overrides.stiffness_N_per_m = 1e5;
      rt.Post(set);
      command::SetOverrides clear;
      clear.overrides.clear = {true, true, true, true};
      rt.Post(clear);
    }
    StepAndWait(&rt, 60);
    std::shared_ptr<const Snapshot> s = rt.Latest();
    rt.Stop();
    return s;
  };
  const std::shared_ptr<const Snapshot> plain = run(false), detour = run(true);
  ASSERT_EQ(plain->body_poses.size(), detour->body_poses.size());
  for (size_t b = 0; b < plain->body_poses.size(); ++b) {
    EXPECT_EQ(plain->body_poses[b].matrix(), detour->body_poses[b].matrix()) << b;
  }
}

TEST(SimRuntime, PlotSamplesCarryConvergenceAndRun) {
  SimRuntime rt(Pile(3));
  rt.Post(command::Pause{});
  rt.Start();
  std::vector<PlotSample> samples;
  for (int i = 0; i < 40; ++i) {
    StepAndWait(&rt, 1);
    rt.DrainPlotSamples(&samples);
    ASSERT_EQ(samples.size(), static_cast<size_t>(i + 1));
    EXPECT_EQ(samples.back().converged, rt.Latest()->stats.converged) << i;
    EXPECT_EQ(samples.back().run, 0u);
  }
  // A reset starts a new run, in the snapshot at once and in the samples of the next steps.
  rt.Post(command::Reset{});
  Settle(&rt, 42);
  EXPECT_EQ(rt.Latest()->run, 1u);
  StepAndWait(&rt, 2);
  rt.DrainPlotSamples(&samples);
  ASSERT_EQ(samples.size(), 42u);
  EXPECT_EQ(samples.back().run, 1u);
  rt.Post(command::LoadScene{Pile(2)});
  Settle(&rt, 45);
  EXPECT_EQ(rt.Latest()->run, 2u);
  rt.Stop();
}

TEST(SimRuntime, ResetRestoresTheInitialStateBitForBit) {
  SimRuntime rt(Pile(4));
  const std::shared_ptr<const Snapshot> initial = rt.Latest();
  rt.Post(command::Pause{});
  rt.Start();
  StepAndWait(&rt, 60);
  const std::shared_ptr<const Snapshot> first_run = rt.Latest();
  ASSERT_EQ(first_run->step_index, 60u);
  EXPECT_NE(first_run->body_poses[1].translation(), initial->body_poses[1].translation());

  rt.Post(command::Reset{});
  Settle(&rt, 1 + 60 + 1);
  const std::shared_ptr<const Snapshot> reset = rt.Latest();
  EXPECT_EQ(reset->step_index, 0u);
  EXPECT_EQ(reset->time_s, 0.0);
  ASSERT_EQ(reset->body_poses.size(), initial->body_poses.size());
  for (size_t b = 0; b < initial->body_poses.size(); ++b) {
    EXPECT_TRUE(reset->body_poses[b].matrix() == initial->body_poses[b].matrix()) << b;
  }
  for (size_t g = 0; g < initial->geometry_poses.size(); ++g) {
    EXPECT_TRUE(reset->geometry_poses[g].matrix() == initial->geometry_poses[g].matrix()) << g;
  }
  // And the same trajectory again, exactly.
  StepAndWait(&rt, 60);
  const std::shared_ptr<const Snapshot> second_run = rt.Latest();
  for (size_t b = 0; b < first_run->body_poses.size(); ++b) {
    EXPECT_TRUE(second_run->body_poses[b].matrix() == first_run->body_poses[b].matrix()) << b;
  }

  // A reset while running also starts over from step 0.
  rt.Post(command::Resume{});
  ASSERT_TRUE(WaitFor([&] { return rt.Latest()->step_index > 80; }));
  rt.Post(command::Reset{});
  ASSERT_TRUE(WaitFor([&] { return rt.Latest()->step_index < 20; }));
  rt.Stop();
}

TEST(SimRuntime, BadValuesAreRejectedAndTheOldOnesKept) {
  SimRuntime rt(Pile(2), 0.0);
  rt.Start();
  command::SetOverrides good;
  good.overrides.stiffness_N_per_m = 1e5;
  rt.Post(good);
  command::SetOverrides bad;
  bad.overrides.stiffness_N_per_m = -1;
  bad.overrides.friction = 0.1;  // not applied either: the command is rejected as a whole
  rt.Post(bad);
  rt.Post(command::SetRealtimeFactor{-2});
  rt.Post(command::SelectPlotBody{17});
  Settle(&rt, 4);
  const std::vector<std::string> errors = rt.TakeErrors();
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_NE(errors[0].find("stiffness"), std::string::npos) << errors[0];
  EXPECT_TRUE(rt.TakeErrors().empty());
  const uint64_t now = rt.Latest()->step_index;
  ASSERT_TRUE(WaitFor([&] { return rt.Latest()->step_index > now + 10; }));
  const std::shared_ptr<const Snapshot> s = rt.Latest();
  EXPECT_EQ(*s->contact_settings.stiffness_N_per_m, 1e5);
  EXPECT_FALSE(s->contact_settings.friction.has_value());
  EXPECT_EQ(s->target_realtime_factor, 0.0);
  EXPECT_EQ(rt.plot_body(), 1);
  EXPECT_FALSE(s->paused);

  // A bad scene is rejected and the old world kept; a good one replaces it. Post numbers the
  // commands as commands_processed counts them (the UI's check that a load was handled).
  SceneSpec broken = Pile(1);
  broken.contact_settings.dt_s = 0;
  EXPECT_EQ(rt.Post(command::LoadScene{broken}), 5u);
  Settle(&rt, 5);
  ASSERT_EQ(rt.TakeErrors().size(), 1u);
  EXPECT_EQ(rt.Latest()->scene_generation, 0u);
  EXPECT_EQ(rt.Latest()->body_poses.size(), 3u);
  rt.Post(command::LoadScene{Pile(5)});
  Settle(&rt, 6);
  EXPECT_TRUE(rt.TakeErrors().empty());
  const std::shared_ptr<const Snapshot> fresh = rt.Latest();
  EXPECT_EQ(fresh->scene_generation, 1u);
  EXPECT_EQ(fresh->body_poses.size(), 6u);
  EXPECT_EQ(fresh->scene->bodies.size(), 6u);
  rt.Stop();
}

TEST(SimRuntime, AFailedStepPausesWithAnError) {
  // A velocity at the edge of the double range overflows in the first step.
  SceneSpec s = Pile(1);
  s.bodies.erase(s.bodies.begin());  // no floor
  s.bodies[0].initial_velocity[5] = 1.797e308;
  s.gravity_W = Eigen::Vector3d(0, 0, 1e308);
  SimRuntime rt(s, 0.0);
  const auto level = spdlog::get_level();
  spdlog::set_level(spdlog::level::off);
  rt.Start();
  ASSERT_TRUE(WaitFor([&] { return rt.Latest()->paused; }));
  spdlog::set_level(level);
  const std::vector<std::string> errors = rt.TakeErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("failed"), std::string::npos) << errors[0];
  EXPECT_TRUE(rt.Latest()->body_poses[0].matrix().allFinite());
  rt.Stop();
}

TEST(SimRuntime, PacingFollowsWallTime) {
  SimRuntime rt(Pile(1), 1.0);
  rt.Start();
  std::this_thread::sleep_for(milliseconds(100));
  const Clock::time_point t0 = Clock::now();
  const double sim0 = rt.Latest()->time_s;
  std::this_thread::sleep_for(milliseconds(1000));
  const double wall = Since(t0);
  const std::shared_ptr<const Snapshot> s = rt.Latest();
  const double sim = s->time_s - sim0;
  EXPECT_NEAR(sim / wall, 1.0, 0.1);
  EXPECT_NEAR(s->achieved_realtime_factor, 1.0, 0.1);
  EXPECT_EQ(s->target_realtime_factor, 1.0);

  // Factor 0.5: half speed.
  rt.Post(command::SetRealtimeFactor{0.5});
  std::this_thread::sleep_for(milliseconds(100));
  const Clock::time_point t1 = Clock::now();
  const double sim1 = rt.Latest()->time_s;
  std::this_thread::sleep_for(milliseconds(500));
  EXPECT_NEAR((rt.Latest()->time_s - sim1) / Since(t1), 0.5, 0.05);
  rt.Stop();
}

TEST(SimRuntime, ASlowSolverSlowsTheSimWithoutCatchUpBursts) {
  const double dt = 2e-3;
  SimRuntime rt(Pile(1, dt), 1.0);
  rt.Start();
  std::this_thread::sleep_for(milliseconds(100));
  rt.Post(command::SetArtificialStepDelay{2 * dt});  // each step costs ~2 δt of wall time
  double previous = rt.Latest()->achieved_realtime_factor;
  double largest_drop = 0;
  const Clock::time_point t0 = Clock::now();
  while (Since(t0) < 0.7) {
    std::this_thread::sleep_for(milliseconds(20));
    const double f = rt.Latest()->achieved_realtime_factor;
    largest_drop = std::max(largest_drop, previous - f);
    previous = f;
  }
  EXPECT_LT(previous, 0.6);  // ~1/2
  EXPECT_GT(previous, 0.35);
  EXPECT_LT(largest_drop, 0.25);  // a sliding window: no sudden jumps

  // Removing the delay: back to real time, but the lost time is not made up in a burst.
  const Clock::time_point t1 = Clock::now();  // first: the snapshot read then counts as wall
  const std::shared_ptr<const Snapshot> before = rt.Latest();
  rt.Post(command::SetArtificialStepDelay{0});
  double worst_lead = -1;
  while (Since(t1) < 0.6) {
    const double lead = (rt.Latest()->time_s - before->time_s) - Since(t1);
    worst_lead = std::max(worst_lead, lead);
    std::this_thread::sleep_for(milliseconds(1));
  }
  // The lead is at most the lag behind the pace line when `before` was read. A step starts only
  // if the lag is within 20 ms and, unless the next check re-anchors the pace, ends within 20 ms
  // too: the in-flight step (2 δt of wall, δt of sim) leaves at most 20 ms + 2 δt to make up.
  // A slow stretch (0.7 s at half speed) is not made up.
  EXPECT_LE(worst_lead, 0.02 + 2 * dt);
  EXPECT_NEAR(rt.Latest()->achieved_realtime_factor, 1.0, 0.1);
  rt.Stop();
}

TEST(SimRuntime, PlotSamplesOnePerStepInOrder) {
  // Stepped in batches while paused and drained after each, so that the ring (which drops when
  // full, tested below) never holds more than a batch whatever the machine's load, and the last
  // snapshot is that of the last step taken.
  SimRuntime rt(Pile(1), 0.0);
  rt.Post(command::Pause{});
  rt.Start();
  Settle(&rt, 1);
  std::vector<PlotSample> samples;
  for (int batch = 0; batch < 10; ++batch) {
    testing::StepAndWait(&rt, 50, 10.0);
    rt.DrainPlotSamples(&samples);
  }
  rt.Stop();
  rt.DrainPlotSamples(&samples);
  const std::shared_ptr<const Snapshot> last = rt.Latest();
  EXPECT_EQ(rt.plot_samples_dropped(), 0u);
  ASSERT_EQ(samples.size(), last->step_index);
  ASSERT_GT(samples.size(), 100u);
  for (size_t i = 0; i < samples.size(); ++i) {
    ASSERT_NEAR(samples[i].time_s, (i + 1) * 1e-3, 1e-9) << i;
    ASSERT_GE(samples[i].step_ms, 0.0);
  }
  // Body 1 (a sphere of 0.5 kg) rests on the floor at the end: its weight is carried.
  EXPECT_NEAR(samples.back().normal_force_N, 0.5 * 9.81, 0.3);
  int most_iterations = 0;  // at rest the warm start may already be the solution
  for (const PlotSample& p : samples) most_iterations = std::max(most_iterations, p.iterations);
  EXPECT_GT(most_iterations, 0);
  EXPECT_LT(samples.back().signed_distance_m, 0.0);
}

TEST(SimRuntime, PlotSampleOverflowDropsTheOldest) {
  SimRuntime rt(Pile(1), 0.0);
  rt.Start();
  const uint64_t n = SimRuntime::kPlotCapacity + 500;
  ASSERT_TRUE(WaitFor([&] { return rt.Latest()->step_index >= n; }));
  rt.Post(command::Pause{});
  Settle(&rt, 1);
  std::vector<PlotSample> samples;
  rt.DrainPlotSamples(&samples);
  const uint64_t steps = rt.Latest()->step_index;
  EXPECT_EQ(samples.size(), SimRuntime::kPlotCapacity);
  EXPECT_EQ(rt.plot_samples_dropped(), steps - samples.size());
  EXPECT_NEAR(samples.back().time_s, steps * 1e-3, 1e-9);  // the newest are kept
  for (size_t i = 1; i < samples.size(); ++i) {
    ASSERT_NEAR(samples[i].time_s - samples[i - 1].time_s, 1e-3, 1e-9);
  }
  rt.Stop();
}

// "Promptly": well within the waits it interrupts (a pause without end, a 30 s step, a step due in
// a second), with the margin of a loaded machine — not a measure of speed.
TEST(SimRuntime, StopJoinsPromptlyWhenPausedOrInALongStep) {
  constexpr double kPrompt_s = 0.5;
  {
    SimRuntime rt(Pile(1));
    rt.Post(command::Pause{});
    rt.Start();
    std::this_thread::sleep_for(milliseconds(20));
    const Clock::time_point t0 = Clock::now();
    rt.Stop();
    EXPECT_LT(Since(t0), kPrompt_s);
    rt.Stop();  // idempotent
  }
  {
    SimRuntime rt(Pile(1), 1e-3);  // a step due every second of wall time
    rt.Start();
    std::this_thread::sleep_for(milliseconds(20));
    rt.Post(command::SetArtificialStepDelay{30.0});
    rt.Post(command::SetRealtimeFactor{0});
    std::this_thread::sleep_for(milliseconds(50));
    const Clock::time_point t0 = Clock::now();
    rt.Stop();
    EXPECT_LT(Since(t0), kPrompt_s);
  }
}

TEST(SimRuntime, RingConcurrentProducerAndConsumer) {
  OverwritingSpscRing<PlotSample> ring(64);
  constexpr int kN = 200000;
  std::thread producer([&] {
    for (int i = 0; i < kN; ++i) {
      PlotSample p;
      p.time_s = i;
      p.iterations = i;
      ring.Push(p);
    }
  });
  std::vector<PlotSample> got;
  uint64_t lost = 0;
  while (ring.pushed() < static_cast<uint64_t>(kN)) lost += ring.Drain(&got);
  producer.join();
  lost += ring.Drain(&got);
  EXPECT_EQ(got.size() + lost, static_cast<size_t>(kN));
  EXPECT_EQ(ring.dropped(), lost);
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].iterations, static_cast<int>(got[i].time_s));  // never torn
    if (i > 0) {
      ASSERT_GT(got[i].iterations, got[i - 1].iterations);
    }
  }
  EXPECT_EQ(got.back().iterations, kN - 1);
}

}  // namespace
}  // namespace contactlab
