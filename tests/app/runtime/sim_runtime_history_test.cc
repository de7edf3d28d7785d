// The runtime's ghost, timeline and mouse spring: the ghost is bit for bit a separate headless
// run with the same model, start state and inputs, and the main run is the same with and
// without it; branching from a shown step without changing anything reproduces the original
// run bit for bit; the spring pulls a body toward the mouse point.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <limits>
#include <optional>
#include <thread>
#include <vector>

#include "app/runtime/sim_runtime.h"
#include "app/teleop/perturbation.h"
#include "test_support/pile_scene.h"
#include "test_support/runtime_waits.h"

namespace contactlab {
namespace {

// Paused runs stepped one StepOnce at a time: deterministic.
constexpr double kTimeout_s = 60.0;  // bounds a failing wait only
bool WaitFor(const std::function<bool()>& done) { return testing::WaitFor(done, kTimeout_s); }
void StepAndWait(SimRuntime* rt, int steps) { testing::StepAndWait(rt, steps, kTimeout_s); }

const SceneSpec& Scene() {
  static const SceneSpec scene = testing::PileScene(6, 2e-3);
  return scene;
}

// The mouse spring on body 3, grabbed off its centre, pulled up and sideways.
const Perturbation kPull{3, Eigen::Vector3d(0.01, 0.0, 0.02), Eigen::Vector3d(0.3, 0.1, 0.6)};

command::Perturb PullCommand() { return {kPull.scene_body, kPull.p_BoQ_B, kPull.target_W}; }

ContactOverrides Sap() {
  ContactOverrides o;
  o.approximation = ContactApproximation::kSap;
  return o;
}

// The script every run here follows: 100 steps, the spring on for 100, 100 more.
void RunScript(SimRuntime* rt, int from_step, const std::function<void(int)>& at_step = {}) {
  for (int i = from_step; i < 300; ++i) {
    if (at_step) at_step(i);
    if (i == 100) rt->Post(PullCommand());
    if (i == 200) rt->Post(command::Perturb{});
    StepAndWait(rt, 1);
  }
}

std::vector<Eigen::Isometry3d> Poses(const Snapshot& s) { return s.body_poses; }

void ExpectSamePoses(const std::vector<Eigen::Isometry3d>& a,
                     const std::vector<Eigen::Isometry3d>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].matrix(), b[i].matrix()) << "body " << i;
}

TEST(SimRuntimeGhost, IsAHeadlessRunWithTheSameInputsAndLeavesTheMainRunAlone) {
  SimRuntime plain(Scene(), 0.0), with_ghost(Scene(), 0.0);
  for (SimRuntime* rt : {&plain, &with_ghost}) {
    rt->Post(command::Pause{});
    rt->Start();
  }
  RunScript(&plain, 0);
  RunScript(&with_ghost, 0, [&](int i) {
    if (i == 50) with_ghost.Post(command::StartGhost{Sap(), "SAP"});
  });
  // The main run, bit for bit the same with a ghost.
  ExpectSamePoses(Poses(*plain.Latest()), Poses(*with_ghost.Latest()));
  ASSERT_TRUE(WaitFor([&] {
    auto g = with_ghost.LatestGhost();
    return g && g->step_index == 300;
  }));
  EXPECT_TRUE(with_ghost.Latest()->ghost.active);
  EXPECT_EQ(with_ghost.Latest()->ghost.label, "SAP");

  // The headless runs: the main one gives the spring force of every step (from its state),
  // the ghost's replica takes the same force, with SAP from step 50 on.
  World main(Scene()), ghost(Scene());
  for (int i = 0; i < 300; ++i) {
    if (i == 50) {
      ghost.SetState(main.q(), main.v(), main.time());
      ghost.SetOverrides(Sap());
    }
    const ExternalForce f = i >= 100 && i < 200 ? PerturbationForce(main, kPull) : ExternalForce{};
    main.SetExternalForce(f);
    ghost.SetExternalForce(f);
    ASSERT_TRUE(main.Step());
    if (i >= 50) {
      ASSERT_TRUE(ghost.Step());
    }
  }
  std::vector<Eigen::Isometry3d> main_poses, ghost_poses;
  for (int b = 0; b < static_cast<int>(Scene().bodies.size()); ++b) {
    main_poses.push_back(main.BodyPose(b));
    ghost_poses.push_back(ghost.BodyPose(b));
  }
  ExpectSamePoses(Poses(*plain.Latest()), main_poses);
  ExpectSamePoses(Poses(*with_ghost.LatestGhost()), ghost_poses);
  EXPECT_GT((main_poses[3].translation() - ghost_poses[3].translation()).norm(), 1e-6)
      << "SAP and Lagged should differ";
  // One difference sample per ghost step, in order.
  std::vector<GhostSample> samples;
  with_ghost.DrainGhostSamples(&samples);
  ASSERT_EQ(samples.size(), 250u);
  EXPECT_EQ(samples.front().step_index, 51u);
  EXPECT_EQ(samples.back().step_index, 300u);
  with_ghost.Post(command::StopGhost{});
  ASSERT_TRUE(WaitFor([&] { return !with_ghost.Latest()->ghost.active; }));
  EXPECT_EQ(with_ghost.LatestGhost(), nullptr);
}

