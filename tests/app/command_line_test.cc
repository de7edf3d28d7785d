// The contactlab binary as outside tests call it (docs/architecture.md): exit codes, CSV columns,
// summary keys.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

TEST(CommandLine, ContactLogHasARowPerContactWithGlidingDiagnostics) {
  // Conveyor under Similar (μ = 0.7, δt = 10 ms): each slipping contact shows the gliding offset
  // μ·δt·‖v_t‖ of docs/contact-model.md §2.5, from its own slip speed.
  const std::string path = TempPath("conveyor_contacts.csv");
  const Result r = RunContactlab(
      "--headless --scene conveyor --model similar --duration 2 "
      "--log-contacts " +
      path);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line,
            "t,body_a,body_b,px,py,pz,nx,ny,nz,signed_distance,signed_distance_end,"
            "normal_velocity,slip_speed,normal_force,friction_force,state,gliding_offset,"
            "effective_stiffness,effective_stiction_tolerance");
  int rows = 0, slipping = 0, sticking = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string field; std::getline(ss, field, ',');) f.push_back(field);
    ASSERT_EQ(f.size(), 19u) << line;
    ++rows;
    EXPECT_TRUE((f[1] == "belt" && f[2] == "box") || (f[1] == "box" && f[2] == "belt")) << line;
    const double slip_speed = std::stod(f[12]), gliding = std::stod(f[16]);
    EXPECT_NEAR(gliding, 0.7 * 0.01 * slip_speed, 1e-9 + 1e-7 * gliding) << line;
    slipping += f[15] == "slip";
    sticking += f[15] == "stick";
  }
  EXPECT_GT(rows, 200);  // 200 steps, several points each
  EXPECT_GT(slipping, 10);
  EXPECT_GT(sticking, 10);
  std::filesystem::remove(path);
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
                "replay"},
        BadArgs{"WindowSizeNotWxH", "--screenshot /tmp/x.png --window-size 800", "--window-size"},
        BadArgs{"WindowSizeGarbage", "--screenshot /tmp/x.png --window-size axb", "--window-size"},
        BadArgs{"WindowSizeTooSmall", "--screenshot /tmp/x.png --window-size 10x600",
                "--window-size"},
        BadArgs{"WindowSizeTooLarge", "--window-size 9000x600", "--window-size"},
        BadArgs{"WindowSizeNegative", "--window-size -800x600", "--window-size"},
        BadArgs{"WindowSizeTrailing", "--window-size 800x600x2", "--window-size"},
        BadArgs{"NegativeMaxFps", "--max-fps -5", "--max-fps"},
        BadArgs{"GuiStatsHeadless", "--headless --gui-stats /tmp/x.json", "--gui-stats"},
        BadArgs{"RecordUnwritableHeadless",
                "--headless --scene peg_in_hole --duration 0.01 --record /no/such/dir/r.csv",
                "/no/such/dir/r.csv"},
        BadArgs{"RecordUnwritableGui",
                "--screenshot /tmp/x.png --scene peg_in_hole --record /no/such/dir/r.csv",
                "/no/such/dir/r.csv"}),
    [](const auto& info) { return std::string(info.param.name); });

// Width and height from a PNG's IHDR chunk.
bool PngSize(const std::string& path, uint32_t* w, uint32_t* h) {
  std::ifstream in(path, std::ios::binary);
  unsigned char header[24] = {};
  if (!in.read(reinterpret_cast<char*>(header), sizeof header)) return false;
  auto be32 = [](const unsigned char* p) {
    return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | uint32_t{p[3]};
  };
  *w = be32(header + 16);
  *h = be32(header + 20);
  return true;
}

TEST(CommandLine, WindowSizeSetsTheScreenshotSize) {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') GTEST_SKIP() << "no DISPLAY (run under xvfb-run -a)";
  const std::string png = TempPath("size.png");
  // The option wins over the environment variable.
  setenv("CONTACTLAB_WINDOW_SIZE", "640x480", 1);
  const Result r =
      RunContactlab("--scene incline --screenshot " + png + " --frames 1 --window-size 320x200");
  unsetenv("CONTACTLAB_WINDOW_SIZE");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  uint32_t w = 0, h = 0;
  ASSERT_TRUE(PngSize(png, &w, &h));
  EXPECT_EQ(w, 320u);
  EXPECT_EQ(h, 200u);
  std::filesystem::remove(png);
}

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

namespace {

TEST(CommandLine, ScriptedPegInsertionSucceedsHeadless) {
  // The contract: the scripted insertion ends with task.inserted: true.
  const std::string summary = TempPath("peg.json");
  const Result r = RunContactlab(
      "--headless --scene peg_in_hole --input replay:" + std::string(CONTACTLAB_SOURCE_DIR) +
      "/assets/teleop/insert_peg.csv --summary " + summary);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string json = ReadFile(summary);
  EXPECT_NE(json.find("\"inserted\": true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"insertion_depth\""), std::string::npos) << json;
  std::filesystem::remove(summary);
}

TEST(CommandLine, ARecordedRunReplaysToTheSameInsertion) {
  // --record stores the commands applied (here: the scripted insertion's); replaying the
  // recording reproduces the run, so both summaries report the same insertion depth.
  const std::string recording = TempPath("recorded.csv");
  const std::string first = TempPath("first.json"), second = TempPath("second.json");
  const Result r1 = RunContactlab(
      "--headless --scene peg_in_hole --input replay:" + std::string(CONTACTLAB_SOURCE_DIR) +
      "/assets/teleop/insert_peg.csv --record " + recording + " --summary " + first);
  ASSERT_EQ(r1.exit_code, 0) << r1.output;
  const Result r2 = RunContactlab("--headless --scene peg_in_hole --input replay:" + recording +
                                  " --summary " + second);
  ASSERT_EQ(r2.exit_code, 0) << r2.output;
  auto depth = [](const std::string& json) {
    const size_t at = json.find("\"insertion_depth\"");
    return at == std::string::npos ? std::string() : json.substr(at, json.find(',', at) - at);
  };
  const std::string d1 = depth(ReadFile(first)), d2 = depth(ReadFile(second));
  ASSERT_FALSE(d1.empty());
  EXPECT_EQ(d1, d2);
  EXPECT_NE(ReadFile(second).find("\"inserted\": true"), std::string::npos);
  for (const auto& f : {recording, first, second}) std::filesystem::remove(f);
}

}  // namespace
