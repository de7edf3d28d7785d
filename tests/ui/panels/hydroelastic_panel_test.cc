// The hydroelastic panel through Dear ImGui, headless, clicked like a user: under a compliant
// model its E_h and mesh-resolution sliders post changes; under the rigid model, whose pairs
// are all point contacts (docs/contact-model.md §8), they are greyed out and take no click.
#include "ui/panels/hydroelastic_panel.h"

#include <gtest/gtest.h>

#include <variant>

#include "io/scene_loader.h"
#include "ui/panels/headless_panel.h"

namespace contactlab {
namespace {

// The hydroelastic changes posted by clicks down the middle of the panel, every 3 pixels.
int ChangesPosted(ContactApproximation model) {
  World world(LoadSceneFile(ResolveScenePath("hydro_box")));
  Snapshot snapshot;
  FillSnapshot(world, 0, 0, &snapshot);
  snapshot.contact_settings.approximation = model;
  UiState ui;
  UiActions actions;
  testing::HeadlessPanel panel(340, 300);
  int posted = 0;
  for (float y = 2; y < panel.height(); y += 3) {
    panel.Click(panel.width() / 2, y, [&] { HydroelasticPanel(snapshot, &ui, &actions); });
    for (const Command& c : actions.commands) {
      posted += std::holds_alternative<command::SetHydroelastic>(c);
    }
    actions.commands.clear();
  }
  return posted;
}

TEST(HydroelasticPanel, TheRigidModelGreysOutThePressureFieldSliders) {
  EXPECT_GE(ChangesPosted(ContactApproximation::kLagged), 2) << "E_h and the resolution";
  EXPECT_EQ(ChangesPosted(ContactApproximation::kDrumwrightShell), 0);
}

}  // namespace
}  // namespace contactlab
