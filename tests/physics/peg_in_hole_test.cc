// Peg-in-hole (issue 4): the scripted insertion assets/teleop/insert_peg.csv, replayed through
// the teleop controller and the headless runner, inserts the peg with Lagged and SAP at
// δt = 1 ms and 5 ms; with a 0.5 mm clearance and the chamfer.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "app/headless/headless_runner.h"
#include "app/teleop/teleop_controller.h"
#include "input/input_device.h"
#include "physics_test_util.h"

namespace contactlab {
namespace {

// The replay CSV (input/teleop_csv.h format), linearly interpolated like ReplayDevice; kept
// local because contactlab_app does not link contactlab_input yet.
class CsvScript : public InputDevice {
 public:
  explicit CsvScript(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      std::vector<double> x;
      std::stringstream ss(line);
      for (std::string field; std::getline(ss, field, ',');) x.push_back(std::stod(field));
      if (x.size() != 8) continue;
      TeleopCommand c;
      c.t = x[0];
      c.linear_m_per_s = Eigen::Vector3d(x[1], x[2], x[3]);
      c.angular_rad_per_s = Eigen::Vector3d(x[4], x[5], x[6]);
      c.grip = x[7];
      rows_.push_back(c);
    }
  }
  TeleopCommand Poll(double t) override {
    if (rows_.empty()) return {};
    TeleopCommand c = rows_.back();
    if (t <= rows_.front().t || t >= rows_.back().t) {
      c = t <= rows_.front().t ? rows_.front() : rows_.back();
      c.linear_m_per_s.setZero();
      c.angular_rad_per_s.setZero();
    } else {
      size_t i = 1;
      while (rows_[i].t < t) ++i;
      const TeleopCommand &a = rows_[i - 1], &b = rows_[i];
      const double s = (t - a.t) / (b.t - a.t);
      c.linear_m_per_s = (1 - s) * a.linear_m_per_s + s * b.linear_m_per_s;
      c.angular_rad_per_s = (1 - s) * a.angular_rad_per_s + s * b.angular_rad_per_s;
      c.grip = (1 - s) * a.grip + s * b.grip;
    }
    c.t = t;
    return c;
  }
  std::string Status() const override { return "csv script"; }
  std::string Name() const override { return "replay"; }
  size_t size() const { return rows_.size(); }

 private:
  std::vector<TeleopCommand> rows_;
};

struct InsertionCase {
  ContactApproximation model;
  double dt;
};

// gtest prints a case by its fields (its bytes include padding, which differs from build to
// build and would change ctest's names).
void PrintTo(const InsertionCase& c, std::ostream* os) {
  *os << ContactApproximationName(c.model) << ", dt " << c.dt;
}

class PegInHoleTest : public ::testing::TestWithParam<InsertionCase> {};

TEST_P(PegInHoleTest, ScriptedInsertionSucceeds) {
  SceneSpec scene = testing::LoadBuiltinScene("peg_in_hole");
  ContactOverrides o;
  o.approximation = GetParam().model;
  o.dt_s = GetParam().dt;
  ApplyOverrides(o, &scene.contact_settings);
  World world(scene);
  const std::optional<TeleopConfig> config = FindTeleopConfig(scene);
  ASSERT_TRUE(config);
  TeleopController teleop(world, *config);
  const std::string script = scene.teleop.script_path;
  ASSERT_FALSE(script.empty());
  CsvScript input(script);
  ASSERT_GE(input.size(), 2u);

  const std::string summary = ::testing::TempDir() + "/peg_in_hole_summary_" +
                              ContactApproximationName(GetParam().model) + "_" +
                              std::to_string(static_cast<int>(GetParam().dt * 1e4)) + ".json";
  HeadlessOptions options;
  options.duration_s = scene.duration_s;
  options.summary_path = summary;
  options.teleop = &teleop;
  options.input = &input;
  const HeadlessResult result = RunHeadless(&world, options);
  EXPECT_FALSE(result.failed);
  EXPECT_EQ(teleop.state().ik_failures, 0);

  std::ifstream in(summary);
  std::stringstream text;
  text << in.rdbuf();
  const std::string json = text.str();
  EXPECT_NE(json.find("\"inserted\": true"), std::string::npos) << json;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(json, m, std::regex("\"insertion_depth\": ([0-9.eE+-]+)"))) << json;
  const double depth = std::stod(m[1]);
  // The script inserts 2.5 cm; the grasp may give a little.
  EXPECT_GT(depth, 0.02) << json;
  EXPECT_LT(depth, 0.03) << json;
  // The pads grip the peg with pressure patches all along (compliant pads, rigid-mesh peg):
  // every step has surfaces, and their sliver polygons are merged into fewer constraints.
  ASSERT_TRUE(std::regex_search(
      json, m,
      std::regex("\"hydroelastic\": \\{\"surface_ms\": \\{\"mean\": ([0-9.eE+-]+).*\"faces\": "
                 "\\{\"mean\": ([0-9.eE+-]+).*\"face_constraints\": \\{\"mean\": ([0-9.eE+-]+)")))
      << json;
  EXPECT_GT(std::stod(m[1]), 0.0);
  EXPECT_GT(std::stod(m[3]), 8.0) << "at least the big polygons' fans of two patches";
  EXPECT_LT(std::stod(m[3]), std::stod(m[2]));
  std::printf("%s dt=%g: depth %.4f m, wall %.2f s for %.1f s; summary:\n%s\n",
              ContactApproximationName(GetParam().model), GetParam().dt, depth, result.wall_time_s,
              world.time(), json.c_str());
  std::remove(summary.c_str());
}

