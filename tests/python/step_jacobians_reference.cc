// The C++ side of the Python module's bit-for-bit check of its step derivatives
// (tests/python/step_derivatives_test.py, class MatchesTheEngine): the same cases, loaded as the
// module loads a scene, through StepDerivatives and TrajectorySensitivity directly. Prints each
// array as a line `CASE.NAME ROWS COLS x…`, its entries row by row in C's %a (exact), for the test
// to compare bit for bit. The cases here and there must stay the same.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/world/step_derivatives.h"
#include "engine/world/trajectory_sensitivity.h"
#include "io/scene_loader.h"

namespace contactlab {
namespace {

void Print(const std::string& name, const Eigen::MatrixXd& m) {
  std::printf("%s %td %td", name.c_str(), m.rows(), m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    for (Eigen::Index j = 0; j < m.cols(); ++j) std::printf(" %a", m(i, j));
  }
  std::printf("\n");
}

// As the module's World(scene) loads it.
std::unique_ptr<World> LoadWorld(const std::string& scene) {
  return std::make_unique<World>(LoadSceneFile(ResolveScenePath(scene)));
}

void Step(World* world, int n) {
  for (int i = 0; i < n; ++i) {
    if (!world->Step()) throw std::runtime_error(world->failure());
  }
}

void PrintStepJacobians(const std::string& name, World* world,
                        std::vector<ContactParameter> parameters) {
  StepDerivatives derivatives(world->model(), std::move(parameters));
  if (!derivatives.Step(world)) throw std::runtime_error(derivatives.failure());
  const StepJacobians J = derivatives.Jacobians();
  Print(name + ".dq_dq0", J.dq1_dq0);
  Print(name + ".dq_dv0", J.dq1_dv0);
  Print(name + ".dq_du", J.dq1_du);
  Print(name + ".dq_dp", J.dq1_dp);
  Print(name + ".dv_dq0", J.dv1_dq0);
  Print(name + ".dv_dv0", J.dv1_dv0);
  Print(name + ".dv_du", J.dv1_du);
  Print(name + ".dv_dp", J.dv1_dp);
}

void Run() {
  // The box sliding down the incline (Lagged, μ = 0.2 < tan 20°): a step at 20 ms, then S over
  // the 30 steps after it.
  std::unique_ptr<World> incline = LoadWorld("incline");
  ContactOverrides overrides;
  overrides.friction = 0.2;
  overrides.hunt_crossley_s_per_m = 50;
  incline->SetOverrides(overrides);
  Step(incline.get(), 20);
  PrintStepJacobians("incline", incline.get(),
                     {ContactParameter::kFriction, ContactParameter::kHuntCrossley,
                      ContactParameter::kStictionTolerance});
  TrajectorySensitivity sensitivity(incline->model(), {ContactParameter::kFriction});
  for (int n = 0; n < 30; ++n) {
    if (!sensitivity.Step(incline.get())) throw std::runtime_error(sensitivity.failure());
  }
  Print("incline.sensitivity.dq_dp", sensitivity.dq_dp());
  Print("incline.sensitivity.dv_dp", sensitivity.dv_dp());

  // The Panda's gripper round the golf ball: its eight PD joints (the arm's seven and the
  // leading finger) make the targets' blocks.
  std::unique_ptr<World> grasp = LoadWorld("grasp_ball");
  overrides = ContactOverrides();
  overrides.friction = 1;
  grasp->SetOverrides(overrides);
  Step(grasp.get(), 5);
  PrintStepJacobians("grasp_ball", grasp.get(), {ContactParameter::kFriction});
}

}  // namespace
}  // namespace contactlab

int main() {
  // The engine's log lines (a step that did not converge) to stderr, as the module sends them:
  // stdout is the arrays'.
  spdlog::set_default_logger(spdlog::stderr_color_mt("reference"));
  contactlab::Run();
  return 0;
}
