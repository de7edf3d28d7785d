// The mesh peg-in-hole (assets/scenes/peg_in_hole_mesh.yaml, issue 15): the round compliant peg
// (a mesh file) goes into the round chamfered hole of a block that is a non-convex rigid mesh,
// played by the default script (assets/teleop/insert_peg.csv) in the headless contactlab, with
// Lagged and SAP: inserted 2–3 cm, every step converged, and the peg met the chamfer (the hole
// is 0.8 mm off its path) as pressure patches on the block's own triangles.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "test_support/run_contactlab.h"

namespace contactlab {
namespace {

double Field(const std::string& json, const std::string& pattern) {
  std::smatch m;
  EXPECT_TRUE(std::regex_search(json, m, std::regex(pattern + " ([0-9.eE+-]+)"))) << pattern;
  return m.empty() ? -1 : std::stod(m[1]);
}

class PegInHoleMeshTest : public ::testing::TestWithParam<const char*> {};

TEST_P(PegInHoleMeshTest, ScriptedInsertionSucceeds) {
  const std::string summary =
      ::testing::TempDir() + "/peg_in_hole_mesh_" + std::string(GetParam()) + ".json";
  const testing::RunResult run =
      testing::RunContactlab("--scene peg_in_hole_mesh --headless --model " +
                             std::string(GetParam()) + " --summary " + summary);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::stringstream text;
  text << std::ifstream(summary).rdbuf();
  const std::string json = text.str();
  EXPECT_NE(json.find("\"inserted\": true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"all_converged\": true"), std::string::npos) << json;
  const double depth = Field(json, "\"insertion_depth\":");
  EXPECT_GT(depth, 0.02) << json;
  EXPECT_LT(depth, 0.03) << json;
  EXPECT_NEAR(Field(json, "\"hole_clearance\":"), 0.0005, 1e-5) << "the mesh hole's radius";
  const double max_faces = Field(json, "\"faces\": \\{\"mean\": [0-9.eE+-]+, \"max\":");
  EXPECT_GT(max_faces, 100) << json;
  std::printf("%s: depth %.4f m, %.0f faces at most; summary:\n%s\n", GetParam(), depth, max_faces,
              json.c_str());
  std::remove(summary.c_str());
}

INSTANTIATE_TEST_SUITE_P(Models, PegInHoleMeshTest, ::testing::Values("lagged", "sap"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace contactlab
