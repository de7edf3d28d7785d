// Scene-specific outcomes for the summary's "task" object (docs/architecture.md): each built-in
// scene that has a known answer measures it here while the run goes on.
#pragma once

#include <memory>

#include "app/headless/json_writer.h"
#include "engine/world/world.h"

namespace contactlab {

class TaskMonitor {
 public:
  virtual ~TaskMonitor() = default;
  // Called after every step.
  virtual void Observe(const World& world) = 0;
  // Writes the fields of the "task" object.
  virtual void Report(JsonWriter* json) const = 0;
  // Whether the task has failed for good (a held object dropped: grasp_failure.h); a run with
  // --stop-on-failure ends there.
  virtual bool Failed() const { return false; }
};

// The monitor for a scene, chosen by scene name; a generic one (max penetration, final
// kinetic energy) for scenes without a specific outcome. A scene that declares `held_object` adds
// the held object's creep to it (HeldObjectMonitor).
std::unique_ptr<TaskMonitor> MakeTaskMonitor(const World& world);

}  // namespace contactlab
