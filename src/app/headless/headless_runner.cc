#include "app/headless/headless_runner.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "app/headless/contact_log.h"
#include "app/headless/csv_file.h"
#include "app/headless/json_writer.h"
#include "app/headless/solver_log.h"
#include "app/headless/streaming_distribution.h"
#include "app/headless/task_monitor.h"
#include "app/teleop/slip_meter.h"

namespace contactlab {

namespace {

// A summary distribution: its mean, median, p99 and max.
void WriteDistribution(const StreamingDistribution& d, const std::string& key, JsonWriter* json) {
  json->BeginObject(key)
      .Number("mean", d.Mean())
      .Number("median", d.Quantile(0.5))
      .Number("p99", d.Quantile(0.99))
      .Number("max", d.Max())
      .EndObject();
}

// The columns of a body's world pose and spatial velocity in the per-step log.
constexpr const char* kStateColumns[] = {"px", "py", "pz", "qw", "qx", "qy", "qz",
                                         "vx", "vy", "vz", "wx", "wy", "wz"};
// The held object's columns (group 5, docs/architecture.md §7), `held_object.<column>`: the slip
// meter's reading (app/teleop/slip_meter.h) in the hand frame H.
constexpr const char* kHeldObjectColumns[] = {
    "p_HB_x",   "p_HB_y",   "p_HB_z",   "q_HB_w", "q_HB_x",       "q_HB_y", "q_HB_z",
    "v_slip_x", "v_slip_y", "v_slip_z", "held",   "creep_path_m", "drift_m"};

// A dynamic body whose state the per-step log writes: its scene index and, for a 1-dof joint,
// the indices of its joint position and rate in World::q() and World::v() (else −1).
struct LoggedBody {
  int scene_body = -1;
  int q_index = -1, v_index = -1;
};

// Which bodies the per-step log's state columns cover. The floating bodies come first (their
// columns precede the contact forces, as they always have); every other dynamic body (robot
// links, welded or jointed bodies) is appended after the forces, so the columns written before
// it was logged keep their positions (docs/architecture.md §7).
struct LoggedBodies {
  std::vector<LoggedBody> floating, jointed;
};

LoggedBodies FindLoggedBodies(const World& world) {
  LoggedBodies logged;
  const SceneSpec& scene = world.scene();
  for (int i = 0; i < static_cast<int>(scene.bodies.size()); ++i) {
    const int b = world.multibody_index(i);
    if (b < 0) continue;  // static or kinematic
    LoggedBody body;
    body.scene_body = i;
    const JointType joint = world.multibody().body(b).joint;
    if (joint == JointType::kFloating) {
      logged.floating.push_back(body);
      continue;
    }
    if (world.multibody().joint_num_velocities(b) == 1) {
      body.q_index = world.multibody().position_start(b);
      body.v_index = world.multibody().velocity_start(b);
    }
    logged.jointed.push_back(body);
  }
  return logged;
}

void AppendStateHeader(const SceneSpec& scene, const LoggedBody& body, std::string* header) {
  const std::string& name = scene.bodies[body.scene_body].body.name;
  for (const char* c : kStateColumns) *header += fmt::format(",{}.{}", name, c);
  if (body.q_index >= 0) *header += fmt::format(",{0}.q,{0}.qd", name);
}

// The per-step log's header: the step's statistics, the floating bodies' state, every body's
// net contact forces, then the other dynamic bodies' state (and joint position and rate).
std::string StepLogHeader(const SceneSpec& scene, const LoggedBodies& logged) {
  std::string header = "t,step_ms,iterations,num_contacts,residual,contact_polygons,dt";
  for (const LoggedBody& b : logged.floating) AppendStateHeader(scene, b, &header);
  for (const SceneBody& b : scene.bodies) header += fmt::format(",{0}.fn,{0}.ft", b.body.name);
  for (const LoggedBody& b : logged.jointed) AppendStateHeader(scene, b, &header);
  if (scene.held_object) {
    for (const char* c : kHeldObjectColumns) header += fmt::format(",held_object.{}", c);
  }
  return header;
}

// Appends a body's world pose (origin, quaternion) and spatial velocity (origin velocity,
// angular velocity) and, on a 1-dof joint, its joint position and rate.
void AppendState(const World& world, const LoggedBody& body, fmt::memory_buffer* row) {
  const Eigen::Isometry3d X_WB = world.BodyPose(body.scene_body);
  const Eigen::Quaterniond q_WB(X_WB.linear());
  const Eigen::Matrix<double, 6, 1> V_WB = world.BodyVelocity(body.scene_body);  // [ω, v]
  const Eigen::Vector3d p_WB = X_WB.translation();
  auto out = std::back_inserter(*row);
  // Shortest round-trip digits ({}): a reader gets the double back bit for bit, so that a finite
  // difference of logged poses is exact to rounding (the slip meter's test, held_object below).
  fmt::format_to(out, ",{},{},{},{},{},{},{}", p_WB.x(), p_WB.y(), p_WB.z(), q_WB.w(), q_WB.x(),
                 q_WB.y(), q_WB.z());
  fmt::format_to(out, ",{},{},{},{},{},{}", V_WB[3], V_WB[4], V_WB[5], V_WB[0], V_WB[1], V_WB[2]);
  if (body.q_index >= 0) {
    fmt::format_to(out, ",{},{}", world.q()[body.q_index], world.v()[body.v_index]);
  }
}

// The held object's reading after the step (group 5 of the log).
void AppendHeldObject(const SlipReading& r, fmt::memory_buffer* row) {
  const Eigen::Vector3d p_HB = r.X_HB.translation();
  const Eigen::Quaterniond q_HB(r.X_HB.linear());
  auto out = std::back_inserter(*row);
  fmt::format_to(out, ",{},{},{},{},{},{},{}", p_HB.x(), p_HB.y(), p_HB.z(), q_HB.w(), q_HB.x(),
                 q_HB.y(), q_HB.z());
  fmt::format_to(out, ",{},{},{},{:d},{},{}", r.v_slip_H.x(), r.v_slip_H.y(), r.v_slip_H.z(),
                 r.held ? 1 : 0, r.creep_path_m, r.drift_m);
}

// One CSV row per step (--log).
class CsvLog {
 public:
  CsvLog(const World& world, const std::string& path)
      : logged_(FindLoggedBodies(world)),
        file_(path, "log", StepLogHeader(world.scene(), logged_)) {
    if (const std::optional<HeldObjectSpec>& held = world.scene().held_object) {
      meter_ = SlipMeter(world, held->body, held->hand);
    }
  }

