// The options of a small hidden window for GUI tests (under Xvfb): no vsync, so that a test's
// frames never wait for a display refresh.
#pragma once

#include "ui/window.h"

namespace contactlab::testing {

inline WindowOptions HiddenWindow() {
  WindowOptions o;
  o.width = 320;
  o.height = 240;
  o.title = "contactlab test";
  o.visible = false;
  o.vsync = false;
  return o;
}

}  // namespace contactlab::testing
