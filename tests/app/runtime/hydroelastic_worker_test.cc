// The hydroelastic worker without the sim thread (the test thread plays it): a change is built
// off the stepping thread and swapped in only by Finish; a build for a replaced scene is
// dropped, with the changes still waiting for it; changes waiting for the same geometries
// become one build; bad changes are reported and build nothing. Waits are on counts, their
// timeouts only bound a failure.
#include "app/runtime/hydroelastic_worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "test_support/hydro_box_scene.h"
#include "test_support/pile_scene.h"
#include "test_support/runtime_waits.h"

namespace contactlab {
namespace {

constexpr int kBox = 1;  // World order: the ground's plane, then the box
constexpr double kTimeout_s = 120.0;

// The compliant box (E_h = 1e5 Pa, 1 cm mesh) on the rigid ground.
SceneSpec BoxOnPlane() { return testing::HydroBoxScene({.balls = false}); }

HydroelasticChange Resolution(double m) { return {std::nullopt, m}; }
HydroelasticChange Modulus(double Pa) { return {Pa, std::nullopt}; }

struct HydroelasticWorkerTest : ::testing::Test {
  World world{BoxOnPlane()};
  std::atomic<int> builds{0};
  std::vector<std::string> errors;  // reported on the test thread (Request, Finish)
  // Last: destroyed first, waiting for its build, whose end counts in `builds`.
  HydroelasticWorker worker{[this] { builds.fetch_add(1); },
                            [this](std::string e) { errors.push_back(std::move(e)); }};

  void WaitForBuilds(int n) {
    ASSERT_TRUE(testing::WaitFor([&] { return builds.load() == n; }, kTimeout_s));
    EXPECT_TRUE(worker.built());
  }
  const HydroelasticRepresentation& Box() const { return world.hydroelastic_representation(kBox); }
};

TEST_F(HydroelasticWorkerTest, AResultArrivesOffTheSteppingThreadAndIsSwappedInByFinish) {
  const int fine_tets = Box().num_tets();
  worker.Request(kBox, Resolution(0.02), world, 0);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(world.Step());  // the world steps meanwhile
  WaitForBuilds(1);
  EXPECT_EQ(Box().resolution_m, testing::kHydroBoxResolution_m) << "not before Finish";
  ASSERT_TRUE(worker.Finish(&world, 0));
  EXPECT_EQ(Box().resolution_m, 0.02);
  EXPECT_LT(Box().num_tets(), fine_tets);
  EXPECT_EQ(Box().modulus_Pa, testing::kHydroBoxModulus_Pa);
  EXPECT_FALSE(worker.built());
  EXPECT_FALSE(worker.Finish(&world, 0)) << "nothing else was under way";
  EXPECT_TRUE(world.Step());
  EXPECT_TRUE(errors.empty());
}

TEST_F(HydroelasticWorkerTest, ABuildForAReplacedSceneIsDroppedWithTheChangesWaitingForIt) {
  worker.Request(kBox, Resolution(0.02), world, 0);
  worker.Request(kBox, Modulus(3e5), world, 0);  // waits for the first
  WaitForBuilds(1);
  ASSERT_TRUE(worker.Finish(&world, 1));  // scene 1 has replaced scene 0
  EXPECT_EQ(Box().resolution_m, testing::kHydroBoxResolution_m);
  EXPECT_EQ(Box().modulus_Pa, testing::kHydroBoxModulus_Pa);
  EXPECT_FALSE(worker.Finish(&world, 1)) << "the waiting change was not built";
  EXPECT_EQ(builds.load(), 1);
  EXPECT_TRUE(errors.empty());
}

TEST_F(HydroelasticWorkerTest, ChangesWaitingForTheSameGeometriesBecomeOneBuild) {
  worker.Request(kBox, Resolution(0.02), world, 0);  // starts at once
  worker.Request(kBox, Modulus(2e5), world, 0);      // a slider dragged meanwhile…
  worker.Request(kBox, Resolution(0.025), world, 0);
  WaitForBuilds(1);
  ASSERT_TRUE(worker.Finish(&world, 0));
  EXPECT_EQ(Box().resolution_m, 0.02);
  EXPECT_EQ(Box().modulus_Pa, testing::kHydroBoxModulus_Pa);
  WaitForBuilds(2);  // …then its newest values, together
  ASSERT_TRUE(worker.Finish(&world, 0));
  EXPECT_EQ(Box().resolution_m, 0.025);
  EXPECT_EQ(Box().modulus_Pa, 2e5);
  EXPECT_FALSE(worker.Finish(&world, 0));
  EXPECT_EQ(builds.load(), 2);
  EXPECT_TRUE(errors.empty());
}

TEST_F(HydroelasticWorkerTest, BadChangesAreReportedAndBuildNothing) {
  worker.Request(kBox, Modulus(-5), world, 0);
  worker.Request(7, Modulus(1e6), world, 0);
  worker.Request(0, Modulus(1e6), world, 0);  // the plane: rigid
  const World points(testing::PileScene(2, 1e-3));
  worker.Request(-1, Modulus(1e6), points, 0);
  worker.Request(kBox, {}, world, 0);  // no change: nothing to do, no error
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_NE(errors[0].find("hydroelastic change rejected: geometry 'box'"), std::string::npos)
      << errors[0];
  EXPECT_NE(errors[1].find("geometry 7 out of range (the scene has 2)"), std::string::npos)
      << errors[1];
  EXPECT_NE(errors[2].find("only a hydroelastic_compliant geometry"), std::string::npos)
      << errors[2];
  EXPECT_NE(errors[3].find("no hydroelastic_compliant geometry"), std::string::npos) << errors[3];
  EXPECT_FALSE(worker.Finish(&world, 0));

  // Every compliant geometry (−1): the box. A modulus alone rescales the field: same mesh.
  const int tets = Box().num_tets();
  worker.Request(-1, Modulus(4e5), world, 0);
  WaitForBuilds(1);
  ASSERT_TRUE(worker.Finish(&world, 0));
  EXPECT_EQ(Box().modulus_Pa, 4e5);
  EXPECT_EQ(Box().resolution_m, testing::kHydroBoxResolution_m);
  EXPECT_EQ(Box().num_tets(), tets);
  EXPECT_EQ(errors.size(), 4u);
}

}  // namespace
}  // namespace contactlab