// A ghost under another integrator (docs/contact-model.md §1.2): error-controlled Lagged beside
// the main run's fixed-step Lagged. The main run is bit for bit the same as without a ghost; the
// ghost steps its own sizes and holds the main run's inputs from their stamped times (a
// zero-order hold), so it is a headless error-controlled run that applies, before each of its
// steps, the newest main input stamped at or before its time, ends each step no later than the
// next input's stamp (so none is applied late), and steps while that input is known (up to the
// main run's last step start).
TEST(SimRuntimeGhost, UnderAnotherIntegratorItHoldsTheInputsByTimeAndLeavesTheMainRunAlone) {
  ContactOverrides error_control;
  error_control.integrator = TimeIntegration::ErrorControlled(1e-4);
  SimRuntime plain(Scene(), 0.0), with_ghost(Scene(), 0.0);
  for (SimRuntime* rt : {&plain, &with_ghost}) {
    rt->Post(command::Pause{});
    rt->Start();
  }
  RunScript(&plain, 0);
  RunScript(&with_ghost, 0, [&](int i) {
    if (i == 50) with_ghost.Post(command::StartGhost{error_control, "error control"});
  });
  ExpectSamePoses(Poses(*plain.Latest()), Poses(*with_ghost.Latest()));

  // The replicas: the main run's inputs (the spring's force) stamped with its step times.
  World main(Scene()), ghost(Scene());
  std::vector<std::pair<double, ExternalForce>> fed;
  for (int i = 0; i < 300; ++i) {
    if (i == 50) {
      ghost.SetState(main.q(), main.v(), main.time());
      ghost.SetStepSizeState(main.step_size_state());
      ghost.SetOverrides(error_control);
    }
    const ExternalForce f = i >= 100 && i < 200 ? PerturbationForce(main, kPull) : ExternalForce{};
    main.SetExternalForce(f);
    if (i >= 50) fed.emplace_back(main.time(), f);
    ASSERT_TRUE(main.Step());
  }
  const double last_fed_s = fed.back().first;
  int ghost_steps = 0;
  for (size_t k = 0; ghost.time() <= last_fed_s; ++ghost_steps) {
    while (k + 1 < fed.size() && fed[k + 1].first <= ghost.time()) ++k;
    ghost.SetExternalForce(fed[k].second);
    ASSERT_TRUE(ghost.Step(k + 1 < fed.size() ? fed[k + 1].first
                                              : std::numeric_limits<double>::infinity()));
  }
  ASSERT_TRUE(WaitFor([&] {
    auto g = with_ghost.LatestGhost();
    return g && g->time_s > last_fed_s;
  }));
  EXPECT_EQ(with_ghost.LatestGhost()->time_s, ghost.time());
  EXPECT_EQ(with_ghost.LatestGhost()->step_index, 50u + ghost_steps);
  EXPECT_NE(ghost_steps, 250) << "its own step sizes";
  std::vector<Eigen::Isometry3d> ghost_poses;
  for (int b = 0; b < static_cast<int>(Scene().bodies.size()); ++b) {
    ghost_poses.push_back(ghost.BodyPose(b));
  }
  ExpectSamePoses(Poses(*with_ghost.LatestGhost()), ghost_poses);
}

TEST(SimRuntimeTimeline, BranchingFromAShownStepReplaysTheRunBitForBit) {
  SimRuntime rt(Scene(), 0.0);
  rt.Post(command::Pause{});
  rt.Start();
  std::vector<std::vector<Eigen::Isometry3d>> original(301);
  std::vector<double> time_of(301);
  RunScript(&rt, 0, [&](int i) {
    original[i] = Poses(*rt.Latest());
    time_of[i] = rt.Latest()->time_s;
  });
  original[300] = Poses(*rt.Latest());
  // Show the step from 150 to 151, as it was; then branch there and take the 149 others.
  rt.Post(command::ShowTime{time_of[150] + 1e-4});
  ASSERT_TRUE(WaitFor([&] { return rt.Latest()->timeline.viewing; }));
  EXPECT_EQ(rt.Latest()->step_index, 151u);
  ExpectSamePoses(Poses(*rt.Latest()), original[151]);
  rt.Post(command::StepTimeline{-1});
  ASSERT_TRUE(WaitFor([&] { return rt.Latest()->step_index == 150; }));
  ExpectSamePoses(Poses(*rt.Latest()), original[150]);
  rt.Post(command::StepTimeline{+1});
  rt.Post(command::Branch{});
  ASSERT_TRUE(WaitFor([&] { return !rt.Latest()->timeline.viewing; }));
  EXPECT_EQ(rt.Latest()->timeline.replay_steps_left, 149);
  StepAndWait(&rt, 149);
  ExpectSamePoses(Poses(*rt.Latest()), original[300]);
  EXPECT_EQ(rt.Latest()->timeline.replay_steps_left, 0);
}

