// SimRuntime's visual-debugging part (docs/architecture.md §4: Timeline, Ghost, Picking and the
// mouse spring): the inputs of every step, live or replayed after a branch, handed to the
// timeline and the ghost.
#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <utility>

#include "app/runtime/sim_runtime_impl.h"

namespace contactlab {

// ---- Step inputs: live (teleoperation and the mouse spring) or a branch's replay ----------

// Sets the coming step's inputs, then hands them to the timeline and the ghost.
void SimRuntime::Impl::ApplyStepInputs() {
  if (replay_next < replay.size()) {
    contactlab::ApplyStepInputs(replay[replay_next++], world.get());
    if (replay_next == replay.size()) {
      spdlog::info("sim runtime: branch replayed {} recorded steps; live input from t = {:.3f} s",
                   replay.size(), world->time());
      replay.clear();
      replay_next = 0;
      if (teleop) teleop->Reset(*world);  // the arm's targets from where the replay left it
    }
  } else {
    UpdateTeleop();
    if (perturbation.scene_body >= 0) {
      try {
        const ExternalForce f = PerturbationForce(*world, perturbation);
        world->SetExternalForce(f);
        perturbation_peak_N = std::max(perturbation_peak_N, f.f_Q_W.norm());
      } catch (const std::exception& e) {
        Error(fmt::format("perturbation stopped: {}", e.what()));
        EndPerturbation();
      }
    }
  }
  timeline->Record(*world, step_index);
  FeedGhost();
}

void SimRuntime::Impl::Apply(command::Perturb& c) {
  if (c.body == -1) {
    EndPerturbation();
    return;
  }
  const Perturbation next{c.body, c.p_BoQ_B, c.target_W};
  try {
    PerturbationForce(*world, next);  // validates
  } catch (const std::exception& e) {
    Error(fmt::format("perturbation rejected: {}", e.what()));
    return;
  }
  if (perturbation.scene_body != c.body) {
    EndPerturbation();
    perturbation_start_s = world->time();
    perturbation_peak_N = 0;
    const Eigen::Vector3d p_WQ = world->BodyPose(c.body) * c.p_BoQ_B;
    spdlog::info(
        "sim runtime: perturbation: pulling '{}' at ({:.3f}, {:.3f}, {:.3f}) m from t = "
        "{:.3f} s",
        world->scene().bodies[c.body].body.name, p_WQ.x(), p_WQ.y(), p_WQ.z(), world->time());
  }
  perturbation = next;
}

void SimRuntime::Impl::EndPerturbation() {
  if (perturbation.scene_body < 0) return;
  spdlog::info(
      "sim runtime: perturbation: released '{}' at t = {:.3f} s after {:.3f} s, peak "
      "force {:.2f} N",
      world->scene().bodies[perturbation.scene_body].body.name, world->time(),
      world->time() - perturbation_start_s, perturbation_peak_N);
  perturbation = Perturbation{};
  world->SetExternalForce({});
}

// ---- The ghost -------------------------------------------------------------------------------

void SimRuntime::Impl::Apply(command::StartGhost& c) {
  LeaveView();
  GhostStart start;
  start.settings = world->contact_settings();
  try {
    ApplyOverrides(c.overrides, &start.settings);
  } catch (const std::exception& e) {
    Error(fmt::format("ghost rejected: {}", e.what()));
    return;
  }
  start.scene = world->shared_scene();
  start.scene_generation = scene_generation;
  for (int g = 0; g < world->num_geometries(); ++g) {
    start.hydroelastic.push_back(world->hydroelastic_representation(g));
  }
  start.q = world->q();
  start.v = world->v();
  start.time_s = world->time();
  CaptureStepInputs(*world, &start.inputs);
  start.step_index = step_index;
  start.label = c.label.empty() ? "ghost" : c.label;
  StopGhost("");
  const int queue_steps = static_cast<int>(std::ceil(kGhostMaxLag_s / world->dt()));
  auto fresh = std::make_unique<GhostRuntime>(std::move(start), queue_steps);
  std::lock_guard lock(ghost_mu);
  ghost = std::move(fresh);
  ghost_stopped_reason.clear();
}

void SimRuntime::Impl::Apply(command::StopGhost&) { StopGhost(""); }

// Stops the ghost without waiting for its thread (`reason` non-empty: shown and logged).
void SimRuntime::Impl::StopGhost(std::string reason) {
  for (size_t i = 0; i < retired.size();) {  // ended ones are joined at once
    if (retired[i]->finished()) {
      retired.erase(retired.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  if (!ghost) return;
  if (!reason.empty()) Error(fmt::format("ghost ({}) stopped: {}", ghost->label(), reason));
  ghost->RequestStop();
  std::lock_guard lock(ghost_mu);
  retired.push_back(std::move(ghost));
  ghost_stopped_reason = std::move(reason);
}

void SimRuntime::Impl::FeedGhost() {
  if (!ghost) return;
  if (ghost->finished()) {
    StopGhost(ghost->error().empty() ? "its thread ended" : ghost->error());
    return;
  }
  CaptureStepInputs(*world, &step_inputs);
  if (!ghost->Push(step_inputs, selected_body)) {
    StopGhost(fmt::format("it fell more than {:.0f} s behind", kGhostMaxLag_s));
  }
}

// ---- The timeline ----------------------------------------------------------------------------

// A reset or a new scene: the history, a branch's replay, the view, the ghost and the mouse
// spring all belonged to the old run.
void SimRuntime::Impl::RestartHistory() {
  timeline->Clear();
  view = -1;
  settings_edited_in_view = false;
  replay.clear();
  replay_next = 0;
  EndPerturbation();
  StopGhost(ghost ? "the main run was reset" : "");
}

// Recomputes recorded step `record` and publishes it (paused).
void SimRuntime::Impl::ShowRecord(int record) {
  paused = true;
  pending_single_steps = 0;
  view = record;
  timeline->Restore(record, world.get(), settings_edited_in_view);
  if (!world->Step()) Error("the recorded step could not be recomputed (non-finite state)");
  step_index = timeline->step_index(record) + 1;
  Publish();
}

// Back to the head (the newest record's step, recomputed), if a recorded step is shown.
void SimRuntime::Impl::LeaveView() {
  if (view < 0) return;
  ShowRecord(timeline->size() - 1);
  view = -1;
  settings_edited_in_view = false;
  Publish();
}

void SimRuntime::Impl::Apply(command::ShowTime& c) {
  if (timeline->size() == 0 || !std::isfinite(c.time_s)) return;
  ShowRecord(timeline->Find(c.time_s));
}

void SimRuntime::Impl::Apply(command::StepTimeline& c) {
  const int n = timeline->size();
  if (n == 0 || c.steps == 0) return;
  const int from = view >= 0 ? view : n - 1;
  const int to = from + c.steps;
  if (to >= n - 1 && view >= 0) {
    LeaveView();
    paused = true;
    return;
  }
  ShowRecord(std::clamp(to, 0, n - 1));
}

void SimRuntime::Impl::Apply(command::Branch&) {
  if (view < 0) return;
  const int n = timeline->size();
  replay.resize(static_cast<size_t>(n - 1 - view));
  for (int i = view + 1; i < n; ++i) timeline->Inputs(i, &replay[i - view - 1]);
  replay_next = 0;
  timeline->TruncateAfter(view);
  spdlog::info("sim runtime: branch at t = {:.4f} s ({}), replaying {} recorded steps",
               world->time() - world->dt(), ContactApproximationName(world->approximation()),
               replay.size());
  view = -1;
  settings_edited_in_view = false;
  StopGhost(ghost ? "the main run branched" : "");
  EndPerturbation();
  ++run;
  Publish();  // still paused: a Resume (or single steps) continues the branch
}

void SimRuntime::Impl::FillViews(Snapshot* s) const {
  PerturbationView& p = s->perturbation;
  p.body = perturbation.scene_body;
  if (p.body >= 0) {
    p.p_WQ = world->BodyPose(p.body) * perturbation.p_BoQ_B;
    p.target_W = perturbation.target_W;
    p.f_W = world->inputs().external_force.f_Q_W;
  }
  GhostView& g = s->ghost;
  g.active = ghost != nullptr;
  g.ready = ghost && ghost->ready();
  g.label = ghost ? ghost->label() : "";
  g.lag_s =
      ghost ? static_cast<double>(ghost->steps_queued() - ghost->steps_taken()) * ghost->dt() : 0.0;
  g.stopped_reason = ghost_stopped_reason;
  TimelineView& t = s->timeline;
  t.records = timeline->size();
  t.oldest_s = t.records ? timeline->time_s(0) : world->time();
  t.newest_s = t.records ? timeline->time_s(t.records - 1) + world->dt() : world->time();
  t.viewing = view >= 0;
  t.memory_MB = static_cast<double>(timeline->memory_bytes()) / (1024.0 * 1024.0);
  t.replay_steps_left = static_cast<int>(replay.size() - replay_next);
}

}  // namespace contactlab
