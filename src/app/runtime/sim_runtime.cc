// SimRuntime: the public side, then the sim thread's loop and its command dispatch (the parts
// it delegates to are named in sim_runtime_impl.h).
#include "app/runtime/sim_runtime.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "app/runtime/sim_runtime_impl.h"

namespace contactlab {

namespace {

using Clock = Pacer::Clock;

std::chrono::nanoseconds Seconds(double s) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(s));
}

double SecondsBetween(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

int FirstDynamicBody(const SceneSpec& scene) {
  for (size_t i = 0; i < scene.bodies.size(); ++i) {
    if (scene.bodies[i].kind == SceneBody::Kind::kDynamic) return static_cast<int>(i);
  }
  return -1;
}

constexpr size_t kMaxQueuedErrors = 256;

}  // namespace

int DefaultPlotBody(const SceneSpec& scene) {
  if (scene.held_object) return scene.held_object->body;
  if (FindTeleopConfig(scene)) {
    for (size_t i = 0; i < scene.bodies.size(); ++i) {
      const SceneBody& body = scene.bodies[i];
      if (body.kind == SceneBody::Kind::kDynamic && body.body.joint == JointType::kFloating &&
          !body.geometries.empty()) {
        return static_cast<int>(i);
      }
    }
  }
  for (size_t i = 0; i < scene.bodies.size(); ++i) {
    if (scene.bodies[i].kind == SceneBody::Kind::kDynamic && !scene.bodies[i].geometries.empty()) {
      return static_cast<int>(i);
    }
  }
  return FirstDynamicBody(scene);
}

SimRuntime::SimRuntime(const SceneSpec& scene, double target_realtime_factor) {
  if (!(target_realtime_factor >= 0) || !std::isfinite(target_realtime_factor)) {
    throw std::invalid_argument("the real-time factor must be finite and non-negative");
  }
  impl_ = std::make_unique<Impl>(scene, target_realtime_factor);
}

SimRuntime::~SimRuntime() { Stop(); }

void SimRuntime::Start() {
  if (impl_->thread.joinable()) return;
  {
    std::lock_guard lock(impl_->mu);
    impl_->stop = false;
  }
  impl_->pacer.Reanchor();  // the thread is not running yet: safe to touch
  impl_->thread = std::thread([this] { impl_->Run(); });
}

void SimRuntime::Stop() {
  if (!impl_ || !impl_->thread.joinable()) return;
  {
    std::lock_guard lock(impl_->mu);
    impl_->stop = true;
  }
  impl_->cv.notify_all();
  impl_->thread.join();
}

uint64_t SimRuntime::Post(Command c) {
  uint64_t number = 0;
  {
    std::lock_guard lock(impl_->mu);
    impl_->queue.push_back(std::move(c));
    number = ++impl_->commands_posted;
  }
  impl_->cv.notify_all();  // wakes a paused or pacing sim thread
  return number;
}

void SimRuntime::SetInputDevices(InputDevices devices) {
  if (impl_->thread.joinable()) throw std::logic_error("SetInputDevices must precede Start");
  impl_->teleop.SetDevices(std::move(devices), *impl_->world);
  impl_->Publish();
}

void SimRuntime::SetRecorder(std::unique_ptr<Recorder> recorder) {
  if (impl_->thread.joinable()) throw std::logic_error("SetRecorder must precede Start");
  impl_->teleop.SetRecorder(std::move(recorder));
}

std::shared_ptr<KeyboardDevice> SimRuntime::keyboard() const { return impl_->teleop.keyboard(); }
std::shared_ptr<GamepadDevice> SimRuntime::gamepad() const { return impl_->teleop.gamepad(); }

std::shared_ptr<const Snapshot> SimRuntime::Latest() const { return impl_->publisher.Latest(); }

std::shared_ptr<const Snapshot> SimRuntime::LatestGhost() const { return impl_->ghosts.Latest(); }

void SimRuntime::DrainGhostSamples(std::vector<GhostSample>* out) {
  impl_->ghosts.DrainSamples(out);
}

void SimRuntime::DrainPlotSamples(std::vector<PlotSample>* out) { impl_->plot_ring.Drain(out); }

