// The cost of a step's derivatives (issue 39, docs/contact-model.md §9) against the step itself,
// on the settled clutter-40 pile (assets/scenes/clutter.yaml at 2 s) and on peg_in_hole (the peg
// held between the pads at 0.3 s, the end of its script's opening hold), for SAP and Lagged. Per
// step:
//   step       World::Step
//   factor     StepDerivatives::Step: the step, then H at v₁ assembled and factored
//   jvp        factor + one Apply along ∂/∂μ (one Jacobian–vector product)
//   dp         factor + ∂(q₁, v₁)/∂p: one Apply per global parameter the model reads
//   jacobians  factor + Jacobians(): every column of ∂(q₁, v₁)/∂(q₀, v₀, u, p)
// Each iteration restores the same state, so that every case times the same step. Release build:
//   build/bench/step_derivatives_bench --benchmark_counters_tabular=true
// scripts/derivative_cost.py runs it with repetitions and plots each case in steps.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app/teleop/teleop_controller.h"
#include "engine/world/step_derivatives.h"
#include "engine/world/world.h"
#include "input/replay_device.h"
#include "io/scene_loader.h"

namespace contactlab {
namespace {

enum class Cost { kStep, kFactor, kJvp, kParameterJacobian, kJacobians };

struct BenchScene {
  const char* label;
  const char* file;
  // The state the step is taken from: a settled pile; the peg held between the pads. A scene
  // with a teleop script is driven by it up to there, as `contactlab --headless` does, and the
  // step keeps the controller's last PD targets: the scene's initial targets leave the fingers
  // without the grip force the controller sets, and the peg falls to the table in 0.3 s.
  double state_time_s;
  // The global values the derivatives are taken at (docs/contact-model.md §9: every pair's k, d,
  // τ_d and μ become settings overrides, without which they are not defined): the clutter
  // file's default_contact, and peg_in_hole's robot and peg contact with its default τ_d (its
  // default_contact's μ = 0.5 would loosen the pads' grasp, whose μ is 1).
  double stiffness_N_per_m, hunt_crossley_s_per_m, relaxation_time_s, friction;
};
constexpr BenchScene kScenes[] = {{"clutter40", "clutter", 2.0, 1e7, 10, 1e-4, 1.0},
                                  {"peg_in_hole", "peg_in_hole", 0.3, 1e6, 50, 1e-4, 1.0}};

SceneSpec GlobalParameterScene(const BenchScene& bench_scene, ContactApproximation model) {
  SceneSpec scene = LoadSceneFile(ResolveScenePath(bench_scene.file));
  ContactSettings& settings = scene.contact_settings;
  settings.approximation = model;
  settings.stiffness_N_per_m = bench_scene.stiffness_N_per_m;
  settings.hunt_crossley_s_per_m = bench_scene.hunt_crossley_s_per_m;
  settings.relaxation_time_s = bench_scene.relaxation_time_s;
  settings.friction = bench_scene.friction;
  return scene;
}

std::vector<ContactParameter> ParametersRead(ContactApproximation model) {
  std::vector<ContactParameter> read;
  for (ContactParameter p : {ContactParameter::kStiffness, ContactParameter::kHuntCrossley,
                             ContactParameter::kRelaxationTime, ContactParameter::kFriction,
                             ContactParameter::kStictionTolerance}) {
    if (UsesParameter(model, p)) read.push_back(p);
  }
  return read;
}

void StepCost(benchmark::State& state, const BenchScene& bench_scene, ContactApproximation model,
              Cost cost) {
  World world(GlobalParameterScene(bench_scene, model));
  std::unique_ptr<ReplayDevice> script;
  std::unique_ptr<TeleopController> teleop;
  if (!world.scene().teleop.script_path.empty()) {
    std::string error;
    script = ReplayDevice::Load(world.scene().teleop.script_path, &error);
    if (!script) {
      state.SkipWithError(error.c_str());
      return;
    }
    teleop = std::make_unique<TeleopController>(world, *FindTeleopConfig(world.scene()));
  }
  while (world.time() < bench_scene.state_time_s - 0.5 * world.dt()) {
    if (teleop) teleop->Update(script->Poll(world.time()), &world);
    if (!world.Step()) {
      state.SkipWithError(world.failure().c_str());
      return;
    }
  }
  const Eigen::VectorXd q0 = world.q(), v0 = world.v();
  const double t0 = world.time();
  const std::vector<ContactParameter> parameters = ParametersRead(model);
  const int np = static_cast<int>(parameters.size());
  StepDerivatives derivatives(world.model(), parameters);
  StepDirection direction;
  direction.parameters.setZero(np);
  Eigen::VectorXd dq, dv;
  int friction = 0;
  while (parameters[friction] != ContactParameter::kFriction) ++friction;
  for (auto _ : state) {
    world.SetState(q0, v0, t0);
    if (cost == Cost::kStep) {
      if (world.Step()) continue;
      state.SkipWithError(world.failure().c_str());
      break;
    }
    if (!derivatives.Step(&world)) {
      state.SkipWithError(derivatives.failure().c_str());
      break;
    }
    if (cost == Cost::kJvp) {
      direction.parameters[friction] = 1;
      derivatives.Apply(direction, &dq, &dv);
      direction.parameters[friction] = 0;
    } else if (cost == Cost::kParameterJacobian) {
      for (int j = 0; j < np; ++j) {
        direction.parameters[j] = 1;
        derivatives.Apply(direction, &dq, &dv);
        direction.parameters[j] = 0;
      }
    } else if (cost == Cost::kJacobians) {
      benchmark::DoNotOptimize(derivatives.Jacobians());
    }
    benchmark::DoNotOptimize(dv.data());
  }
  const StepStats& s = world.last_stats();
  state.counters["contacts"] = s.num_contacts;
  state.counters["hydro_faces"] = s.num_hydroelastic_faces;
  state.counters["constraints"] = s.num_constraints;
  state.counters["newton_iterations"] = s.iterations;
  state.counters["nq"] = derivatives.num_positions();
  state.counters["nv"] = derivatives.num_velocities();
  state.counters["nu"] = 2 * static_cast<double>(derivatives.pd_bodies().size());
  state.counters["np"] = np;
}

// Names "StepCost/<scene>/<model>/<cost>", which scripts/derivative_cost.py parses. The full
// Jacobians take hundreds of steps' time on the pile (a column costs two rebuilt steps): two
// iterations each.
const bool kRegistered = [] {
  const std::pair<ContactApproximation, const char*> models[] = {
      {ContactApproximation::kSap, "sap"}, {ContactApproximation::kLagged, "lagged"}};
  const std::pair<Cost, const char*> costs[] = {{Cost::kStep, "step"},
                                                {Cost::kFactor, "factor"},
                                                {Cost::kJvp, "jvp"},
                                                {Cost::kParameterJacobian, "dp"},
                                                {Cost::kJacobians, "jacobians"}};
  for (const BenchScene& scene : kScenes) {
    for (const auto& [model, model_name] : models) {
      for (const auto& [cost, cost_name] : costs) {
        const std::string name =
            std::string("StepCost/") + scene.label + "/" + model_name + "/" + cost_name;
        benchmark::internal::Benchmark* b = benchmark::RegisterBenchmark(
            name.c_str(), [&scene, model = model, cost = cost](benchmark::State& state) {
              StepCost(state, scene, model, cost);
            });
        b->Unit(benchmark::kMillisecond);
        if (cost == Cost::kJacobians) b->Iterations(2);
      }
    }
  }
  return true;
}();

}  // namespace
}  // namespace contactlab
