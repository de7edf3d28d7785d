#include "app/headless_runner.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "app/contact_log.h"
#include "app/csv_file.h"
#include "app/json_writer.h"
#include "app/task_monitor.h"

namespace contactlab {

namespace {

struct Distribution {
  std::vector<double> values;
  double Mean() const {
    double s = 0;
    for (double v : values) s += v;
    return values.empty() ? 0 : s / values.size();
  }
  double Quantile(double p) const {
    if (values.empty()) return 0;
    std::vector<double> sorted = values;
    const size_t k =
        std::min(sorted.size() - 1, static_cast<size_t>(std::lround(p * (sorted.size() - 1))));
    std::nth_element(sorted.begin(), sorted.begin() + k, sorted.end());
    return sorted[k];
  }
  double Max() const {
    return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
  }
  void Write(JsonWriter* json, const std::string& key) const {
    json->BeginObject(key)
        .Number("mean", Mean())
        .Number("median", Quantile(0.5))
        .Number("p99", Quantile(0.99))
        .Number("max", Max())
        .EndObject();
  }
};

// The per-step log's header: the step's statistics, floating bodies' state, every body's net
// contact forces; *floating gets the floating bodies' scene indices.
std::string StepLogHeader(const SceneSpec& scene, std::vector<int>* floating) {
  std::string header = "t,step_ms,iterations,num_contacts,residual";
  for (size_t i = 0; i < scene.bodies.size(); ++i) {
    const SceneBody& b = scene.bodies[i];
    if (b.kind == SceneBody::Kind::kDynamic && b.body.joint == JointType::kFloating) {
      floating->push_back(static_cast<int>(i));
      for (const char* c :
           {"px", "py", "pz", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"}) {
        header += fmt::format(",{}.{}", b.body.name, c);
      }
    }
  }
  for (const SceneBody& b : scene.bodies) header += fmt::format(",{0}.fn,{0}.ft", b.body.name);
  return header;
}

// One CSV row per step (--log).
class CsvLog {
 public:
  CsvLog(const World& world, const std::string& path)
      : file_(path, "log", StepLogHeader(world.scene(), &floating_)) {}

  void Write(const World& world) {
    const StepStats& s = world.last_stats();
    auto out = std::back_inserter(file_.BeginRow());
    fmt::format_to(out, "{:.9g},{:.6g},{},{},{:.6g}", world.time(), s.total_ms, s.iterations,
                   s.num_contacts, s.residual);
    for (int i : floating_) {
      const Eigen::Isometry3d X = world.BodyPose(i);
      const Eigen::Quaterniond q(X.linear());
      const Eigen::Matrix<double, 6, 1> V = world.BodyVelocity(i);
      const Eigen::Vector3d p = X.translation();
      fmt::format_to(out, ",{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g}", p.x(), p.y(), p.z(),
                     q.w(), q.x(), q.y(), q.z());
      fmt::format_to(out, ",{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g}", V[3], V[4], V[5], V[0],
                     V[1], V[2]);
    }
    const int nb = static_cast<int>(world.scene().bodies.size());
    for (int i = 0; i < nb; ++i) {
      fmt::format_to(out, ",{:.9g},{:.9g}", world.NetNormalForce(i).norm(),
                     world.NetFrictionForce(i).norm());
    }
    file_.EndRow();
  }

 private:
  std::vector<int> floating_;  // before file_: the header fills it
  CsvFile file_;
};

// What a run measures step by step for the summary.
struct RunStatistics {
  Distribution step_ms, geometry_ms, solve_ms, iterations, contacts;
  // Hydroelastic contact (docs/contact-model.md §5): contact-surface time, surface faces and the
  // face constraints they became, per step.
  Distribution surface_ms, surface_faces, face_constraints;
  bool any_surface = false;
  Distribution last_step_ms, last_iterations;  // the last simulated second
  double max_residual = 0;
  double max_tracking_error = 0;  // teleoperation only

  // After a successful step; `in_last_second`: the step is in the run's last simulated second.
  void Add(const World& world, bool in_last_second) {
    const StepStats& s = world.last_stats();
    step_ms.values.push_back(s.geometry_ms + s.solve_ms);
    geometry_ms.values.push_back(s.geometry_ms);
    solve_ms.values.push_back(s.solve_ms);
    iterations.values.push_back(s.iterations);
    contacts.values.push_back(s.num_contacts);
    surface_ms.values.push_back(s.hydroelastic_ms);
    int faces = 0;
    for (const HydroelasticPatch& patch : world.hydroelastic_patches()) {
      faces += static_cast<int>(patch.surface->faces.size());
    }
    surface_faces.values.push_back(faces);
    face_constraints.values.push_back(s.num_hydroelastic_faces);
    any_surface = any_surface || s.hydroelastic_ms > 0 || faces > 0;
    if (in_last_second) {
      last_step_ms.values.push_back(s.geometry_ms + s.solve_ms);
      last_iterations.values.push_back(s.iterations);
    }
    max_residual = std::max(max_residual, s.residual);
  }
};

// Before a step: the input device's command for the current time, recorded (in world axes) if
// asked, applied by the teleoperation controller.
void ApplyTeleop(const HeadlessOptions& options, World* world) {
  const TeleopCommand command = options.input->Poll(world->time());
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
  stats.surface_ms.Write(json, "surface_ms");
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
  stats.step_ms.Write(&json, "step_ms");
  stats.geometry_ms.Write(&json, "geometry_ms");
  stats.solve_ms.Write(&json, "solve_ms");
  json.BeginObject("iterations")
      .Number("mean", stats.iterations.Mean())
      .Number("max", stats.iterations.Max())
      .EndObject();
  json.BeginObject("contacts")
      .Number("mean", stats.contacts.Mean())
      .Number("max", stats.contacts.Max())
      .EndObject();
  if (stats.any_surface) WriteHydroelastic(stats, &json);
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
  std::unique_ptr<TaskMonitor> monitor = MakeTaskMonitor(*world);

  const double dt = world->dt();
  const int steps = std::max(1, static_cast<int>(std::llround(options.duration_s / dt)));
  const int last_second_start = std::max(0, steps - static_cast<int>(std::llround(1.0 / dt)));
  RunStatistics stats;
  stats.step_ms.values.reserve(steps);
  const auto t0 = Clock::now();
  for (int i = 0; i < steps; ++i) {
    if (options.teleop) ApplyTeleop(options, world);
    if (!world->Step()) {
      result.failed = true;
      spdlog::error("{}: the run failed at t = {:.6f} s (step {})", world->scene().name,
                    world->time(), i);
      break;
    }
    ++result.steps;
    if (!world->last_stats().converged) ++result.nonconverged_steps;
    stats.Add(*world, i >= last_second_start);
    monitor->Observe(*world);
    if (options.teleop) {
      stats.max_tracking_error =
          std::max(stats.max_tracking_error, options.teleop->state().position_error_m);
    }
    if (log) log->Write(*world);
    if (contact_log) contact_log->Write(*world);
    if (options.realtime_factor > 0) WaitForWallClock(t0, world->time(), options.realtime_factor);
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