std::vector<std::string> SimRuntime::TakeErrors() {
  std::vector<std::string> taken;
  std::lock_guard lock(impl_->errors_mu);
  taken.swap(impl_->errors);
  return taken;
}

std::optional<RecordedRun> SimRuntime::TakeRecordedRun() {
  std::lock_guard lock(impl_->recorded_run_mu);
  return std::exchange(impl_->recorded_run, std::nullopt);
}

uint64_t SimRuntime::commands_processed() const {
  return impl_->commands_processed.load(std::memory_order_acquire);
}

uint64_t SimRuntime::plot_samples_dropped() const { return impl_->plot_ring.dropped(); }

int SimRuntime::plot_body() const { return impl_->plot_body.load(std::memory_order_relaxed); }

// ---- The sim thread ---------------------------------------------------------------------------

SimRuntime::Impl::Impl(const SceneSpec& scene, double target_realtime_factor)
    : world(std::make_unique<World>(scene)),
      pacer(target_realtime_factor),
      timeline(*world, kTimelineDuration_s, kTimelineBudget_bytes) {
  peg_hole = FindPegHole(*world);
  slip_hand = DefaultSlipHand(world->scene());
  timeline.LogSize();
  SelectBody(DefaultPlotBody(scene));
  queue.reserve(64);
  drained.reserve(64);
  Publish();
}

// In order of priority: swap in a finished hydroelastic build, apply queued commands, honour
// pause and single steps, else wait until the next step is due and take it.
void SimRuntime::Impl::Run() {
  std::unique_lock lock(mu);
  const auto wake = [this] { return stop || !queue.empty() || hydro.built(); };
  while (!stop) {
    if (hydro.built()) {  // a hydroelastic mesh is built: swap it in before the next step
      lock.unlock();
      FinishHydroelasticBuild();
      lock.lock();
      continue;
    }
    if (!queue.empty()) {
      drained.swap(queue);
      lock.unlock();
      ApplyCommands();
      lock.lock();
      continue;
    }
    if (paused) {
      if (pending_single_steps > 0) {
        --pending_single_steps;
        lock.unlock();
        DoStep();
        lock.lock();
      } else {
        cv.wait(lock, wake);
      }
      continue;
    }
    if (pacer.target_factor() > 0) {
      const Clock::time_point now = Clock::now();
      // Simulated time is paced, not steps: the next step's own size (docs/architecture.md §4).
      const Clock::time_point due = pacer.NextStepDue(now, world->next_dt(), world->dt());
      if (now < due) {
        // A command arriving meanwhile is applied right away; the loop then asks again.
        cv.wait_until(lock, due, wake);
        if (stop || !queue.empty() || Clock::now() < due) continue;
      }
    }
    lock.unlock();
    DoStep();
    lock.lock();
  }
}

// Taking mu between the worker's flag and the notification: the loop either sees the flag or
// is already waiting when notified.
void SimRuntime::Impl::WakeUp() {
  { std::lock_guard lock(mu); }
  cv.notify_all();
}

void SimRuntime::Impl::DoStep() {
  const Clock::time_point start = Clock::now();
  ApplyStepInputs();
  const bool ok = world->Step();
  teleop.MeasureGrip(*world);
  if (step_delay_s > 0) {
    // Stands in for a slow solver; interruptible so that Stop() never waits for it.
    std::unique_lock lock(mu);
    cv.wait_for(lock, Seconds(step_delay_s), [this] { return stop; });
  }
  const Clock::time_point end = Clock::now();
  if (!ok) {
    paused = true;
    pending_single_steps = 0;
    Error(fmt::format("step {} (t = {:.6f} s) failed: {}; paused at the last good state",
                      step_index, world->time(), world->failure()));
    Publish();
    return;
  }
  ++step_index;
  timeline.Taken(*world);
  pacer.StepTaken(world->last_stats().dt_s, end);
  slip_meter.Observe(*world);
  PushPlotSample(SecondsBetween(start, end) * 1e3);
  teleop.EndReplayIfDone(world->time());
  Publish();
}