  void Write(const World& world) {
    const StepStats& s = world.last_stats();
    fmt::memory_buffer& row = file_.BeginRow();
    fmt::format_to(std::back_inserter(row), "{:.9g},{:.6g},{},{},{:.6g},{},{}", world.time(),
                   s.total_ms, s.iterations, s.num_contacts, s.residual,
                   s.num_hydroelastic_polygons, s.dt_s);
    for (const LoggedBody& b : logged_.floating) AppendState(world, b, &row);
    const int nb = static_cast<int>(world.scene().bodies.size());
    for (int i = 0; i < nb; ++i) {
      fmt::format_to(std::back_inserter(row), ",{:.9g},{:.9g}", world.NetNormalForce(i).norm(),
                     world.NetFrictionForce(i).norm());
    }
    for (const LoggedBody& b : logged_.jointed) AppendState(world, b, &row);
    if (world.scene().held_object) {
      meter_.Observe(world);
      AppendHeldObject(meter_.reading(), &row);
    }
    file_.EndRow();
  }

 private:
  LoggedBodies logged_;  // before file_: the header needs it
  CsvFile file_;
  SlipMeter meter_;  // the held object's (none without one)
};

// What a run measures step by step for the summary.
struct RunStatistics {
  StreamingDistribution step_ms, geometry_ms, solve_ms, iterations, contacts;
  // Point contacts left out as out of reach, and solves per step (docs/contact-model.md §4.3).
  StreamingDistribution out_of_reach, solves;
  // Hydroelastic contact (docs/contact-model.md §5): contact-surface time, surface polygons, the
  // faces they are fanned into and the face constraints those became, per step.
  StreamingDistribution surface_ms, surface_polygons, surface_faces, face_constraints;
  bool any_surface = false;
  StreamingDistribution last_step_ms, last_iterations;  // the last simulated second
  double max_residual = 0;
  double max_tracking_error = 0;  // teleoperation only
  // Time integration (docs/contact-model.md §1.2): the steps' sizes, and under error control
  // the accepted steps' error estimates, the attempts rejected and the steps taken at the floor.
  StreamingDistribution dt_s, error_estimate;
  int64_t rejected = 0, at_floor = 0, free_motion_iterations_max = 0;
  // The rigid model's stage (docs/contact-model.md §8), over the steps in which a contact acted.
  StreamingDistribution rigid_contacts, rigid_outer, rigid_inner, rigid_passes;
  int64_t rigid_steps = 0, rigid_rank_deficient = 0, rigid_nonconverged = 0, rigid_polished = 0,
          rigid_capped = 0;
  double rigid_max_phase1_residual = 0, rigid_max_duality_gap = 0;