TEST(SimRuntimeTimeline, ABranchWithAnotherApproximationTakesAnotherPath) {
  SimRuntime rt(Scene(), 0.0);
  rt.Post(command::Pause{});
  rt.Start();
  RunScript(&rt, 0);
  const std::vector<Eigen::Isometry3d> lagged = Poses(*rt.Latest());
  rt.Post(command::StepTimeline{-200});   // from the newest record (step 299 → 300) to 99 → 100
  rt.Post(command::SetOverrides{Sap()});  // recomputes it with SAP
  rt.Post(command::Branch{});
  ASSERT_TRUE(WaitFor([&] { return rt.Latest()->timeline.replay_steps_left == 200; }));
  EXPECT_EQ(rt.Latest()->contact_settings.approximation, ContactApproximation::kSap);
  StepAndWait(&rt, 200);
  EXPECT_GT((Poses(*rt.Latest())[3].translation() - lagged[3].translation()).norm(), 1e-6);
}

// The Calibrate panel's copy of the run (command::ExportRecordedRun): made between steps and taken
// once from the mailbox, tagged with its request; a reset starts the copy's history afresh.
TEST(SimRuntimeTimeline, ACopyOfTheRunIsHandedBackOnceWithItsRequest) {
  SimRuntime rt(Scene(), 0.0);
  rt.Post(command::Pause{});
  rt.Start();
  StepAndWait(&rt, 40);
  EXPECT_FALSE(rt.TakeRecordedRun().has_value()) << "none asked for";
  rt.Post(command::ExportRecordedRun{7});
  std::optional<RecordedRun> run;
  ASSERT_TRUE(WaitFor([&] { return (run = rt.TakeRecordedRun()).has_value(); }));
  EXPECT_EQ(run->request, 7u);
  EXPECT_EQ(run->scene_generation, rt.Latest()->scene_generation);
  ASSERT_EQ(run->time_s.size(), 40u);
  EXPECT_EQ(run->time_s.front(), 0.0);
  EXPECT_EQ(run->columns.size(), 3u * 6);  // the pile's six floating bodies
  EXPECT_FALSE(rt.TakeRecordedRun().has_value()) << "taken once";
  rt.Post(command::Reset{});
  ASSERT_TRUE(WaitFor([&] { return rt.Latest()->step_index == 0; }));
  StepAndWait(&rt, 5);
  rt.Post(command::ExportRecordedRun{8});
  ASSERT_TRUE(WaitFor([&] { return (run = rt.TakeRecordedRun()).has_value(); }));
  EXPECT_EQ(run->request, 8u);
  EXPECT_EQ(run->time_s.size(), 5u);
}

TEST(SimRuntimePerturbation, TheSpringPullsTheBodyTowardTheMouseAndIsLogged) {
  SceneSpec scene = testing::PileScene(1, 1e-3);
  scene.gravity_W.setZero();
  scene.bodies[1].initial_velocity.setZero();
  SimRuntime rt(scene, 0.0);
  rt.Post(command::Pause{});
  rt.Start();
  const Eigen::Vector3d p0 = rt.Latest()->body_poses[1].translation();
  const Eigen::Vector3d target = p0 + Eigen::Vector3d(0, 0, 0.2);
  rt.Post(command::Perturb{1, Eigen::Vector3d::Zero(), target});
  StepAndWait(&rt, 2000);  // 2 s: ten periods of the critically damped 5 Hz spring
  const Snapshot& s = *rt.Latest();
  EXPECT_EQ(s.perturbation.body, 1);
  // Critically damped: it settles at the target without overshoot (no gravity, no contact).
  EXPECT_NEAR(s.body_poses[1].translation().z(), target.z(), 2e-3);
  EXPECT_LT(s.perturbation.f_W.norm(), 0.05);
  rt.Post(command::Perturb{});
  rt.Post(command::Perturb{0, Eigen::Vector3d::Zero(), target});  // the static floor
  StepAndWait(&rt, 1);
  EXPECT_EQ(rt.Latest()->perturbation.body, -1);
  const std::vector<std::string> errors = rt.TakeErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("not a dynamic body"), std::string::npos);
}

}  // namespace
}  // namespace contactlab