// The coming step's inputs, live (teleoperation and the mouse spring) or a branch's replay,
// then handed to the timeline and the ghost.
void SimRuntime::Impl::ApplyStepInputs() {
  switch (timeline.ReplayNext(world.get())) {
    case TimelineBrowser::Replayed::kLast:
      teleop.ResetTargets(*world);  // the arm's targets from where the replay left it
      break;
    case TimelineBrowser::Replayed::kYes:
      break;
    case TimelineBrowser::Replayed::kNo:
      teleop.Update(world.get());
      spring.Apply(world.get());
      break;
  }
  timeline.Record(*world, step_index);
  ghosts.Feed(*world, selected_body);
}

void SimRuntime::Impl::PushPlotSample(double step_ms) {
  PlotSample p;
  p.time_s = world->time();
  p.iterations = world->last_stats().iterations;
  p.barrier_iterations = world->last_stats().rigid.solver.inner_iterations;
  p.step_ms = step_ms;
  p.converged = world->last_stats().converged;
  p.run = run;
  p.step_index = step_index;
  const StepStats& stats = world->last_stats();
  const TimeIntegration& integrator = world->contact_settings().integrator;
  p.dt_s = stats.dt_s;
  p.error_controlled = integrator.scheme == TimeIntegration::Scheme::kErrorControlled;
  p.error_estimate = stats.error_estimate;
  p.accuracy = integrator.accuracy;
  p.num_rejected = stats.num_rejected;
  p.at_step_floor = stats.at_step_floor;
  p.grip_force_N = teleop.measured_grip_force_N();
  const int b = selected_body;
  if (b >= 0 && b < static_cast<int>(world->scene().bodies.size())) {
    p.normal_force_N = world->NetNormalForce(b).norm();
    p.friction_force_N = world->NetFrictionForce(b).norm();
    const Eigen::Vector3d p_WB = world->BodyPose(b).translation();
    p.body_position_W = {p_WB.x(), p_WB.y(), p_WB.z()};
    if (const ContactResult* strongest = StrongestContact(*world, b)) {
      p.slip_speed_m_per_s = strongest->slip_velocity_W.norm();
      p.signed_distance_m = strongest->signed_distance_m;
    }
  }
  const SlipReading& slip = slip_meter.reading();
  p.meter_slip_speed_m_per_s = slip.has_slip ? slip.slip_speed_m_per_s() : NAN;
  plot_ring.Push(p);
}

void SimRuntime::Impl::Publish() {
  // Device status strings are built on request; once every so many steps is often enough for a
  // status line, and keeps the per-step path free of allocations.
  constexpr uint64_t kStatusRefreshSteps = 64;
  if (step_index % kStatusRefreshSteps == 0 || paused) teleop.RefreshDeviceStatus();
  std::shared_ptr<Snapshot> s = publisher.Free();
  FillSnapshot(*world, scene_generation, step_index, s.get());
  s->paused = paused;
  s->run = run;
  s->published = Clock::now();
  s->target_realtime_factor = pacer.target_factor();
  s->achieved_realtime_factor = paused ? 0 : pacer.achieved_factor();
  teleop.Fill(&s->teleop);
  teleop.Fill(&s->recording);
  spring.Fill(*world, &s->perturbation);
  ghosts.Fill(&s->ghost);
  timeline.Fill(*world, &s->timeline);
  s->alignment.active = peg_hole.has_value();
  if (peg_hole) {
    s->alignment.alignment = MeasurePegAlignment(*peg_hole, world->BodyPose(peg_hole->peg));
    s->alignment.hole_outline_W = HoleOutline(*peg_hole);
  }
  s->slip_meter.active = slip_meter.reading().body >= 0;
  s->slip_meter.reading = slip_meter.reading();
  publisher.Publish(std::move(s));
}

void SimRuntime::Impl::Error(std::string message) {
  spdlog::warn("sim runtime: {}", message);
  std::lock_guard lock(errors_mu);
  if (errors.size() < kMaxQueuedErrors) errors.push_back(std::move(message));
}