INSTANTIATE_TEST_SUITE_P(ModelsAndSteps, PegInHoleTest,
                         ::testing::Values(InsertionCase{ContactApproximation::kLagged, 1e-3},
                                           InsertionCase{ContactApproximation::kLagged, 5e-3},
                                           InsertionCase{ContactApproximation::kSap, 1e-3},
                                           InsertionCase{ContactApproximation::kSap, 5e-3}),
                         [](const ::testing::TestParamInfo<InsertionCase>& info) {
                           return std::string(ContactApproximationName(info.param.model)) + "_dt" +
                                  std::to_string(
                                      static_cast<int>(std::lround(info.param.dt * 1e3))) +
                                  "ms";
                         });

// The chamfer (3 mm × 45°) guides a peg that arrives off the hole's axis: with the block moved
// (1.0, 1.2) mm sideways (1.56 mm, 3× the clearance) the same script still inserts the peg
// (it arrives tilted and pushed up in the grasp, but in).
TEST(PegInHoleChamferTest, GuidesAMisalignedPeg) {
  SceneSpec scene = testing::LoadBuiltinScene("peg_in_hole");
  const int block = scene.FindBody("block");
  ASSERT_GE(block, 0);
  scene.bodies[block].initial_pose.translation() += Eigen::Vector3d(0.001, 0.0012, 0);
  World world(scene);
  TeleopController teleop(world, *FindTeleopConfig(scene));
  CsvScript input(scene.teleop.script_path);
  const std::string summary = ::testing::TempDir() + "/peg_in_hole_misaligned.json";
  HeadlessOptions options;
  options.duration_s = scene.duration_s;
  options.summary_path = summary;
  options.teleop = &teleop;
  options.input = &input;
  ASSERT_FALSE(RunHeadless(&world, options).failed);
  std::ifstream in(summary);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("\"inserted\": true"), std::string::npos) << text.str();
  std::printf("misaligned by 1.56 mm: %s\n", text.str().c_str());
  std::remove(summary.c_str());
}

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

// A floor under the scene: the peg, let go away from the table and the arm (0.3 m up), lands
// on it and comes to rest lying or standing on a face (its COM 1 cm or 4 cm above the floor),
// instead of falling forever.
TEST(PegInHoleFloor, ADroppedPegLandsOnTheFloorAndRests) {
  const SceneSpec scene = testing::LoadBuiltinScene("peg_in_hole");
  World world(scene);
  const int peg = scene.FindBody("peg");
  const int mb = world.multibody_index(peg);
  Eigen::VectorXd q = world.q();
  q.segment<3>(world.multibody().position_start(mb)) = Eigen::Vector3d(0.3, 0.6, 0.3);
  world.SetState(q, Eigen::VectorXd::Zero(world.v().size()), 0.0);
  for (int i = 0; i < 3000; ++i) ASSERT_TRUE(world.Step()) << world.failure();
  const double z = world.BodyPose(peg).translation().z();
  const bool lying = std::abs(z - 0.01) < 5e-4, standing = std::abs(z - 0.04) < 5e-4;
  EXPECT_TRUE(lying || standing) << "z = " << z;
  EXPECT_LT(world.BodyVelocity(peg).norm(), 1e-2);
}

}  // namespace
}  // namespace contactlab
