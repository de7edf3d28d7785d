#include "ui/panel_refresh.h"

namespace contactlab {

bool PanelRefresh::BuildThisFrame(double now_s, double refresh_hz, bool held) {
  const bool due = refresh_hz <= 0 || held || frames_to_build_ > 0 ||
                   !(now_s - last_build_s_ < 1.0 / refresh_hz);
  if (frames_to_build_ > 0) --frames_to_build_;
  if (due) last_build_s_ = now_s;
  return due;
}

}  // namespace contactlab
