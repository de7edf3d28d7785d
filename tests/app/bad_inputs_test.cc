// Inputs that once crashed, hung or misled contactlab (tests/data/bad_inputs/, one file each):
// each now ends with one clear error line naming the file, line and field (or the option) and
// exit code 2 (bad input) or 3 (a run that failed, naming the step and the body), under an
// address-space limit and a timeout (docs/architecture.md, Errors and exit codes).
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "test_support/build_paths.h"
#include "test_support/run_contactlab.h"

namespace contactlab {
namespace {

struct BadInput {
  const char* name;
  const char* args;  // "{D}" stands for tests/data/bad_inputs
  int exit_code;
  const char* fragment;  // what the one line must say
};

// gtest prints a case by its name: its bytes hold pointers, and ctest's names would change from
// build to build.
void PrintTo(const BadInput& c, std::ostream* os) { *os << c.name; }

std::string Expand(std::string args) {
  const std::string dir = contactlab::testing::SourceDirectory() + "/tests/data/bad_inputs";
  for (size_t at; (at = args.find("{D}")) != std::string::npos;) args.replace(at, 3, dir);
  return args;
}

class BadInputs : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputs, OneClearLineAndTheExitCode) {
  const BadInput& c = GetParam();
  const std::string args = c.args;
  const std::string duration =
      args.find("--duration") == std::string::npos ? "--duration 0.05 " : "";
  const auto r = testing::RunContactlab(Expand("--headless --summary /dev/null " + duration + args),
                                        /*limits=*/true);
  EXPECT_EQ(r.exit_code, c.exit_code) << r.output;
  EXPECT_NE(r.output.find(c.fragment), std::string::npos) << r.output;
  // One line: the error, with nothing of a library's own before it or in it.
  std::string errors;
  int lines = 0;
  for (size_t start = 0, end; start < r.output.size(); start = end + 1) {
    end = r.output.find('\n', start);
    if (end == std::string::npos) end = r.output.size();
    const std::string line = r.output.substr(start, end - start);
    if (line.find("info:") != std::string::npos) continue;  // e.g. the replay's row count
    ++lines;
    errors += line;
  }
  EXPECT_EQ(lines, 1) << r.output;
  for (const char* raw : {"bad conversion", "operator[]", "yaml-cpp", "bad_alloc", "urdf_parser",
                          "model.cpp", ":0:"}) {
    EXPECT_EQ(errors.find(raw), std::string::npos) << raw << " in: " << errors;
  }
  for (unsigned char ch : errors) EXPECT_TRUE(ch >= 0x20 && ch < 0x7F) << errors;
}

INSTANTIATE_TEST_SUITE_P(
    Reproducers, BadInputs,
    ::testing::Values(
        BadInput{"HugePosition", "--scene {D}/segv_position_1e308.yaml", 2,
                 "segv_position_1e308.yaml:21: body 'sphere'.position = -1e+308 is absurd"},
        BadInput{"HugeMass", "--scene {D}/rc0_null_mass_1e308.yaml", 2,
                 "rc0_null_mass_1e308.yaml:17: body 'sphere'.mass = 1e+308 is absurd"},
        BadInput{"ResolutionFarTooFine", "--scene {D}/hang_resolution_1e-4.yaml", 2,
                 "hang_resolution_1e-4.yaml:21: body 'box'.shapes[0]: geometry 'shape0': mesh "
                 "resolution 0.0001 m is too fine"},
        BadInput{"ResolutionTooFine", "--scene {D}/badalloc_resolution_5e-4.yaml", 2,
                 "resolution 0.0005 m is too fine"},
        BadInput{"ThreeThousandBodies", "--scene {D}/badalloc_3000_chain.yaml", 2,
                 "badalloc_3000_chain.yaml:3: 3001 bodies: a scene may have at most 1000"},
        BadInput{"ListForAJointType", "--scene {D}/msg_bad_conversion_joint.yaml", 2,
                 "msg_bad_conversion_joint.yaml:18: body 'slider'.joint must be a joint type"},
        BadInput{"ScalarForAGenerator", "--scene {D}/msg_operator_scalar_generator.yaml", 2,
                 "msg_operator_scalar_generator.yaml:19: generators[0] must be a mapping"},
        BadInput{"UrdfLinkMissing", "--scene {D}/dellink_panda_link1.yaml", 2,
                 "dellink_panda_link1.urdf: malformed URDF (not a tree"},
        BadInput{"UrdfJointCycle", "--scene {D}/cycle.yaml", 2,
                 "cycle.urdf: the joints form a cycle through link"},
        BadInput{"UrdfInitialPositionOutsideLimits", "--scene {D}/num30_1.yaml", 2,
                 "joint 'panda_joint5': initial position 0 lies outside its limits"},
        BadInput{"BinaryReplay", "--scene peg_in_hole --input replay:{D}/replay_binary.csv", 2,
                 "replay_binary.csv:1: expected header \"t,vx,vy,vz,wx,wy,wz,grip\", got "
                 "\"\\x89\\xcc"},
        BadInput{"DurationOverflow", "--scene falling_sphere --duration 1e308", 2,
                 "--duration 1e+308 s at dt = 0.0005 s is more than 1000000000 steps"},
        BadInput{"DurationOverBudget", "--scene falling_sphere --duration 1e10 --dt 1e-3", 2,
                 "is more than 1000000000 steps"},
        // Found by fuzz_scene_yaml: a one-number velocity aborted builds with assertions (an
        // Eigen comma initializer left unfinished by the exception); the sanitizer run of this
        // test (scripts/sanitizer_tests.sh, assertions on) guards it.
        BadInput{"FuzzShortVelocity", "--scene {D}/fuzz_short_velocity.yaml", 2,
                 "fuzz_short_velocity.yaml:12: field 'body 'rod'.velocity' must be a list of 3 "
                 "numbers"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace contactlab
