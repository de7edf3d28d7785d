// Helpers shared by the physics-validation tests: load a built-in scene, run it.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "app/teleop/teleop_controller.h"
#include "engine/world/world.h"
#include "io/scene_loader.h"
#include "test_support/approximations.h"  // prints a ContactApproximation by its name
#include "test_support/build_paths.h"

namespace contactlab::testing {

inline SceneSpec LoadBuiltinScene(const std::string& name) {
  return LoadSceneFile(contactlab::testing::SourceDirectory() + "/assets/scenes/" + name + ".yaml");
}

// Steps until `duration_s`, calling `observe` after every step. Returns the number of steps
// that did not converge; fails the test on an unrecoverable step.
inline int RunFor(World* world, double duration_s,
                  const std::function<void(const World&)>& observe = {}) {
  int nonconverged = 0;
  const int steps = static_cast<int>(std::llround(duration_s / world->dt()));
  for (int i = 0; i < steps; ++i) {
    if (!world->Step()) return -1;
    if (!world->last_stats().converged) ++nonconverged;
    if (observe) observe(*world);
  }
  return nonconverged;
}

// Steps `steps` times with the scene's teleop controller holding still, gripper closed (the
// default script's first rows): the Panda keeps the peg in its grasp. Returns false (the test
// fails) on a failed step.
inline ::testing::AssertionResult HoldGrasp(World* world, TeleopController* teleop, int steps) {
  TeleopCommand hold;
  hold.grip = 1;
  for (int i = 0; i < steps; ++i) {
    hold.t = world->time();
    teleop->Update(hold, world);
    if (!world->Step()) return ::testing::AssertionFailure() << world->failure();
  }
  return ::testing::AssertionSuccess();
}

}  // namespace contactlab::testing
