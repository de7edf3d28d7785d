// The toasts (ui/state/toast_queue.h) drawn over the scene: a small window without decoration
// at the bottom left of the free view, above the plots, newest at the bottom, errors in red.
#pragma once

#include "ui/state/toast_queue.h"

namespace contactlab {

// (x, y_bottom): the window's bottom-left corner in ImGui coordinates. Nothing when the queue
// is empty.
void ToastOverlay(const ToastQueue& toasts, float x, float y_bottom);

}  // namespace contactlab
