// The main run as the timeline holds it, copied out for a fit of the scene to its own run
// (docs/contact-model.md §10, the GUI's Calibrate panel): the coordinates a reference log has, at
// the start of every recorded step, and where the run stops being one run of the scene from its
// initial state under one set of settings. The sim thread copies it (command::ExportRecordedRun)
// and hands it to the render thread (SimRuntime::TakeRecordedRun); the checks are the reader's
// (app/calibration/recorded_reference.h).
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "app/runtime/timeline.h"
#include "engine/world/world.h"

namespace contactlab {

struct RecordedRun {
  uint64_t request = 0;           // command::ExportRecordedRun::request
  uint64_t scene_generation = 0;  // Snapshot::scene_generation of the run's scene
  ContactSettings settings;       // the oldest record's
  std::vector<double> time_s;     // each record's start, oldest first
  // As the per-step log names them (docs/architecture.md §7, Log CSV): `<body>.px`, `.py`, `.pz`
  // of each floating body and `<body>.q` of each 1-dof joint, in scene order.
  std::vector<std::string> columns;
  Eigen::MatrixXd values;  // records × columns: the state each record's step started from
  // The start of the first record whose settings differ from the oldest's, and of the first whose
  // inputs differ from the scene's own (teleoperation, a joint program, the mouse spring); NaN:
  // none does.
  double settings_changed_s = NAN;
  double driven_s = NAN;
};

// Copies `timeline`, the history of `world`'s run (allocates: once per request).
RecordedRun ExportRecordedRun(const Timeline& timeline, const World& world);

}  // namespace contactlab
