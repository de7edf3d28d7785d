// Clutter benchmarks (ICF paper §VII-A): time per step split into geometry and solve, Newton
// iterations per step and a condition estimate, for each approximation; scaling with the
// number of bodies, with and without walls. Release build:
//   build/bench/clutter_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "engine/world/world.h"
#include "io/scene_generators.h"
#include "io/scene_loader.h"

namespace contactlab {
namespace {

SceneSpec ClutterScene(int count, bool walls, ContactApproximation model,
                       double stiffness_N_per_m = 1e7) {
  SceneSpec scene = ParseScene(R"(
dt: 2.0e-3
stiction_tolerance: 1.0e-4
sigma: 1.0e-3
default_contact: {stiffness: 1.0e7, hunt_crossley: 10.0, relaxation_time: 1.0e-4, friction: 1.0}
bodies:
  - {name: ground, type: static, shapes: [{type: half_space, stiffness: .inf}]}
)",
                               "clutter_bench");
  ClutterSpec clutter;
  clutter.count = count;
  clutter.walls = walls;
  // The floor grows with the count beyond the paper's 40 bodies in an 80 cm box, so that the
  // pile keeps its depth (with walls: 640 bodies would overflow the 80 cm box) and the number of
  // contacts grows with the number of bodies.
  clutter.container_m = 0.8 * std::max(1.0, std::sqrt(count / 40.0));
  ContactProperties contact;
  contact.stiffness_N_per_m = stiffness_N_per_m;
  contact.hunt_crossley_s_per_m = 10;
  contact.relaxation_time_s = 1e-4;
  contact.friction = 1.0;
  AddClutter(clutter, contact, &scene);
  scene.contact_settings.approximation = model;
  return scene;
}

// Steps a settled pile: the timed loop is the steady state the issue's figures are about.
void SettledClutter(benchmark::State& state, ContactApproximation model, bool walls) {
  const int count = static_cast<int>(state.range(0));
  World world(ClutterScene(count, walls, model));
  // Fall and settle: 2 s for up to 40 bodies; a deeper pile (160, 640 in the same box) takes
  // longer to come to rest, 6 s.
  const int settle_steps = count <= 40 ? 1000 : 3000;
  for (int i = 0; i < settle_steps; ++i) world.Step();
  double geometry = 0, solve = 0, iterations = 0, contacts = 0;
  int nonconverged = 0;
  for (auto _ : state) {
    world.Step();
    const StepStats& s = world.last_stats();
    geometry += s.geometry_ms;
    solve += s.solve_ms;
    iterations += s.iterations;
    contacts += s.num_contacts;
    nonconverged += !s.converged;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["geometry_ms"] = geometry / n;
  state.counters["solve_ms"] = solve / n;
  state.counters["iterations"] = iterations / n;
  state.counters["iteration_ms"] = solve / std::max(iterations, 1.0);
  state.counters["contacts"] = contacts / n;
  state.counters["nonconverged"] = nonconverged;
  state.counters["nv"] = world.multibody().num_velocities();
  // Condition estimate of the Newton Hessian at the last solution, Jacobi-scaled
  // (D H D with D = diag(H)^(−½), the scaling the stopping criterion uses).
  if (count <= 40) {
    Eigen::VectorXd gradient;
    Eigen::MatrixXd H;
    world.solver().EvaluateCost(world.last_problem(), world.v(), &gradient, &H);
    const Eigen::VectorXd d = H.diagonal().cwiseSqrt().cwiseInverse();
    const Eigen::MatrixXd scaled = d.asDiagonal() * H * d.asDiagonal();
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(scaled, Eigen::EigenvaluesOnly);
    state.counters["condition"] = eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
  }
}

// The whole drop (ICF paper §VII-A, 3 s from the columns to the settled pile) at stiffness
// 10^k N/m, timed once: the impacts are where the iterations are. Counters: Newton iterations
// per step (mean and max), steps that did not converge, the deepest penetration [m].
void StiffnessSweep(benchmark::State& state, ContactApproximation model) {
  const double k = std::pow(10.0, static_cast<double>(state.range(0)));
  int steps = 0, nonconverged = 0, max_iterations = 0;
  double iterations = 0, solve = 0, deepest = 0;
  for (auto _ : state) {
    World world(ClutterScene(40, true, model, k));
    for (int i = 0; i < 1500; ++i) {
      if (!world.Step()) state.SkipWithError("the run failed");
      const StepStats& s = world.last_stats();
      ++steps;
      iterations += s.iterations;
      max_iterations = std::max(max_iterations, s.iterations);
      nonconverged += !s.converged;
      solve += s.solve_ms;
      // As the task metric's max_penetration: contacts that push.
      for (const ContactResult& c : world.contacts()) {
        if (c.normal_force_W.squaredNorm() > 0) deepest = std::max(deepest, -c.signed_distance_m);
      }
    }
  }
  state.counters["stiffness"] = k;
  state.counters["iterations"] = iterations / steps;
  state.counters["max_iterations"] = max_iterations;
  state.counters["nonconverged"] = nonconverged;
  state.counters["solve_ms"] = solve / steps;
  state.counters["penetration_m"] = deepest;
}

void BM_ClutterSap(benchmark::State& s) { SettledClutter(s, ContactApproximation::kSap, true); }
void BM_ClutterLagged(benchmark::State& s) {
  SettledClutter(s, ContactApproximation::kLagged, true);
}
void BM_ClutterRegularizedLagged(benchmark::State& s) {
  SettledClutter(s, ContactApproximation::kRegularizedLagged, true);
}
void BM_ClutterSimilar(benchmark::State& s) {
  SettledClutter(s, ContactApproximation::kSimilar, true);
}
void BM_ClutterLaggedNoWalls(benchmark::State& s) {
  SettledClutter(s, ContactApproximation::kLagged, false);
}
void BM_StiffnessSweepLagged(benchmark::State& s) {
  StiffnessSweep(s, ContactApproximation::kLagged);
}
void BM_StiffnessSweepSap(benchmark::State& s) { StiffnessSweep(s, ContactApproximation::kSap); }

// Scaling with walls (the issue's 10 / 40 / 160 / 640 bodies in the 80 cm box).
BENCHMARK(BM_ClutterSap)->Arg(10)->Arg(40)->Arg(160)->Arg(640)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ClutterLagged)->Arg(10)->Arg(40)->Arg(160)->Arg(640)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ClutterRegularizedLagged)->Arg(40)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ClutterSimilar)->Arg(40)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ClutterLaggedNoWalls)->Arg(10)->Arg(40)->Arg(160)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StiffnessSweepLagged)->DenseRange(4, 11)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_StiffnessSweepSap)->DenseRange(4, 11)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace
}  // namespace contactlab
