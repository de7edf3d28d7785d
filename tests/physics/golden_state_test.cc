// Determinism guard for refactoring: the exact state (the bit patterns of q and v) after N steps
// of the built-in scenes, under every contact approximation, hashed and compared with the value
// recorded when the guard was written. A change that moves or renames code keeps every hash; a
// change that must alter results (a different summation order, say) updates them in a commit of
// its own that says why. On a mismatch the message prints the new hash to paste in.
//
// Every scene runs with the tree-block factorization, the default (kAuto) for all of them: it is
// our own code, the same on every x86-64 machine, whereas CHOLMOD's supernodal path (which kAuto
// takes only for dense fronts) calls BLAS, whose kernels and so the last bits depend on the
// processor.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "app/headless/headless_runner.h"
#include "app/teleop/teleop_controller.h"
#include "input/input_spec.h"
#include "physics_test_util.h"

namespace contactlab {
namespace {

// FNV-1a over the bytes of the doubles: any change of any bit of the state changes the hash.
uint64_t HashState(const World& world) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](const Eigen::VectorXd& x) {
    for (int i = 0; i < x.size(); ++i) {
      uint64_t bits;
      std::memcpy(&bits, &x[i], sizeof bits);
      for (int byte = 0; byte < 8; ++byte) {
        h ^= (bits >> (8 * byte)) & 0xff;
        h *= 1099511628211ull;
      }
    }
  };
  mix(world.q());
  mix(world.v());
  return h;
}

struct GoldenCase {
  std::string scene;
  ContactApproximation approximation;
  int steps;
  uint64_t hash;
};

void PrintTo(const GoldenCase& c, std::ostream* os) {
  *os << c.scene << "/" << ContactApproximationName(c.approximation);
}

// Runs the case as `contactlab --headless` does: through RunHeadless, with the scene's scripted
// teleoperation replay for a scene with a robot arm.
uint64_t RunCase(const GoldenCase& c) {
  SceneSpec scene = testing::LoadBuiltinScene(c.scene);
  ContactOverrides o;
  o.approximation = c.approximation;
  ApplyOverrides(o, &scene.contact_settings);
  World world(scene);
  ConvexSolverParameters solver = world.solver().parameters();
  solver.linear_solver = LinearSolverType::kBlockSparse;
  world.solver().set_parameters(solver);

  HeadlessOptions options;
  options.duration_s = c.steps * scene.contact_settings.dt_s;
  std::unique_ptr<TeleopController> teleop;
  InputDevices devices;
  if (const auto config = FindTeleopConfig(world.scene())) {
    std::string error;
    const std::string script = world.scene().teleop.script_path;
    EXPECT_FALSE(script.empty());
    EXPECT_TRUE(CreateInputDevices("replay:" + script, &devices, &error)) << error;
    teleop = std::make_unique<TeleopController>(world, *config);
    options.teleop = teleop.get();
    options.input = devices.active.get();
  }
  const HeadlessResult r = RunHeadless(&world, options);
  EXPECT_FALSE(r.failed);
  EXPECT_EQ(r.steps, c.steps);
  return HashState(world);
}

class GoldenStateTest : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(GoldenStateTest, StateBitsUnchanged) {
  const GoldenCase& c = GetParam();
  const uint64_t hash = RunCase(c);
  EXPECT_EQ(hash, c.hash) << "new hash for " << c.scene << "/"
                          << ContactApproximationName(c.approximation) << ": 0x" << std::hex << hash
                          << "ull";
}

constexpr auto kSap = ContactApproximation::kSap;
constexpr auto kLagged = ContactApproximation::kLagged;
constexpr auto kSimilar = ContactApproximation::kSimilar;

// Steps: clutter 1.2 s (the pile forms), conveyor 2 s (stick and slip on the belt), falling
// sphere 0.4 s (slide to roll), hydro_box 0.5 s (landing and rest), peg_in_hole 3 s (the grasp,
// the move over the hole and the start of the insertion).
INSTANTIATE_TEST_SUITE_P(
    Scenes, GoldenStateTest,
    ::testing::Values(GoldenCase{"clutter", kSap, 600, 0x374ebcae785d5f74ull},
                      GoldenCase{"clutter", kLagged, 600, 0xcdca2c00b3006448ull},
                      GoldenCase{"clutter", kSimilar, 600, 0x3d2bde1f036470d2ull},
                      GoldenCase{"conveyor", kSap, 200, 0x23d30a5817d57dceull},
                      GoldenCase{"conveyor", kLagged, 200, 0x22ed8456ad40fb2cull},
                      GoldenCase{"conveyor", kSimilar, 200, 0x87f74effb93415dcull},
                      GoldenCase{"falling_sphere", kSap, 800, 0x4a083b03f92f1d82ull},
                      GoldenCase{"falling_sphere", kLagged, 800, 0x4153370773ae4093ull},
                      GoldenCase{"falling_sphere", kSimilar, 800, 0xb147023a18ea11dcull},
                      GoldenCase{"hydro_box", kSap, 500, 0x7f0a9bc6e70342d7ull},
                      GoldenCase{"hydro_box", kLagged, 500, 0xec44f86ec71a2ab8ull},
                      GoldenCase{"hydro_box", kSimilar, 500, 0x47f160fe9a5e9b53ull},
                      GoldenCase{"peg_in_hole", kSap, 3000, 0x1b97ed06649e9a57ull},
                      GoldenCase{"peg_in_hole", kLagged, 3000, 0x1f4b2594f6b03bf7ull},
                      GoldenCase{"peg_in_hole", kSimilar, 3000, 0xd3f64c3da22ac861ull}));

}  // namespace
}  // namespace contactlab
