// Live hydroelastic parameters through the real-time loop (command::SetHydroelastic): the new
// mesh is built on a worker thread while the sim keeps stepping, arrives between steps and is
// reported by the snapshots; bad values are rejected through the error path with nothing
// changed; a build for a scene that has since been replaced is dropped.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <string>
#include <thread>

#include "app/runtime/sim_runtime.h"
#include "test_support/hydro_box_scene.h"
#include "test_support/runtime_waits.h"

namespace contactlab {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

bool WaitFor(const std::function<bool()>& done, double timeout_s) {
  return testing::WaitFor(done, timeout_s);
}

constexpr int kBoxGeometry = 1;  // World order: the ground's plane, then the box
constexpr double kCoarse_m = testing::kHydroBoxResolution_m;

// hydro_box without its balls: the compliant box (10 × 10 × 5 cm, 1 kg, E_h = 1e5 Pa, 1 cm
// mesh) resting on the rigid ground through one pressure-field patch over its bottom face,
// started at about its rest depth.
SceneSpec BoxOnPlane() {
  return testing::HydroBoxScene({.balls = false, .box_z_m = 0.025 - 2.5e-4});
}

const HydroelasticProperties& BoxProperties(const Snapshot& s) {
  return s.geometry_hydroelastic[kBoxGeometry];  // in force: the scene's own stays as loaded
}

TEST(HydroelasticRuntime, FinerMeshArrivesWhileTheSimKeepsStepping) {
  SimRuntime rt(BoxOnPlane(), 0.0);  // unpaced: steps as fast as it can
  rt.Start();
  ASSERT_TRUE(WaitFor([&] { return rt.Latest()->step_index > 20; }, 120));
  const int coarse_faces = rt.Latest()->stats.num_hydroelastic_faces;
  ASSERT_GT(coarse_faces, 0);

  // 3 mm: ~2e5 tets (a few hundred ms to mesh); the sim must not wait for it.
  std::vector<PlotSample> samples;
  rt.DrainPlotSamples(&samples);
  samples.clear();
  const Clock::time_point posted = Clock::now();
  rt.Post(command::SetHydroelastic{kBoxGeometry, std::nullopt, 0.003});
  ASSERT_TRUE(WaitFor([&] { return rt.commands_processed() == 1; }, 120));
  const uint64_t step_at_command = rt.Latest()->step_index;
  ASSERT_TRUE(WaitFor([&] { return BoxProperties(*rt.Latest()).resolution_m == 0.003; }, 60));
  const double build_s = Since(posted);
  const std::shared_ptr<const Snapshot> arrived = rt.Latest();
  rt.DrainPlotSamples(&samples);
  EXPECT_EQ(BoxProperties(*arrived).modulus_Pa, 1e5);  // unchanged
  // The sim stepped all along: many steps while the mesh was built, none of them waiting for it
  // (each took far less than the build).
  EXPECT_GT(arrived->step_index, step_at_command + 20)
      << "build " << build_s << " s; steps during it: " << arrived->step_index - step_at_command;
  ASSERT_FALSE(samples.empty());
  double longest_step_ms = 0;
  for (const PlotSample& p : samples) longest_step_ms = std::max(longest_step_ms, p.step_ms);
  EXPECT_LT(longest_step_ms, 0.5 * build_s * 1e3) << "build " << build_s << " s";

  // The finer mesh cuts the bottom face into many more faces (~ (10/3)² as many tets meet it).
  ASSERT_TRUE(WaitFor([&] { return rt.Latest()->step_index > arrived->step_index + 5; }, 120));
  const int fine_faces = rt.Latest()->stats.num_hydroelastic_faces;
  EXPECT_GT(fine_faces, 4 * coarse_faces) << coarse_faces << " → " << fine_faces;

  // E_h alone: no re-meshing; the resolution stays.
  rt.Post(command::SetHydroelastic{-1, 4e5, std::nullopt});
  ASSERT_TRUE(WaitFor([&] { return BoxProperties(*rt.Latest()).modulus_Pa == 4e5; }, 120));
  EXPECT_EQ(BoxProperties(*rt.Latest()).resolution_m, 0.003);
  rt.Stop();
  EXPECT_TRUE(rt.TakeErrors().empty());
}

TEST(HydroelasticRuntime, BadValuesAreRejectedAndNothingChanges) {
  SimRuntime rt(BoxOnPlane(), 1.0);
  rt.Post(command::Pause{});
  rt.Start();
  rt.Post(command::SetHydroelastic{kBoxGeometry, -5.0, std::nullopt});
  rt.Post(command::SetHydroelastic{kBoxGeometry, std::nullopt, 1e-4});  // ~1e9 tets
  rt.Post(command::SetHydroelastic{kBoxGeometry, std::nullopt, 0.5});   // coarser than the box
  rt.Post(command::SetHydroelastic{7, 1e6, std::nullopt});
  rt.Post(command::SetHydroelastic{0, 1e6, std::nullopt});  // the plane: rigid
  ASSERT_TRUE(WaitFor([&] { return rt.commands_processed() == 6; }, 120));
  const std::vector<std::string> errors = rt.TakeErrors();
  ASSERT_EQ(errors.size(), 5u);
  EXPECT_NE(errors[0].find("geometry 'box': the hydroelastic modulus must be positive"),
            std::string::npos)
      << errors[0];
  EXPECT_NE(errors[1].find("too fine"), std::string::npos) << errors[1];
  EXPECT_NE(errors[2].find("coarser than the shape"), std::string::npos) << errors[2];
  EXPECT_NE(errors[3].find("geometry 7 out of range"), std::string::npos) << errors[3];
  EXPECT_NE(errors[4].find("only a hydroelastic_compliant geometry"), std::string::npos)
      << errors[4];
  for (const std::string& e : errors) EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  // A good change after the bad ones still goes through, and while paused it is published
  // without a step.
  rt.Post(command::SetHydroelastic{kBoxGeometry, 2e5, std::nullopt});
  ASSERT_TRUE(WaitFor([&] { return BoxProperties(*rt.Latest()).modulus_Pa == 2e5; }, 120));
  EXPECT_EQ(rt.Latest()->step_index, 0u);
  EXPECT_EQ(BoxProperties(*rt.Latest()).resolution_m, kCoarse_m);
  rt.Stop();
}

TEST(HydroelasticRuntime, ABuildForAReplacedSceneIsDropped) {
  SimRuntime rt(BoxOnPlane(), 0.0);
  rt.Start();
  rt.Post(command::SetHydroelastic{kBoxGeometry, std::nullopt, 0.004});
  rt.Post(command::LoadScene{BoxOnPlane()});  // while the mesh is being built
  // Builds run one at a time in order: once this later change is in, the first has finished.
  rt.Post(command::SetHydroelastic{kBoxGeometry, 3e5, std::nullopt});
  ASSERT_TRUE(WaitFor([&] { return BoxProperties(*rt.Latest()).modulus_Pa == 3e5; }, 60));
  EXPECT_EQ(rt.Latest()->scene_generation, 1u);
  EXPECT_EQ(BoxProperties(*rt.Latest()).resolution_m, kCoarse_m);  // the old scene's change
  rt.Stop();
  EXPECT_TRUE(rt.TakeErrors().empty());
}

}  // namespace
}  // namespace contactlab
