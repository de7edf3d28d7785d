#include "app/runtime/recorded_run.h"

#include <spdlog/fmt/fmt.h>

#include "app/runtime/step_inputs.h"

namespace contactlab {
namespace {

// A column of the copy: its name and the q entry it reads.
struct Coordinate {
  std::string name;
  int q_index = 0;
};

// The coordinates calibration fits (app/calibration/calibration.cc, AddBodyTargets): a floating
// body's position (the first three of its seven q), a 1-dof joint's q.
std::vector<Coordinate> FittedCoordinates(const World& world) {
  std::vector<Coordinate> coordinates;
  const Multibody& mb = world.multibody();
  for (int b = 0; b < world.model().num_bodies(); ++b) {
    const int m = world.multibody_index(b);
    if (m < 0) continue;
    const std::string& name = world.scene().bodies[b].body.name;
    int start = mb.position_start(m);
    if (mb.joint_num_positions(m) == 7) {
      for (const char* axis : {"px", "py", "pz"}) {
        coordinates.push_back({fmt::format("{}.{}", name, axis), start++});
      }
    } else if (mb.joint_num_positions(m) == 1) {
      coordinates.push_back({name + ".q", start});
    }
  }
  return coordinates;
}

bool SamePd(const std::optional<JointPdSpec>& a, const std::optional<JointPdSpec>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || (a->kp == b->kp && a->kd == b->kd && a->effort_limit == b->effort_limit &&
                a->q_desired == b->q_desired && a->v_desired == b->v_desired &&
                a->feedforward == b->feedforward);
}

// Whether a step's inputs are the scene's own (World::Reset's actuation, no external force): a
// run driven otherwise cannot be replayed from the scene alone.
bool SceneOwnInputs(const StepInputs& inputs, const SceneSpec& scene) {
  if (inputs.external_force.scene_body >= 0) return false;
  for (size_t b = 0; b < scene.bodies.size() && b < inputs.pd.size(); ++b) {
    if (!SamePd(inputs.pd[b], scene.bodies[b].pd)) return false;
  }
  return true;
}

}  // namespace

RecordedRun ExportRecordedRun(const Timeline& timeline, const World& world) {
  RecordedRun run;
  const std::vector<Coordinate> coordinates = FittedCoordinates(world);
  const int n = timeline.size();
  for (const Coordinate& c : coordinates) run.columns.push_back(c.name);
  run.values.resize(n, static_cast<Eigen::Index>(coordinates.size()));
  run.time_s.resize(n);
  if (n > 0) run.settings = timeline.settings(0);
  StepInputs inputs;
  for (int i = 0; i < n; ++i) {
    run.time_s[i] = timeline.time_s(i);
    const auto q = timeline.q(i);
    for (size_t k = 0; k < coordinates.size(); ++k) run.values(i, k) = q[coordinates[k].q_index];
    if (std::isnan(run.settings_changed_s) && !(timeline.settings(i) == run.settings)) {
      run.settings_changed_s = run.time_s[i];
    }
    timeline.Inputs(i, &inputs);
    if (std::isnan(run.driven_s) && !SceneOwnInputs(inputs, world.scene())) {
      run.driven_s = run.time_s[i];
    }
  }
  return run;
}

}  // namespace contactlab
