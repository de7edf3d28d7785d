// The contactlab binary as outside tests call it (architecture.md): exit codes, CSV columns,
// summary keys.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

struct Result {
  int exit_code;
  std::string output;
};

Result RunContactlab(const std::string& args) {
  const std::string command = std::string(CONTACTLAB_BINARY) + " " + args + " 2>&1";
  Result r{-1, ""};
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  while (fgets(buffer, sizeof buffer, pipe)) r.output += buffer;
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_" + name))
      .string();
}

TEST(CommandLine, HeadlessRunWritesLogAndSummary) {
  const std::string log = TempPath("sphere.csv"), summary = TempPath("sphere.json");
  const Result r = RunContactlab(
      "--headless --scene falling_sphere --duration 0.05 --dt 0.001 --model sap "
      "--log " +
      log + " --summary " + summary);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string csv = ReadFile(log);
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_EQ(header.rfind("t,step_ms,iterations,num_contacts,residual,sphere.px,sphere.py,", 0), 0u)
      << header;
  for (const char* column : {"sphere.qw", "sphere.wz", "sphere.fn", "sphere.ft", "ground.fn"}) {
    EXPECT_NE(header.find(column), std::string::npos) << column;
  }
  int rows = 0;
  for (char c : csv) rows += c == '\n';
  EXPECT_EQ(rows, 1 + 50);
  const std::string json = ReadFile(summary);
  for (const char* key :
       {"\"scene\": \"falling_sphere\"", "\"model\": \"sap\"", "\"dt\": 0.001", "\"steps\": 50",
        "\"sim_time\"", "\"wall_time\"", "\"step_ms\"", "\"median\"", "\"p99\"", "\"iterations\"",
        "\"max_residual\"", "\"task\""}) {
    EXPECT_NE(json.find(key), std::string::npos) << key << " in " << json;
  }
  std::filesystem::remove(log);
  std::filesystem::remove(summary);
}

struct BadArgs {
  const char* name;
  const char* args;
  const char* fragment;
};

void PrintTo(const BadArgs& c, std::ostream* os) { *os << c.name; }

class CommandLineBadInput : public ::testing::TestWithParam<BadArgs> {};

TEST_P(CommandLineBadInput, OneLineAndExitCodeTwo) {
  const Result r = RunContactlab(GetParam().args);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(GetParam().fragment), std::string::npos) << r.output;
  int lines = 0;
  for (char c : r.output) lines += c == '\n';
  EXPECT_EQ(lines, 1) << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CommandLineBadInput,
    ::testing::Values(
        BadArgs{"NegativeDt", "--headless --scene falling_sphere --dt -1", "--dt"},
        BadArgs{"NanDt", "--headless --scene falling_sphere --dt nan", "--dt"},
        BadArgs{"NegativeStiffness", "--headless --scene falling_sphere --stiffness -5",
                "--stiffness"},
        BadArgs{"NegativeFriction", "--headless --scene falling_sphere --friction -1",
                "--friction"},
        BadArgs{"UnknownModel", "--headless --scene falling_sphere --model pgs", "--model"},
        BadArgs{"UnknownScene", "--headless --scene no_such_scene", "no_such_scene"},
        BadArgs{"UnknownOption", "--headless --bogus", "bogus"},
        BadArgs{"MissingReplay", "--headless --scene falling_sphere --input replay:/no/file.csv",
                "replay"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(CommandLine, MalformedSceneFileNamesFileAndField) {
  const std::string path = TempPath("bad_scene.yaml");
  std::ofstream(path) << "bodies:\n  - name: b\n    mass: -2\n    shapes: [{type: sphere, "
                         "radius: 0.1}]\n";
  const Result r = RunContactlab("--headless --scene " + path);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(path), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("mass"), std::string::npos) << r.output;
  std::filesystem::remove(path);
}

}  // namespace
