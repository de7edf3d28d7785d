// An immutable picture of the world after a step: what the render thread draws and the UI
// shows (architecture.md, Threads). Filled by the sim thread into preallocated storage.
#pragma once

#include <Eigen/Geometry>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/world/world.h"

namespace contactlab {

struct Snapshot {
  // The scene this snapshot belongs to (shapes, names, initial values: immutable, shared).
  // scene_generation changes whenever the scene is replaced, so a renderer can rebuild meshes.
  std::shared_ptr<const SceneSpec> scene;
  uint64_t scene_generation = 0;
  uint64_t step_index = 0;  // steps since the last reset
  double time_s = 0;

  std::vector<Eigen::Isometry3d> body_poses;      // per scene body, X_WB
  std::vector<Eigen::Isometry3d> geometry_poses;  // per geometry (World order), X_WG
  std::vector<int> geometry_body;                 // scene body of each geometry
  std::vector<const GeometrySpec*> geometries;    // into *scene (valid while scene is held)
  std::vector<ContactResult> contacts;
  std::vector<Eigen::Vector3d> net_normal_force;    // per scene body [N]
  std::vector<Eigen::Vector3d> net_friction_force;  // per scene body [N]
  StepStats stats;
  bool all_converged_since_reset = true;

  // The parameters in force for the step that produced this snapshot (so a test can see that
  // a UI change reached the solver).
  ContactApproximation approximation = ContactApproximation::kLagged;
  double dt_s = 0;
  double stiction_tolerance_m_per_s = 0;
  ContactOverrides overrides;

  // Runtime state (filled by the runtime, not by FillSnapshot).
  uint64_t run = 0;  // resets and scene loads since the runtime started (PlotSample::run)
  std::chrono::steady_clock::time_point published{};  // when the runtime published it
  bool paused = false;
  double target_realtime_factor = 1.0;  // 0: as fast as possible
  double achieved_realtime_factor = 0;  // measured over the last ~0.5 s of wall time
};

// Copies the world's state into `s` without allocating once `s` has held a scene this size.
// `scene` must be the SceneSpec the world was built from, shared.
void FillSnapshot(const World& world, const std::shared_ptr<const SceneSpec>& scene,
                  uint64_t scene_generation, uint64_t step_index, Snapshot* s);

}  // namespace contactlab
