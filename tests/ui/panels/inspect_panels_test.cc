// Where the Inspect window goes: the right-hand column, under the camera inset, down to the
// plots (the window's frames: application_test.cc, ApplicationInspect).
#include "ui/panels/inspect_panels.h"

#include <gtest/gtest.h>

namespace contactlab {
namespace {

TEST(InspectPanels, TheWindowGoesUnderTheInsetAsWideAsItDownToThePlots) {
  const InsetRect inset = ComputeInsetRect(1440, 900, 0.3f);  // 360 × 270 at the top right
  const InspectPlacement p = PlaceInspectWindow(1440, 900, 324, inset);
  EXPECT_FLOAT_EQ(p.x, inset.x);
  EXPECT_FLOAT_EQ(p.w, inset.w);
  EXPECT_FLOAT_EQ(p.y, inset.y + inset.h + 10);
  EXPECT_FLOAT_EQ(p.y + p.h, 900 - 324 - 10);  // the plots' top, less a margin
  // A small inset: not narrower than 320 pixels, still right-aligned.
  const InsetRect small = ComputeInsetRect(1280, 720, 0.15f);
  const InspectPlacement q = PlaceInspectWindow(1280, 720, 260, small);
  EXPECT_FLOAT_EQ(q.w, 320.0f);
  EXPECT_FLOAT_EQ(q.x + q.w, small.x + small.w);
  // No inset: at the top of the column.
  const InspectPlacement r = PlaceInspectWindow(1440, 900, 324, std::nullopt);
  EXPECT_FLOAT_EQ(r.y, 10.0f);
  EXPECT_FLOAT_EQ(r.x + r.w, 1430.0f);
  // An inset reaching down to the plots: a usable height all the same.
  const InspectPlacement t = PlaceInspectWindow(1280, 720, 260, ComputeInsetRect(1280, 720, 0.6f));
  EXPECT_GE(t.h, 120.0f);
}

}  // namespace
}  // namespace contactlab