void SimRuntime::Impl::SelectBody(int body) {
  selected_body = body;
  plot_body.store(body, std::memory_order_relaxed);
  // No body selected: the held object's meter (docs/architecture.md §5, The slip meter).
  const std::optional<HeldObjectSpec>& held = world->scene().held_object;
  const int measured = body >= 0 ? body : held ? held->body : -1;
  if (measured == slip_meter.reading().body) return;  // the same body: its creep goes on
  slip_meter = measured >= 0 ? SlipMeter(*world, measured, slip_hand) : SlipMeter();
}

void SimRuntime::Impl::FinishHydroelasticBuild() {
  // Paused, the new representation is published now; running, by the next step.
  if (hydro.Finish(world.get(), scene_generation) && paused) Publish();
}

void SimRuntime::Impl::RestartHistory() {
  timeline.Clear();
  spring.Release(world.get());
  ghosts.Stop("the main run was reset");
}

void SimRuntime::Impl::ShowRecord(int record) {
  paused = true;
  pending_single_steps = 0;
  if (!timeline.Show(record, world.get())) {
    Error("the recorded step could not be recomputed (non-finite state)");
  }
  step_index = timeline.shown_step_index();
  slip_meter.Restart(*world);  // the state jumped to the recorded step
  Publish();
}

void SimRuntime::Impl::LeaveView() {
  if (!timeline.viewing()) return;
  ShowRecord(timeline.size() - 1);
  timeline.Leave();
  Publish();
}

// ---- The command dispatch ---------------------------------------------------------------------

void SimRuntime::Impl::ApplyCommands() {
  for (Command& c : drained) std::visit([this](auto& cmd) { Apply(cmd); }, c);
  // While running, the next step publishes the new parameters within a step; while paused,
  // publish now so the UI shows them (and the paused flag) without stepping. Counted after
  // that: a reader who sees the count then finds the change in Latest() while paused.
  if (paused) Publish();
  commands_processed.fetch_add(drained.size(), std::memory_order_release);
  drained.clear();
}

void SimRuntime::Impl::Apply(command::SetOverrides& c) {
  try {
    // World::SetOverrides validates everything before changing anything (ApplyOverrides), so
    // a rejected value leaves the last good parameters in force. δt is read by World::Step
    // and by the pacing every step, so a new δt applies from the next step on.
    world->SetOverrides(c.overrides);
  } catch (const std::exception& e) {
    Error(e.what());
    return;
  }
  if (timeline.viewing()) {  // the shown step, recomputed with the new settings a branch uses
    timeline.EditSettings();
    ShowRecord(timeline.view());
  }
}

void SimRuntime::Impl::Apply(command::Pause&) { paused = true; }

void SimRuntime::Impl::Apply(command::Resume&) {
  if (!paused) return;
  LeaveView();
  paused = false;
  pending_single_steps = 0;
  pacer.Reanchor();  // the pause does not count as lag
  pacer.ClearAchievedFactor();
}

void SimRuntime::Impl::Apply(command::StepOnce&) {
  LeaveView();
  if (paused) ++pending_single_steps;  // running: a no-op, the sim steps anyway
}

void SimRuntime::Impl::Apply(command::Reset&) {
  RestartHistory();
  world->Reset();
  teleop.Reset(*world);
  slip_meter.Restart(*world);
  step_index = 0;
  ++run;
  pending_single_steps = 0;
  pacer.Reanchor();
  Publish();  // the initial state, even if the next step follows at once
}

void SimRuntime::Impl::Apply(command::LoadScene& c) {
  std::unique_ptr<World> fresh;
  try {
    fresh = std::make_unique<World>(c.scene);
  } catch (const std::exception& e) {
    Error(fmt::format("scene '{}' rejected: {}", c.scene.name, e.what()));
    return;
  }
  RestartHistory();
  world = std::move(fresh);
  timeline.Reallocate(*world);
  peg_hole = FindPegHole(*world);
  slip_hand = DefaultSlipHand(world->scene());
  timeline.LogSize();
  ++scene_generation;
  step_index = 0;
  ++run;
  pending_single_steps = 0;
  pacer.Reanchor();
  slip_meter = SlipMeter();  // the old scene's body indices
  SelectBody(DefaultPlotBody(world->scene()));
  teleop.Rebuild(*world);
  // Snapshots of the old scene still in readers' hands keep their own SceneSpec alive; the
  // pool slots are refilled with the new scene's sizes.
  Publish();
}

