// A fit of the scene to its own run (the GUI's Calibrate panel, docs/contact-model.md §10): the
// main run's timeline, copied by the sim thread (app/runtime/recorded_run.h), as a reference log
// on the scene's time grid. Calibrate replays the scene from its initial state, without inputs,
// under one set of settings, on fixed steps; a run that was not that cannot be its reference.
#pragma once

#include "app/calibration/reference_log.h"
#include "app/runtime/recorded_run.h"

namespace contactlab {

// The source named in the reference's messages and the panel.
inline constexpr const char* kRecordedRunSource = "the run's timeline";

// One row per record after the first (t = 0, the scene's initial state, is no row: the fit
// compares the state after each step), its time the record's start. Throws std::invalid_argument
// with one line saying why the run cannot be a reference: no step recorded, a history that does
// not start at t = 0 (the timeline keeps only the newest steps), error control or a step off the δt
// grid, settings changed during the run, inputs that drove it, no coordinate to fit.
ReferenceLog ReferenceFromRecordedRun(const RecordedRun& run);

}  // namespace contactlab
