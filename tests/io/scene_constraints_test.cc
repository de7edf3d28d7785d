// The `constraints:` list of scene files (src/io/scene_constraints.cc): couplers, distances and
// welds parse into the scene with their bodies, frames and compliance; bad entries are one line
// naming the file, the line and the field.
#include "io/scene_constraints.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "io/scene_loader.h"

namespace contactlab {
namespace {

const std::string kBodies = R"(
gravity: [0, 0, 0]
bodies:
  - name: ground
    type: static
    shapes: [{type: half_space}]
  - name: a
    mass: 1.0
    joint: prismatic
    axis: [1, 0, 0]
    shapes: [{type: sphere, radius: 0.05}]
  - name: b
    mass: 1.0
    joint: prismatic
    axis: [0, 1, 0]
    shapes: [{type: sphere, radius: 0.05}]
  - name: c
    mass: 2.0
    position: [0, 0, 1]
    shapes: [{type: box, size: [0.1, 0.1, 0.1]}]
)";

std::string ErrorOf(const std::string& constraints) {
  try {
    ParseScene(kBodies + constraints, "bad.yaml");
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

TEST(SceneConstraints, EachKindParsesWithItsBodiesFramesAndCompliance) {
  const SceneSpec s = ParseScene(kBodies + R"(
constraints:
  - {type: coupler, name: gear, body_a: a, body_b: b, gear_ratio: -2, offset: 0.01}
  - {type: distance, body_a: world, point_a: [0, 0, 2], body_b: c, point_b: [0, 0, 0.1],
     distance: 0.9, stiffness: 1e4, relaxation_time: 0.01}
  - {type: weld, body_b: c, frame_a: {position: [0, 0, 1], rpy_deg: [0, 0, 90]},
     frame_b: {position: [0.1, 0, 0]}, rotational_stiffness: 50}
)",
                                 "good.yaml");
  ASSERT_EQ(s.couplers.size(), 1u);
  EXPECT_EQ(s.couplers[0].name, "gear");
  EXPECT_EQ(s.couplers[0].body_a, s.FindBody("a"));
  EXPECT_EQ(s.couplers[0].body_b, s.FindBody("b"));
  EXPECT_EQ(s.couplers[0].parameters.gear_ratio, -2);
  EXPECT_EQ(s.couplers[0].parameters.offset, 0.01);
  EXPECT_TRUE(std::isinf(s.couplers[0].parameters.compliance.stiffness));  // rigid by default
  ASSERT_EQ(s.distances.size(), 1u);
  EXPECT_EQ(s.distances[0].name, "distance_1");
  EXPECT_EQ(s.distances[0].body_a, -1);
  EXPECT_EQ(s.distances[0].p_AP, Eigen::Vector3d(0, 0, 2));
  EXPECT_EQ(s.distances[0].p_BQ, Eigen::Vector3d(0, 0, 0.1));
  EXPECT_EQ(s.distances[0].parameters.distance_m, 0.9);
  EXPECT_EQ(s.distances[0].parameters.compliance.stiffness, 1e4);
  EXPECT_EQ(s.distances[0].parameters.compliance.relaxation_time_s, 0.01);
  ASSERT_EQ(s.welds.size(), 1u);
  EXPECT_EQ(s.welds[0].body_a, -1);  // world by default
  EXPECT_EQ(s.welds[0].body_b, s.FindBody("c"));
  EXPECT_TRUE(s.welds[0].X_AP.linear().isApprox(
      Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix(), 1e-15));
  EXPECT_EQ(s.welds[0].X_BQ.translation(), Eigen::Vector3d(0.1, 0, 0));
  EXPECT_EQ(s.welds[0].parameters.rotation.stiffness, 50);
  EXPECT_TRUE(std::isinf(s.welds[0].parameters.translation.stiffness));
}

struct BadConstraint {
  const char* name;
  std::string yaml;
  std::string fragment;  // what the message must name
};
void PrintTo(const BadConstraint& c, std::ostream* os) { *os << c.name; }
class SceneConstraintsBadInput : public ::testing::TestWithParam<BadConstraint> {};

TEST_P(SceneConstraintsBadInput, OneLineNamingTheFileAndTheField) {
  const std::string message = ErrorOf("constraints:\n" + GetParam().yaml);
  ASSERT_FALSE(message.empty()) << "accepted bad input";
  EXPECT_NE(message.find("bad.yaml"), std::string::npos) << message;
  EXPECT_NE(message.find(GetParam().fragment), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SceneConstraintsBadInput,
    ::testing::Values(
        BadConstraint{"UnknownType", "  - {type: hinge, body_b: a}\n", "hinge"},
        BadConstraint{"UnknownBody", "  - {type: weld, body_b: nobody}\n", "nobody"},
        BadConstraint{"UnknownField", "  - {type: weld, body_b: c, gear_ratio: 2}\n", "gear_ratio"},
        BadConstraint{"MissingDistance", "  - {type: distance, body_b: c}\n", "distance"},
        BadConstraint{"NegativeDistance", "  - {type: distance, body_b: c, distance: -1}\n",
                      "distance"},
        BadConstraint{"ZeroStiffness", "  - {type: weld, body_b: c, stiffness: 0}\n", "stiffness"},
        BadConstraint{"NegativeRelaxationTime",
                      "  - {type: weld, body_b: c, relaxation_time: -1}\n", "relaxation_time"},
        BadConstraint{"NanGearRatio",
                      "  - {type: coupler, body_a: a, body_b: b, gear_ratio: .nan}\n",
                      "gear_ratio"},
        BadConstraint{"CouplerOnAFloatingBody",
                      "  - {type: coupler, name: cf, body_a: a, body_b: c}\n", "coupler 'cf'"},
        BadConstraint{"SameBodyTwice", "  - {type: weld, name: w2, body_a: c, body_b: c}\n",
                      "weld 'w2': the two bodies must differ"},
        BadConstraint{"NothingDynamic", "  - {type: weld, name: w3, body_a: ground}\n",
                      "weld 'w3': one of the two bodies must be dynamic"},
        BadConstraint{"NotAList", "  {type: weld}\n", "constraints must be a list"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace contactlab