void SimRuntime::Impl::Apply(command::SetRealtimeFactor& c) {
  if (!(c.factor >= 0) || !std::isfinite(c.factor)) {
    Error(fmt::format("real-time factor {} rejected: must be finite and non-negative", c.factor));
    return;
  }
  pacer.SetTargetFactor(c.factor);
}

void SimRuntime::Impl::Apply(command::SelectPlotBody& c) {
  if (c.body < -1 || c.body >= static_cast<int>(world->scene().bodies.size())) {
    Error(fmt::format("plot body {} rejected: the scene has {} bodies", c.body,
                      world->scene().bodies.size()));
    return;
  }
  SelectBody(c.body);
}

void SimRuntime::Impl::Apply(command::SetArtificialStepDelay& c) {
  if (!(c.seconds >= 0) || !std::isfinite(c.seconds)) {
    Error(fmt::format("step delay {} rejected: must be finite and non-negative", c.seconds));
    return;
  }
  step_delay_s = c.seconds;
}

void SimRuntime::Impl::Apply(command::SetTeleopOptions& c) { teleop.SetOptions(c); }

void SimRuntime::Impl::Apply(command::SetHydroelastic& c) {
  hydro.Request(c.geometry, {c.modulus_Pa, c.resolution_m}, *world, scene_generation);
}

void SimRuntime::Impl::Apply(command::Perturb& c) {
  spring.Set({c.body, c.p_BoQ_B, c.target_W}, world.get());
}

void SimRuntime::Impl::Apply(command::StartGhost& c) {
  LeaveView();
  ghosts.Start(*world, scene_generation, step_index, c.overrides, c.label);
}

void SimRuntime::Impl::Apply(command::StopGhost&) { ghosts.Stop(""); }

void SimRuntime::Impl::Apply(command::ShowTime& c) {
  const int record = timeline.RecordAt(c.time_s);
  if (record != TimelineBrowser::kNone) ShowRecord(record);
}

void SimRuntime::Impl::Apply(command::StepTimeline& c) {
  const int record = timeline.RecordAfter(c.steps);
  if (record == TimelineBrowser::kNone) return;
  if (record == TimelineBrowser::kHead) {
    LeaveView();
    paused = true;
    return;
  }
  ShowRecord(record);
}

void SimRuntime::Impl::Apply(command::Branch&) {
  if (!timeline.Branch(*world)) return;
  ghosts.Stop("the main run branched");
  spring.Release(world.get());
  ++run;
  Publish();  // still paused: a Resume (or single steps) continues the branch
}

// From the initial state, as a headless replay starts: the recording then reproduces the run.
void SimRuntime::Impl::Apply(command::StartRecording& c) {
  std::unique_ptr<Recorder> recorder = teleop.OpenRecording(c.path);
  if (!recorder) return;
  command::Reset reset;
  Apply(reset);
  teleop.StartRecording(std::move(recorder), c.path);
}

void SimRuntime::Impl::Apply(command::StopRecording&) { teleop.StopRecording(); }

void SimRuntime::Impl::Apply(command::PlayReplay& c) {
  if (!teleop.PlayReplay(c.path, world->scene().name)) return;
  command::Reset reset;
  Apply(reset);
  spdlog::info("sim runtime: playing {} ({:.2f} s)", c.path, teleop.replay_end_s());
}

void SimRuntime::Impl::Apply(command::SelectInput& c) { teleop.SelectInput(c.kind); }

// Copied here, between steps, and moved to the mailbox under its lock: the render thread's take
// never waits for the copy.
void SimRuntime::Impl::Apply(command::ExportRecordedRun& c) {
  RecordedRun run = ExportRecordedRun(timeline.history(), *world);
  run.request = c.request;
  run.scene_generation = scene_generation;
  std::lock_guard lock(recorded_run_mu);
  recorded_run = std::move(run);
}

}  // namespace contactlab
