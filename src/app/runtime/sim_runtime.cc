#include "app/runtime/sim_runtime.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <exception>
#include <future>
#include <mutex>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "app/runtime/sim_runtime_impl.h"

namespace contactlab {

namespace {

using sim_runtime_internal::Clock;

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

// The pacing falls back to "as fast as it can" (re-anchoring to the present) once it is this
// many steps (or kMaxLag_s) late, so a slow stretch never turns into a long catch-up burst.
// A single slow step (a burst of new contacts can cost several δt) is made up by the next
// ones as long as the lag stays within kMaxLag_s of wall time: a catch-up that short is
// invisible at display rate, and without it every such step would cost simulated time.
constexpr double kMaxLagSteps = 2.0;
constexpr double kMaxLag_s = 0.02;
// The achieved real-time factor's marks (sim_runtime_internal::kRateMarks) are this far apart.
constexpr std::chrono::milliseconds kRateMarkInterval{50};
constexpr size_t kMaxQueuedErrors = 256;

}  // namespace

int DefaultPlotBody(const SceneSpec& scene) {
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

SimRuntime::SimRuntime(const SceneSpec& scene, double target_realtime_factor)
    : impl_(std::make_unique<Impl>()) {
  if (!(target_realtime_factor >= 0) || !std::isfinite(target_realtime_factor)) {
    throw std::invalid_argument("the real-time factor must be finite and non-negative");
  }
  Impl& m = *impl_;
  m.world = std::make_unique<World>(scene);  // throws on an invalid scene
  m.timeline = std::make_unique<Timeline>(*m.world, kTimelineDuration_s, kTimelineBudget_bytes);
  m.peg_hole = FindPegHole(*m.world);
  m.LogTimeline();
  m.target_factor = target_realtime_factor;
  m.SelectBody(DefaultPlotBody(scene));
  m.queue.reserve(64);
  m.drained.reserve(64);
  m.Publish();
}

SimRuntime::~SimRuntime() { Stop(); }

void SimRuntime::Start() {
  if (impl_->thread.joinable()) return;
  {
    std::lock_guard lock(impl_->mu);
    impl_->stop = false;
  }
  impl_->pace_valid = false;  // the thread is not running yet: safe to touch
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

void SimRuntime::Post(Command c) {
  {
    std::lock_guard lock(impl_->mu);
    impl_->queue.push_back(std::move(c));
  }
  impl_->cv.notify_all();  // wakes a paused or pacing sim thread
}

void SimRuntime::SetInputDevices(InputDevices devices) {
  if (impl_->thread.joinable()) throw std::logic_error("SetInputDevices must precede Start");
  impl_->devices = std::move(devices);
  impl_->RebuildTeleop();
  impl_->Publish();
}

void SimRuntime::SetRecorder(std::unique_ptr<Recorder> recorder) {
  if (impl_->thread.joinable()) throw std::logic_error("SetRecorder must precede Start");
  impl_->recorder = std::move(recorder);
}

std::shared_ptr<KeyboardDevice> SimRuntime::keyboard() const { return impl_->devices.keyboard; }
std::shared_ptr<GamepadDevice> SimRuntime::gamepad() const { return impl_->devices.gamepad; }

std::shared_ptr<const Snapshot> SimRuntime::Latest() const { return impl_->publisher.Latest(); }

std::shared_ptr<const Snapshot> SimRuntime::LatestGhost() const {
  std::lock_guard lock(impl_->ghost_mu);
  return impl_->ghost ? impl_->ghost->Latest() : nullptr;
}

void SimRuntime::DrainGhostSamples(std::vector<GhostSample>* out) {
  std::lock_guard lock(impl_->ghost_mu);
  if (impl_->ghost) impl_->ghost->DrainSamples(out);
}

void SimRuntime::DrainPlotSamples(std::vector<PlotSample>* out) { impl_->plot_ring.Drain(out); }

std::vector<std::string> SimRuntime::TakeErrors() {
  std::vector<std::string> taken;
  std::lock_guard lock(impl_->errors_mu);
  taken.swap(impl_->errors);
  return taken;
}

uint64_t SimRuntime::commands_processed() const {
  return impl_->commands_processed.load(std::memory_order_acquire);
}

uint64_t SimRuntime::plot_samples_dropped() const { return impl_->plot_ring.dropped(); }

int SimRuntime::plot_body() const { return impl_->plot_body.load(std::memory_order_relaxed); }

// ---------------------------------------------------------------------------------------------

void SimRuntime::Impl::Run() {
  std::unique_lock lock(mu);
  const auto wake = [this] { return stop || !queue.empty() || hydro_ready; };
  while (!stop) {
    if (hydro_ready) {  // a hydroelastic mesh is built: swap it in before the next step
      hydro_ready = false;
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
    if (target_factor > 0) {
      const Clock::time_point now = Clock::now();
      const double next_sim = sim_total + world->dt();
      Clock::time_point due = pace_wall + Seconds((next_sim - pace_sim) / target_factor);
      const double max_lag_s = std::max(kMaxLagSteps * world->dt() / target_factor, kMaxLag_s);
      if (!pace_valid || SecondsBetween(due, now) > max_lag_s) {
        // Start (or fall back to) stepping now: the steps missed are not made up later.
        pace_valid = true;
        pace_wall = now;
        pace_sim = next_sim;
        due = now;
      }
      if (now < due) {
        // A command arriving meanwhile is applied right away; the loop then recomputes `due`.
        cv.wait_until(lock, due, wake);
        if (stop || !queue.empty() || Clock::now() < due) continue;
      }
    }
    lock.unlock();
    DoStep();
    lock.lock();
  }
}

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
  if (view >= 0) {  // the shown step, recomputed with the new settings a branch would use
    settings_edited_in_view = true;
    ShowRecord(view);
  }
}

void SimRuntime::Impl::Apply(command::Pause&) { paused = true; }

void SimRuntime::Impl::Apply(command::Resume&) {
  if (!paused) return;
  LeaveView();
  paused = false;
  pending_single_steps = 0;
  pace_valid = false;  // the pause does not count as lag
  ClearRateWindow();
}

void SimRuntime::Impl::Apply(command::StepOnce&) {
  LeaveView();
  if (paused) ++pending_single_steps;  // running: a no-op, the sim steps anyway
}

void SimRuntime::Impl::Apply(command::Reset&) {
  RestartHistory();
  world->Reset();
  if (teleop) teleop->Reset(*world);
  grip_force_N_measured = 0;
  step_index = 0;
  ++run;
  pending_single_steps = 0;
  pace_valid = false;
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
  timeline.reset();  // the old ring goes before the new one is allocated: one at a time
  timeline = std::make_unique<Timeline>(*world, kTimelineDuration_s, kTimelineBudget_bytes);
  peg_hole = FindPegHole(*world);
  LogTimeline();
  ++scene_generation;
  step_index = 0;
  ++run;
  pending_single_steps = 0;
  pace_valid = false;
  SelectBody(DefaultPlotBody(world->scene()));
  RebuildTeleop();
  // Snapshots of the old scene still in readers' hands keep their own SceneSpec alive; the
  // pool slots are refilled with the new scene's sizes.
  Publish();
}

void SimRuntime::Impl::Apply(command::SetRealtimeFactor& c) {
  if (!(c.factor >= 0) || !std::isfinite(c.factor)) {
    Error(fmt::format("real-time factor {} rejected: must be finite and non-negative", c.factor));
    return;
  }
  target_factor = c.factor;
  pace_valid = false;
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

void SimRuntime::Impl::DoStep() {
  const Clock::time_point start = Clock::now();
  const double dt = world->dt();
  ApplyStepInputs();
  const bool ok = world->Step();
  grip_force_N_measured = teleop && !teleop->config().finger_bodies.empty()
                              ? world->NetNormalForce(teleop->config().finger_bodies[0]).norm()
                              : 0.0;
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
  sim_total += dt;
  UpdateAchievedFactor(end);
  PushPlotSample(SecondsBetween(start, end) * 1e3);
  EndReplayIfDone();
  Publish();
}

void SimRuntime::Impl::PushPlotSample(double step_ms) {
  PlotSample p;
  p.time_s = world->time();
  p.iterations = world->last_stats().iterations;
  p.step_ms = step_ms;
  p.converged = world->last_stats().converged;
  p.run = run;
  p.step_index = step_index;
  p.grip_force_N = grip_force_N_measured;
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
  plot_ring.Push(p);
}

void SimRuntime::Impl::Apply(command::SetTeleopOptions& c) {
  if (c.grip_force_N) {
    if (!(*c.grip_force_N > 0) || !std::isfinite(*c.grip_force_N)) {
      Error(fmt::format("grip force {} N rejected: must be positive and finite", *c.grip_force_N));
    } else {
      grip_force_N = *c.grip_force_N;
      if (teleop) teleop->SetGripForce(*grip_force_N);
    }
  }
  if (c.sensitivity) {
    if (!(*c.sensitivity >= 0.05 && *c.sensitivity <= 10.0)) {
      Error(
          fmt::format("teleop sensitivity {} rejected: must be within [0.05, 10]", *c.sensitivity));
    } else {
      teleop_sensitivity = *c.sensitivity;
    }
  }
  if (c.frame) {
    if (*c.frame < TeleopFrame::kDeviceOwn || *c.frame > TeleopFrame::kTool) {
      Error(fmt::format("teleop frame {} rejected: 0 (device), 1 (world) or 2 (tool)",
                        static_cast<int>(*c.frame)));
    } else {
      teleop_frame = *c.frame;
    }
  }
}

void SimRuntime::Impl::RebuildTeleop() {
  teleop.reset();
  grip_force_N_measured = 0;
  if (!devices.active) return;
  const std::optional<TeleopConfig> config = FindTeleopConfig(world->scene());
  if (!config) return;
  try {
    teleop = std::make_unique<TeleopController>(*world, *config);
    if (grip_force_N) teleop->SetGripForce(*grip_force_N);
  } catch (const std::exception& e) {
    Error(fmt::format("teleoperation unavailable for '{}': {}", world->scene().name, e.what()));
  }
}

void SimRuntime::Impl::UpdateTeleop() {
  if (!teleop || !devices.active) return;
  TeleopCommand command = devices.active->Poll(world->time());
  if (devices.active->IsLive()) {  // a replay reproduces its recording exactly
    command.linear_m_per_s *= teleop_sensitivity;
    command.angular_rad_per_s *= teleop_sensitivity;
    if (teleop_frame == TeleopFrame::kWorld) command.frame = CommandFrame::kWorld;
    if (teleop_frame == TeleopFrame::kTool) command.frame = CommandFrame::kTool;
  }
  if (recorder) recorder->Record(teleop->InWorldAxes(command));
  teleop->Update(command, world.get());
}

void SimRuntime::Impl::FillTeleopView(Snapshot* s) const {
  TeleopView& v = s->teleop;
  v.active = teleop != nullptr;
  v.sensitivity = teleop_sensitivity;
  v.frame = teleop_frame;
  v.device_name = device_name;
  v.device_status = device_status;
  v.device_connected = device_connected;
  if (!teleop) return;
  const TeleopState& t = teleop->state();
  v.target_tcp_W = t.target_tcp_W;
  v.tcp_W = t.tcp_W;
  v.position_error_m = t.position_error_m;
  v.orientation_error_rad = t.orientation_error_rad;
  const TeleopCommand applied = teleop->InWorldAxes(t.command);
  v.linear_m_per_s = applied.linear_m_per_s;
  v.angular_rad_per_s = applied.angular_rad_per_s;
  v.grip = t.command.grip;
  v.grip_latched = t.grip_latched;
  v.grip_force_limit_N = teleop->grip_force();
  v.max_grip_force_N = teleop->config().max_grip_force_N;
  v.grip_force_N = grip_force_N_measured;
  v.finger_opening_m = t.finger_opening_m;
  v.ik_ok = t.ik_ok;
  v.ik_num_limited = t.ik_num_limited;
  v.ik_failures = t.ik_failures;
  v.ik_min_singular_value = t.ik_min_singular_value;
}

void SimRuntime::Impl::Apply(command::SetHydroelastic& c) {
  if (!c.modulus_Pa && !c.resolution_m) return;
  HydroelasticJob job;
  job.scene_generation = scene_generation;
  job.modulus_Pa = c.modulus_Pa;
  job.resolution_m = c.resolution_m;
  const int ng = world->num_geometries();
  if (c.geometry == -1) {
    for (int g = 0; g < ng; ++g) {
      if (world->hydroelastic_representation(g).compliant) job.geometries.push_back(g);
    }
    if (job.geometries.empty()) {
      Error("hydroelastic change rejected: the scene has no hydroelastic_compliant geometry");
      return;
    }
  } else if (c.geometry < 0 || c.geometry >= ng) {
    Error(fmt::format("hydroelastic change rejected: geometry {} out of range (the scene has {})",
                      c.geometry, ng));
    return;
  } else {
    job.geometries.push_back(c.geometry);
  }
  try {
    for (int g : job.geometries) {
      const GeometrySpec& spec = world->geometry(g);
      ValidateHydroelasticChange(spec.name, spec.shape, spec.hydroelastic.model,
                                 {c.modulus_Pa, c.resolution_m},
                                 spec.hydroelastic.volume_mesh != nullptr);
    }
  } catch (const std::exception& e) {
    Error(fmt::format("hydroelastic change rejected: {}", e.what()));
    return;
  }
  // A dragged slider posts a value per frame: a change still waiting for the same geometries
  // takes the newer values instead of queueing another build.
  if (!hydro_waiting.empty() && hydro_waiting.back().geometries == job.geometries &&
      hydro_waiting.back().scene_generation == job.scene_generation) {
    HydroelasticJob& last = hydro_waiting.back();
    if (job.modulus_Pa) last.modulus_Pa = job.modulus_Pa;
    if (job.resolution_m) last.resolution_m = job.resolution_m;
  } else {
    hydro_waiting.push_back(std::move(job));
  }
  StartHydroelasticBuild();
}

void SimRuntime::Impl::StartHydroelasticBuild() {
  if (hydro_build.valid()) return;  // one build at a time; the next starts when it is in
  while (!hydro_waiting.empty() && hydro_waiting.front().scene_generation != scene_generation) {
    hydro_waiting.pop_front();  // for a scene that has since been replaced
  }
  if (hydro_waiting.empty()) return;
  HydroelasticJob job = std::move(hydro_waiting.front());
  hydro_waiting.pop_front();
  // The worker gets copies of the specs and the current representations (immutable, shared):
  // it never touches the World, which the sim thread keeps stepping.
  struct Input {
    int geometry;
    GeometrySpec spec;
    HydroelasticRepresentation current;
  };
  std::vector<Input> inputs;
  for (int g : job.geometries) {
    inputs.push_back({g, world->geometry(g), world->hydroelastic_representation(g)});
  }
  try {
    hydro_build =
        std::async(std::launch::async, [this, job = std::move(job), inputs = std::move(inputs)] {
          HydroelasticBuilt built;
          built.scene_generation = job.scene_generation;
          const Clock::time_point start = Clock::now();
          try {
            for (const Input& in : inputs) {
              built.geometries.emplace_back(
                  in.geometry,
                  BuildHydroelasticRepresentation(in.spec.name, in.spec.shape, in.spec.hydroelastic,
                                                  {job.modulus_Pa, job.resolution_m}, &in.current));
            }
          } catch (const std::exception& e) {
            built.geometries.clear();
            built.error = fmt::format("hydroelastic change failed: {}", e.what());
          }
          built.build_ms = SecondsBetween(start, Clock::now()) * 1e3;
          {
            std::lock_guard lock(mu);
            hydro_ready = true;
          }
          cv.notify_all();
          return built;
        });
  } catch (const std::exception& e) {  // no thread available
    Error(fmt::format("hydroelastic change failed: {}", e.what()));
  }
}

void SimRuntime::Impl::FinishHydroelasticBuild() {
  if (!hydro_build.valid()) return;
  // hydro_ready is raised once the build is done: this waits only for the worker's return.
  HydroelasticBuilt built = hydro_build.get();  // the worker catches everything
  if (built.scene_generation != scene_generation) {
    // Built for a scene that has since been replaced: dropped.
  } else if (!built.error.empty()) {
    Error(std::move(built.error));
  } else {
    // The scene (the model, shared with snapshots) stays as it is: the representation in
    // force is a World input, which every snapshot reports. Same scene_generation: the UI
    // keeps its state.
    for (auto& [g, representation] : built.geometries) {
      try {
        world->SetHydroelasticGeometry(g, std::move(representation));  // a pointer swap
      } catch (const std::exception& e) {  // built from this geometry: cannot happen, but
        Error(fmt::format("hydroelastic change failed: {}", e.what()));  // never kill the loop
        continue;
      }
      const HydroelasticRepresentation& r = world->hydroelastic_representation(g);
      spdlog::info(
          "sim runtime: geometry '{}' now hydroelastic E_h = {:.3g} Pa, resolution {:.3g} m, "
          "{} tets / {} triangles (built in {:.0f} ms)",
          world->geometry(g).name, r.modulus_Pa, r.resolution_m, r.num_tets(), r.num_triangles(),
          built.build_ms);
    }
  }
  StartHydroelasticBuild();
  if (paused) Publish();  // running: the next step publishes it
}

void SimRuntime::Impl::UpdateAchievedFactor(Clock::time_point now) {
  if (rate_count == 0 || now - rate_marks[rate_newest].wall >= kRateMarkInterval) {
    rate_newest = (rate_newest + 1) % kRateMarks;
    rate_marks[rate_newest] = {now, sim_total};
    if (rate_count < kRateMarks) ++rate_count;
  }
  const RateMark& oldest = rate_marks[(rate_newest + kRateMarks - rate_count + 1) % kRateMarks];
  const double wall = SecondsBetween(oldest.wall, now);
  if (wall > 1e-3) achieved_factor = (sim_total - oldest.sim) / wall;
}

void SimRuntime::Impl::Publish() {
  // Device status strings are built on request; once every so many steps is often enough for a
  // status line, and keeps the per-step path free of allocations.
  constexpr uint64_t kStatusRefreshSteps = 64;
  if (devices.active && (step_index % kStatusRefreshSteps == 0 || paused)) {
    device_name = devices.active->Name();
    device_status = devices.active->Status();
    device_connected = devices.active->Connected();
  }
  std::shared_ptr<Snapshot> s = publisher.Free();
  FillSnapshot(*world, scene_generation, step_index, s.get());
  s->paused = paused;
  s->run = run;
  s->published = Clock::now();
  s->target_realtime_factor = target_factor;
  s->achieved_realtime_factor = paused ? 0 : achieved_factor;
  FillTeleopView(s.get());
  FillViews(s.get());
  FillRecordingView(s.get());
  s->alignment.active = peg_hole.has_value();
  if (peg_hole) {
    s->alignment.alignment = MeasurePegAlignment(*peg_hole, world->BodyPose(peg_hole->peg));
    s->alignment.hole_outline_W = HoleOutline(*peg_hole);
  }
  publisher.Publish(std::move(s));
}

void SimRuntime::Impl::Error(std::string message) {
  spdlog::warn("sim runtime: {}", message);
  std::lock_guard lock(errors_mu);
  if (errors.size() < kMaxQueuedErrors) errors.push_back(std::move(message));
}

}  // namespace contactlab