  void AddRigid(const RigidContactStats& r) {
    if (r.passes == 0) return;
    ++rigid_steps;
    rigid_contacts.Add(r.num_active);
    rigid_outer.Add(r.solver.outer_iterations);
    rigid_inner.Add(r.solver.inner_iterations);
    rigid_passes.Add(r.passes);
    rigid_rank_deficient += r.solver.phase1_rank < r.num_active ? 1 : 0;
    rigid_nonconverged += r.solver.converged ? 0 : 1;
    rigid_polished += r.solver.least_squares ? 1 : 0;
    rigid_capped += r.solver.capped_minimizations;
    rigid_max_phase1_residual = std::max(rigid_max_phase1_residual, r.solver.phase1_residual);
    rigid_max_duality_gap = std::max(rigid_max_duality_gap, r.solver.duality_gap);
  }

  // After a successful step; `in_last_second`: the step is in the run's last simulated second.
  void Add(const World& world, bool in_last_second) {
    const StepStats& s = world.last_stats();
    step_ms.Add(s.geometry_ms + s.solve_ms);
    geometry_ms.Add(s.geometry_ms);
    solve_ms.Add(s.solve_ms);
    iterations.Add(s.iterations);
    contacts.Add(s.num_contacts);
    out_of_reach.Add(s.num_out_of_reach);
    solves.Add(s.num_solves);
    surface_ms.Add(s.hydroelastic_ms);
    int faces = 0;
    for (const HydroelasticPatch& patch : world.hydroelastic_patches()) {
      faces += static_cast<int>(patch.surface->faces.size());
    }
    surface_faces.Add(faces);
    surface_polygons.Add(s.num_hydroelastic_polygons);
    face_constraints.Add(s.num_hydroelastic_faces);
    any_surface = any_surface || s.hydroelastic_ms > 0 || faces > 0;
    if (in_last_second) {
      last_step_ms.Add(s.geometry_ms + s.solve_ms);
      last_iterations.Add(s.iterations);
    }
    max_residual = std::max(max_residual, s.residual);
    dt_s.Add(s.dt_s);
    error_estimate.Add(s.error_estimate);
    rejected += s.num_rejected;
    at_floor += s.at_step_floor ? 1 : 0;
    free_motion_iterations_max =
        std::max<int64_t>(free_motion_iterations_max, s.free_motion_iterations);
    AddRigid(s.rigid);
  }
};

// Before a step: the input device's command for the current time, recorded (in world axes) if
// asked, applied by the teleoperation controller.
void ApplyTeleop(const HeadlessOptions& options, World* world) {
  // The command for the step [t, t + h] of its planned size, as the sim thread polls it (a
  // recording made in the GUI then replays bit for bit, docs/architecture.md §4).
  const TeleopCommand command = options.input->PollStep(world->time(), world->next_dt());
  if (options.recorder) options.recorder->Record(options.teleop->InWorldAxes(command));
  options.teleop->Update(command, world);
}

// With a real-time factor: sleeps until `sim_time_s` of simulated time is due on the wall clock
// (run started at t0).
void WaitForWallClock(std::chrono::steady_clock::time_point t0, double sim_time_s,
                      double realtime_factor) {
  using Clock = std::chrono::steady_clock;
  const auto due = t0 + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(sim_time_s / realtime_factor));
  std::this_thread::sleep_until(due);
}

void WriteHydroelastic(const RunStatistics& stats, JsonWriter* json) {
  json->BeginObject("hydroelastic");
  WriteDistribution(stats.surface_ms, "surface_ms", json);
  json->BeginObject("polygons")
      .Number("mean", stats.surface_polygons.Mean())
      .Number("max", stats.surface_polygons.Max())
      .EndObject();
  json->BeginObject("faces")
      .Number("mean", stats.surface_faces.Mean())
      .Number("max", stats.surface_faces.Max())
      .EndObject();
  json->BeginObject("face_constraints")
      .Number("mean", stats.face_constraints.Mean())
      .Number("max", stats.face_constraints.Max())
      .EndObject();
  json->EndObject();
}

// The time integration's part of the summary: the scheme, the step sizes taken and, under
// error control, the accuracy asked, the error estimates, rejections and floor hits.
void WriteIntegration(const World& world, const RunStatistics& stats, JsonWriter* json) {
  const TimeIntegration& integrator = world.contact_settings().integrator;
  json->BeginObject("integration").String("integrator", TimeIntegrationName(integrator));
  json->BeginObject("step_size")
      .Number("mean", stats.dt_s.Mean())
      .Number("min", stats.dt_s.Quantile(0))
      .Number("p10", stats.dt_s.Quantile(0.1))
      .Number("median", stats.dt_s.Quantile(0.5))
      .Number("p90", stats.dt_s.Quantile(0.9))
      .Number("max", stats.dt_s.Max())
      .EndObject();
  if (integrator.scheme == TimeIntegration::Scheme::kTheta) {
    json->Integer("free_motion_iterations_max", stats.free_motion_iterations_max);
  }
  if (integrator.scheme == TimeIntegration::Scheme::kErrorControlled) {
    json->Number("accuracy", integrator.accuracy)
        .Number("dt_max", world.dt())
        .Integer("rejected_steps", stats.rejected)
        .Integer("steps_at_floor", stats.at_floor);
    WriteDistribution(stats.error_estimate, "error_estimate", json);
  }
  json->EndObject();
}

// The rigid model's part of the summary (docs/contact-model.md §8): over the steps in which a
// contact acted, the contacts and passes, phase 1's rank deficiency and residual, the barrier's
// iterations (every pass's) and final duality gap, the least-squares polishes, the Newton
// minimizations stopped at their cap and non-convergence.
void WriteRigidModel(const RunStatistics& stats, JsonWriter* json) {
  const auto mean_max = [json](const char* name, const StreamingDistribution& d) {
    json->BeginObject(name).Number("mean", d.Mean()).Number("max", d.Max()).EndObject();
  };
  json->BeginObject("rigid_model").Integer("steps_with_contact", stats.rigid_steps);
  mean_max("contacts", stats.rigid_contacts);
  mean_max("passes", stats.rigid_passes);
  mean_max("outer_iterations", stats.rigid_outer);
  mean_max("inner_iterations", stats.rigid_inner);
  json->Integer("rank_deficient_steps", stats.rigid_rank_deficient)
      .Number("max_phase1_residual", stats.rigid_max_phase1_residual)
      .Number("max_duality_gap", stats.rigid_max_duality_gap)
      .Integer("polished_steps", stats.rigid_polished)
      .Integer("capped_minimizations", stats.rigid_capped)
      .Integer("nonconverged_steps", stats.rigid_nonconverged)
      .EndObject();
}

void WriteTeleop(const HeadlessOptions& options, const RunStatistics& stats, JsonWriter* json) {
  const TeleopState& ts = options.teleop->state();
  json->BeginObject("teleop")
      .String("device", options.input->Name())
      .String("status", options.input->Status())
      .Number("grip_force", ts.grip_force_N)
      .Integer("ik_failures", ts.ik_failures)
      .Number("max_tracking_error", stats.max_tracking_error)
      .Number("final_tracking_error", ts.position_error_m)
      .EndObject();
}

// The run summary JSON (docs/architecture.md, "Summary JSON") to options.summary_path.
void WriteSummary(const World& world, const HeadlessOptions& options, const HeadlessResult& result,
                  const RunStatistics& stats, const TaskMonitor& monitor) {
  JsonWriter json;
  json.BeginObject()
      .String("scene", world.scene().name)
      .String("model", ContactApproximationName(world.approximation()))
      .Number("dt", world.dt())
      .Integer("steps", result.steps)
      .Number("sim_time", world.time())
      .Number("wall_time", result.wall_time_s)
      .Number("realtime_factor", world.time() / std::max(result.wall_time_s, 1e-12));
  WriteDistribution(stats.step_ms, "step_ms", &json);
  WriteDistribution(stats.geometry_ms, "geometry_ms", &json);
  WriteDistribution(stats.solve_ms, "solve_ms", &json);
  json.BeginObject("iterations")
      .Number("mean", stats.iterations.Mean())
      .Number("max", stats.iterations.Max())
      .EndObject();
  json.BeginObject("contacts")
      .Number("mean", stats.contacts.Mean())
      .Number("max", stats.contacts.Max())
      .Number("out_of_reach_mean", stats.out_of_reach.Mean())
      .EndObject();
  json.BeginObject("solves")
      .Number("mean", stats.solves.Mean())
      .Number("max", stats.solves.Max())
      .EndObject();
  if (stats.any_surface) WriteHydroelastic(stats, &json);
  WriteIntegration(world, stats, &json);
  if (IsRigidModel(world.approximation())) {
    WriteRigidModel(stats, &json);
  }
  json.BeginObject("last_second")
      .Number("step_ms_median", stats.last_step_ms.Quantile(0.5))
      .Number("iterations_mean", stats.last_iterations.Mean())
      .EndObject();
  json.Number("max_residual", stats.max_residual)
      .Integer("nonconverged_steps", result.nonconverged_steps)
      .Bool("all_converged", result.nonconverged_steps == 0 && !result.failed)
      .Bool("failed", result.failed);
  if (options.teleop) WriteTeleop(options, stats, &json);
  json.BeginObject("task");
  monitor.Report(&json);
  json.EndObject();
  json.EndObject();
  std::ofstream out(options.summary_path);
  if (!out) {
    throw std::runtime_error(
        fmt::format("{}: cannot open the summary for writing", options.summary_path));
  }
  out << json.str() << '\n';
}

}  // namespace

