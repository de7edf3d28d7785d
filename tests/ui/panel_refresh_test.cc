// When the panels are built: every frame unless slowed; slowed, at their rate, at once on input
// and for the frames after it, and every frame while something is held.
#include "ui/panel_refresh.h"

#include <gtest/gtest.h>

namespace contactlab {
namespace {

constexpr double kFrame_s = 0.05;  // 20 fps, as llvmpipe draws the clutter
constexpr double kHz = 5.0;

// Which of `frames` frames from t0 build the panels ('B') or not ('.').
std::string Builds(PanelRefresh* r, double t0, int frames, double hz, bool held = false) {
  std::string s;
  for (int i = 0; i < frames; ++i) s += r->BuildThisFrame(t0 + i * kFrame_s, hz, held) ? 'B' : '.';
  return s;
}

TEST(PanelRefresh, EveryFrameUnlessSlowed) {
  PanelRefresh r;
  EXPECT_EQ(Builds(&r, 0.0, 8, 0.0), "BBBBBBBB");
}

TEST(PanelRefresh, SlowedPanelsAreBuiltAtTheirRate) {
  PanelRefresh r;
  // The first frame builds; then one frame in four at 5 Hz and 20 fps.
  EXPECT_EQ(Builds(&r, 0.0, 12, kHz), "B...B...B...");
}

TEST(PanelRefresh, InputBuildsAtOnceAndForTheFramesAfterIt) {
  PanelRefresh r;
  EXPECT_EQ(Builds(&r, 0.0, 2, kHz), "B.");
  r.OnInput();
  const std::string after(PanelRefresh::kFramesAfterInput + 1, 'B');
  EXPECT_EQ(Builds(&r, 0.1, PanelRefresh::kFramesAfterInput + 1, kHz), after);
  // Then the rate again, counted from the last build.
  EXPECT_EQ(Builds(&r, 0.1 + (PanelRefresh::kFramesAfterInput + 1) * kFrame_s, 4, kHz), "...B");
}

TEST(PanelRefresh, HeldButtonsBuildEveryFrame) {
  PanelRefresh r;
  Builds(&r, 0.0, 1, kHz);
  EXPECT_EQ(Builds(&r, 0.05, 5, kHz, /*held=*/true), "BBBBB");
  EXPECT_EQ(Builds(&r, 0.30, 4, kHz), "...B");
}

}  // namespace
}  // namespace contactlab
