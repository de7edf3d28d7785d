// The user's mouse spring on the sim thread (docs/architecture.md §4, Picking and the mouse
// spring): the Perturbation in force, turned into the World's ExternalForce before every step
// with live input, so that the timeline records it and the ghost takes it too. Its start and
// release are logged, the release with its duration and peak force.
#pragma once

#include <functional>
#include <string>

#include "app/runtime/snapshot.h"
#include "app/teleop/perturbation.h"
#include "engine/world/world.h"

namespace contactlab {

class MouseSpring {
 public:
  // `error` reports a rejected grab, and a spring that had to stop.
  explicit MouseSpring(std::function<void(std::string)> error);

  // Grabs `next.scene_body` (or moves the spring on it); −1 releases it. A body that is not
  // dynamic, or a point that is not finite, is rejected (reported) and nothing changes.
  void Set(const Perturbation& next, World* world);
  // Lets go, if it holds a body: `world`'s external force is cleared.
  void Release(World* world);
  // Before a step with live input: `world`'s external force from its state. A spring that
  // cannot be evaluated is released (reported).
  void Apply(World* world);
  int body() const { return perturbation_.scene_body; }  // −1: none
  void Fill(const World& world, PerturbationView* view) const;

 private:
  std::function<void(std::string)> error_;
  Perturbation perturbation_;
  double start_s_ = 0, peak_N_ = 0;  // for the log line at its release
};

}  // namespace contactlab
