// The clock that input events are stamped with and that the devices read when the sim thread
// polls them: std::chrono::steady_clock in seconds. The window stamps each key and mouse-button
// event with it in GLFW's callback, the gamepad feed each state it reads; a device is given the
// clock as a function, so that tests drive it with one they control.
#pragma once

#include <chrono>
#include <functional>

namespace contactlab {

using EventClock = std::function<double()>;

inline double SteadyClockSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace contactlab
