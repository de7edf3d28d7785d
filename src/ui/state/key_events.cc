#include "ui/state/key_events.h"

#include <GLFW/glfw3.h>

namespace contactlab {

void KeyEventQueue::Push(int glfw_key, int glfw_action, double t_s, int64_t poll) {
  if (glfw_key == GLFW_KEY_UNKNOWN) return;
  events_.push_back({glfw_key, glfw_action != GLFW_RELEASE, t_s, poll});
}

}  // namespace contactlab