long long HeadlessStepCount(double duration_s, double dt_s) {
  const double steps = duration_s / dt_s;
  if (!(duration_s > 0) || !(steps <= static_cast<double>(kMaxHeadlessSteps))) return -1;
  return std::max(1LL, std::llround(steps));
}

HeadlessResult RunHeadless(World* world, const HeadlessOptions& options) {
  using Clock = std::chrono::steady_clock;
  if ((options.teleop == nullptr) != (options.input == nullptr)) {
    throw std::invalid_argument("RunHeadless: teleop and input must be given together");
  }
  HeadlessResult result;
  std::unique_ptr<CsvLog> log;
  if (!options.log_path.empty()) log = std::make_unique<CsvLog>(*world, options.log_path);
  std::unique_ptr<ContactLog> contact_log;
  if (!options.contact_log_path.empty()) {
    contact_log = std::make_unique<ContactLog>(options.contact_log_path);
  }
  std::unique_ptr<SolverLog> solver_log;
  if (!options.solver_log_path.empty()) {
    solver_log =
        std::make_unique<SolverLog>(options.solver_log_path, *world, options.hessian_condition);
  }
  std::unique_ptr<NewtonLog> newton_log;
  if (!options.newton_log_path.empty()) {
    newton_log = std::make_unique<NewtonLog>(options.newton_log_path, world);
  }
  std::unique_ptr<TaskMonitor> monitor = MakeTaskMonitor(*world);

  // Fixed steps: a count, as every release so far; error control: steps until the duration,
  // the last one cut short there (docs/contact-model.md §1.2).
  const bool by_time =
      world->contact_settings().integrator.scheme == TimeIntegration::Scheme::kErrorControlled;
  const double dt = world->dt();
  const long long steps = by_time ? kMaxHeadlessSteps : HeadlessStepCount(options.duration_s, dt);
  if (steps < 0) {
    throw std::invalid_argument(fmt::format("--duration {} s at dt = {} s: more than {} steps",
                                            options.duration_s, dt, kMaxHeadlessSteps));
  }
  RunStatistics stats;
  const auto t0 = Clock::now();
  for (long long i = 0; by_time ? world->time() < options.duration_s : i < steps; ++i) {
    if (i == steps) {
      result.failed = true;
      spdlog::error("{}: error control took {} steps before t = {} s; stopping",
                    world->scene().name, kMaxHeadlessSteps, options.duration_s);
      break;
    }
    if (options.teleop) ApplyTeleop(options, world);
    if (!world->Step(options.duration_s)) {
      result.failed = true;
      spdlog::error("{}: the run failed at step {} (t = {:.6f} s): {}", world->scene().name, i,
                    world->time(), world->failure());
      break;
    }
    ++result.steps;
    if (!world->last_stats().converged) ++result.nonconverged_steps;
    stats.Add(*world, world->time() > options.duration_s - 1.0);
    monitor->Observe(*world);
    if (options.teleop) {
      stats.max_tracking_error =
          std::max(stats.max_tracking_error, options.teleop->state().position_error_m);
    }
    if (log) log->Write(*world);
    if (contact_log) contact_log->Write(*world);
    if (solver_log) solver_log->Write(*world);
    if (newton_log) newton_log->Write(*world, result.steps);
    if (options.realtime_factor > 0) WaitForWallClock(t0, world->time(), options.realtime_factor);
    if (options.stop_on_failure && monitor->Failed()) {
      spdlog::info("{}: the task failed at t = {:.6g} s; stopping (--stop-on-failure)",
                   world->scene().name, world->time());
      break;
    }
  }
  result.wall_time_s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (result.nonconverged_steps > 0) {
    spdlog::warn("{}: {} of {} steps did not converge", world->scene().name,
                 result.nonconverged_steps, result.steps);
  }
  if (!options.summary_path.empty()) WriteSummary(*world, options, result, stats, *monitor);
  return result;
}

}  // namespace contactlab
