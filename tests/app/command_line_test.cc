// The contactlab binary as outside tests call it (docs/architecture.md): exit codes, CSV columns,
// summary keys.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_support/build_paths.h"
#include "test_support/display.h"
#include "test_support/run_contactlab.h"
#include "test_support/temp_path.h"

namespace {

using Result = contactlab::testing::RunResult;
using contactlab::testing::RunContactlab;

// Every one of `keys` (a JSON fragment) is in `json`.
void ExpectContains(const std::string& json, std::initializer_list<const char*> keys) {
  for (const char* key : keys)
    EXPECT_NE(json.find(key), std::string::npos) << key << " in " << json;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

using contactlab::testing::TempPath;

TEST(CommandLine, HeadlessRunWritesLogAndSummary) {
  const std::string log = TempPath("sphere.csv"), summary = TempPath("sphere.json");
  const Result r = RunContactlab(
      "--headless --scene falling_sphere --duration 0.05 --dt 0.001 --model sap "
      "--log " +
      log + " --summary " + summary);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string csv = ReadFile(log);
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_EQ(
      header.rfind(
          "t,step_ms,iterations,num_contacts,residual,contact_polygons,dt,sphere.px,sphere.py,", 0),
      0u)
      << header;
  for (const char* column : {"sphere.qw", "sphere.wz", "sphere.fn", "sphere.ft", "ground.fn"}) {
    EXPECT_NE(header.find(column), std::string::npos) << column;
  }
  int rows = 0;
  for (char c : csv) rows += c == '\n';
  EXPECT_EQ(rows, 1 + 50);
  const std::string json = ReadFile(summary);
  ExpectContains(json, {"\"scene\": \"falling_sphere\"", "\"model\": \"sap\"", "\"dt\": 0.001",
                        "\"steps\": 50", "\"sim_time\"", "\"wall_time\"", "\"step_ms\"",
                        "\"median\"", "\"p99\"", "\"iterations\"", "\"max_residual\"", "\"task\""});
  std::filesystem::remove(log);
  std::filesystem::remove(summary);
}

// Error control (docs/contact-model.md §1.2) headless: the run ends at the duration, the log
// has each step's size (their sum is the time), the summary the step sizes, the accuracy asked,
// the error estimates and the rejections.
TEST(CommandLine, ErrorControlledRunLogsItsStepSizes) {
  const std::string log = TempPath("controlled.csv"), summary = TempPath("controlled.json");
  const Result r = RunContactlab(
      "--headless --scene falling_sphere --duration 0.3 --integrator error_controlled "
      "--dt-max 0.01 --accuracy 1e-3 --log " +
      log + " --summary " + summary);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::istringstream csv(ReadFile(log));
  std::string line;
  std::getline(csv, line);
  double time = 0, sum = 0, smallest = 1, largest = 0;
  while (std::getline(csv, line)) {
    std::istringstream row(line);
    std::string cell;
    std::vector<double> cells;
    while (std::getline(row, cell, ',') && cells.size() < 7) cells.push_back(std::stod(cell));
    time = cells[0];
    sum += cells[6];
    smallest = std::min(smallest, cells[6]);
    largest = std::max(largest, cells[6]);
  }
  EXPECT_EQ(time, 0.3);  // the last step cut short at the duration
  EXPECT_NEAR(sum, 0.3, 1e-12);
  EXPECT_LE(largest, 0.01);
  EXPECT_LT(smallest, 0.1 * largest);  // small steps at the impact, large ones in flight
  const std::string json = ReadFile(summary);
  ExpectContains(
      json, {"\"integrator\": \"error_controlled\"", "\"accuracy\": 0.001", "\"dt_max\": 0.01",
             "\"rejected_steps\"", "\"steps_at_floor\": 0", "\"error_estimate\"", "\"step_size\""});
  std::filesystem::remove(log);
  std::filesystem::remove(summary);
}

// The rigid model (docs/contact-model.md §8) headless: the sphere lands and rolls; the summary
// names the model and has the rigid stage's statistics, every barrier converged.
TEST(CommandLine, RigidModelRunReportsItsStage) {
  const std::string summary = TempPath("rigid.json");
  const Result r = RunContactlab(
      "--headless --scene falling_sphere --duration 0.2 --model drumwright_shell "
      "--restitution 0.25 --summary " +
      summary);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string json = ReadFile(summary);
  ExpectContains(json,
                 {"\"model\": \"drumwright_shell\"", "\"rigid_model\"", "\"steps_with_contact\"",
                  "\"max_phase1_residual\"", "\"max_duality_gap\"", "\"nonconverged_steps\": 0"});
  EXPECT_EQ(json.find("\"steps_with_contact\": 0,"), std::string::npos) << json;
  std::filesystem::remove(summary);
}

// A CSV file as a header (column names) and rows of numbers.
struct Csv {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  int Column(const std::string& name) const {
    for (size_t i = 0; i < columns.size(); ++i) {
      if (columns[i] == name) return static_cast<int>(i);
    }
    ADD_FAILURE() << "no column " << name;
    return 0;
  }
  bool Has(const std::string& name) const {
    return std::find(columns.begin(), columns.end(), name) != columns.end();
  }
  double At(size_t row, const std::string& name) const { return rows.at(row).at(Column(name)); }
};

Csv ReadCsv(const std::string& path) {
  Csv csv;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::stringstream header(line);
  for (std::string field; std::getline(header, field, ',');) csv.columns.push_back(field);
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream ss(line);
    for (std::string field; std::getline(ss, field, ',');) row.push_back(std::stod(field));
    EXPECT_EQ(row.size(), csv.columns.size()) << line;
    csv.rows.push_back(row);
  }
  return csv;
}

// The 13 state columns of a body in the per-step log.
std::string StateColumns(const std::string& body) {
  std::string s;
  for (const char* c :
       {"px", "py", "pz", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"}) {
    s += "," + body + "." + c;
  }
  return s;
}

TEST(CommandLine, RegularizedLaggedIsSelectableAsAModel) {
  const std::string summary = TempPath("regularized.json");
  const Result r = RunContactlab(
      "--headless --scene incline --duration 0.05 --model regularized_lagged --summary " + summary);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string json = ReadFile(summary);
  EXPECT_NE(json.find("\"model\": \"regularized_lagged\""), std::string::npos) << json;
  std::filesystem::remove(summary);
}

TEST(CommandLine, ThreadsGiveTheSameRunBitForBit) {
  // The clutter's impact phase (0.2–0.6 s) splits into islands that two threads share
  // (docs/contact-model.md §4.2): every body's state, the iterations and the residuals in the
  // log are one thread's to the last printed digit; only the step times differ.
  const auto run = [](int threads) {
    const std::string log = TempPath("threads" + std::to_string(threads) + ".csv");
    const Result r = RunContactlab("--headless --scene clutter --duration 0.6 --threads " +
                                   std::to_string(threads) + " --log " + log);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::istringstream in(ReadFile(log));
    std::filesystem::remove(log);
    std::vector<std::string> rows;
    for (std::string line; std::getline(in, line);) {
      const size_t first = line.find(','), second = line.find(',', first + 1);
      rows.push_back(line.substr(0, first) + line.substr(second));  // without step_ms
    }
    return rows;
  };
  const std::vector<std::string> one = run(1), two = run(2);
  ASSERT_EQ(one.size(), 301u);  // the header and 300 steps
  ASSERT_EQ(two.size(), one.size());
  for (size_t i = 0; i < one.size(); ++i) ASSERT_EQ(two[i], one[i]) << "row " << i;
}

TEST(CommandLine, LogGivesEveryDynamicBodysStateAndJointCoordinates) {
  // Four bodies without contact, each with a known answer: a ball falling freely (floating), a
  // slider falling along a vertical prismatic joint, a wheel spinning at 2 rad/s on a vertical
  // revolute joint, a bracket welded to the world (at rest). Semi-implicit Euler at δt:
  // v_n = −g t_n, q_n = −½ g t_n (t_n + δt).
  const std::string scene = TempPath("jointed.yaml"), log = TempPath("jointed.csv");
  std::ofstream(scene) << R"(scene: jointed
dt: 1.0e-3
model: lagged
bodies:
  - {name: slider, joint: prismatic, axis: [0, 0, 1], joint_origin: {position: [0, 0, 1]},
     mass: 1.0, shapes: [{type: sphere, radius: 0.05}]}
  - {name: wheel, joint: revolute, axis: [0, 0, 1], joint_origin: {position: [1, 0, 1]},
     joint_velocity: 2.0, mass: 1.0, shapes: [{type: cylinder, radius: 0.1, length: 0.02}]}
  - {name: bracket, joint: weld, joint_origin: {position: [0, 1, 0.5], rpy_deg: [0, 0, 90]},
     mass: 1.0, shapes: [{type: box, size: [0.1, 0.1, 0.1]}]}
  - {name: ball, mass: 1.0, position: [-1, 0, 2], shapes: [{type: sphere, radius: 0.05}]}
)";
  const Result r = RunContactlab("--headless --scene " + scene + " --duration 0.05 --log " + log);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string csv_text = ReadFile(log);
  // The columns written before every dynamic body was logged keep their places (floating
  // bodies, then every body's forces); the other dynamic bodies follow.
  const std::string expected_header =
      "t,step_ms,iterations,num_contacts,residual,contact_polygons,dt" + StateColumns("ball") +
      ",slider.fn,slider.ft,wheel.fn,wheel.ft,bracket.fn,bracket.ft,ball.fn,ball.ft" +
      StateColumns("slider") + ",slider.q,slider.qd" + StateColumns("wheel") + ",wheel.q,wheel.qd" +
      StateColumns("bracket");
  EXPECT_EQ(csv_text.substr(0, csv_text.find('\n')), expected_header);
  const Csv csv = ReadCsv(log);
  ASSERT_EQ(csv.rows.size(), 50u);
  const double g = 9.81, dt = 1e-3, tol = 1e-8;
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const double t = csv.At(i, "t");
    EXPECT_NEAR(t, (i + 1) * dt, 1e-12);
    EXPECT_NEAR(csv.At(i, "ball.vz"), -g * t, tol);
    EXPECT_NEAR(csv.At(i, "slider.qd"), -g * t, tol);
    EXPECT_NEAR(csv.At(i, "slider.vz"), -g * t, tol);
    EXPECT_NEAR(csv.At(i, "slider.q"), -0.5 * g * t * (t + dt), tol);
    EXPECT_NEAR(csv.At(i, "slider.pz"), 1 - 0.5 * g * t * (t + dt), tol);
    EXPECT_NEAR(csv.At(i, "slider.qw"), 1.0, tol);
    EXPECT_NEAR(csv.At(i, "wheel.qd"), 2.0, tol);
    EXPECT_NEAR(csv.At(i, "wheel.wz"), 2.0, tol);
    EXPECT_NEAR(csv.At(i, "wheel.q"), 2.0 * t, tol);
    EXPECT_NEAR(csv.At(i, "wheel.qw"), std::cos(t), tol);  // half the angle 2t
    EXPECT_NEAR(csv.At(i, "wheel.qz"), std::sin(t), tol);
    EXPECT_NEAR(csv.At(i, "wheel.px"), 1.0, tol);
    EXPECT_NEAR(csv.At(i, "wheel.vx"), 0.0, tol);  // the origin is on the axis
    EXPECT_NEAR(csv.At(i, "bracket.py"), 1.0, tol);
    EXPECT_NEAR(csv.At(i, "bracket.pz"), 0.5, tol);
    EXPECT_NEAR(csv.At(i, "bracket.qw"), std::sqrt(0.5), tol);  // 90° about z
    EXPECT_NEAR(csv.At(i, "bracket.qz"), std::sqrt(0.5), tol);
    for (const char* c : {"vx", "vy", "vz", "wx", "wy", "wz"}) {
      EXPECT_EQ(csv.At(i, std::string("bracket.") + c), 0.0) << c;
    }
  }
  std::filesystem::remove(scene);
  std::filesystem::remove(log);
}

TEST(CommandLine, LogGivesTheRobotsJointsFromTheirInitialValues) {
  // peg_in_hole: the arm starts at Franka's ready pose (the scene's joint_positions), the hand at
  // (0.30689, 0, 0.59028); its script holds still for 0.3 s, so after 10 ms every joint is
  // still there: gravity sags the arm by about its torque over the PD gain (≲ 30 N·m / 1e5 =
  // 3e-4 rad), the fingers hold the peg.
  const std::string log = TempPath("peg_log.csv");
  const Result r = RunContactlab("--headless --scene peg_in_hole --duration 0.01 --log " + log);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Csv csv = ReadCsv(log);
  ASSERT_EQ(csv.rows.size(), 10u);
  EXPECT_TRUE(csv.Has("peg.px"));  // floating
  EXPECT_TRUE(csv.Has("panda_hand.wz"));
  EXPECT_FALSE(csv.Has("panda_hand.q"));  // welded to link 7
  struct Joint {
    const char* body;
    double q0, tolerance;
  };
  for (const Joint& j :
       {Joint{"panda_link1", 0.0, 2e-3}, Joint{"panda_link2", -0.7853981634, 2e-3},
        Joint{"panda_link4", -2.3561944902, 2e-3}, Joint{"panda_link6", 1.5707963268, 2e-3},
        Joint{"panda_link7", 0.7853981634, 2e-3}, Joint{"panda_leftfinger", 0.00799, 2e-4}}) {
    const std::string body = j.body;
    for (size_t i : {size_t{0}, csv.rows.size() - 1}) {
      EXPECT_NEAR(csv.At(i, body + ".q"), j.q0, j.tolerance) << body << " row " << i;
      EXPECT_NEAR(csv.At(i, std::string(body) + ".qd"), 0.0, 0.05) << body << " row " << i;
    }
  }
  EXPECT_NEAR(csv.At(0, "panda_hand.px"), 0.30689, 1e-3);
  EXPECT_NEAR(csv.At(0, "panda_hand.py"), 0.0, 1e-3);
  EXPECT_NEAR(csv.At(0, "panda_hand.pz"), 0.59028, 1e-3);
  // Joint 1 turns about the world z from the fixed base: link 1's ω_z is its joint rate.
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    EXPECT_NEAR(csv.At(i, "panda_link1.wz"), csv.At(i, "panda_link1.qd"), 1e-9);
  }
  std::filesystem::remove(log);
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
            "effective_stiffness,effective_stiction_tolerance,pressure,requested_stiffness");
  int rows = 0, slipping = 0, sticking = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string field; std::getline(ss, field, ',');) f.push_back(field);
    // Point contacts leave `pressure` empty; the requested stiffness is the scene's k, which
    // Similar stiffens while slipping (k(1 + μ·d·‖v_t‖), never below it).
    ASSERT_EQ(f.size(), 21u) << line;
    EXPECT_TRUE(f[19].empty()) << line;
    EXPECT_GT(std::stod(f[20]), 0.0) << line;
    EXPECT_GE(std::stod(f[17]), std::stod(f[20]) * (1 - 1e-12)) << line;
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
  bool needs_gui = false;  // a build without the GUI refuses the option itself
};

void PrintTo(const BadArgs& c, std::ostream* os) { *os << c.name; }

class CommandLineBadInput : public ::testing::TestWithParam<BadArgs> {};

TEST_P(CommandLineBadInput, OneLineAndExitCodeTwo) {
  if (GetParam().needs_gui && !CONTACTLAB_HAS_GUI) GTEST_SKIP() << "this build has no GUI";
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
        BadArgs{"RestitutionAboveOne", "--headless --scene falling_sphere --restitution 1.5",
                "--restitution must be from 0 to 1"},
        BadArgs{"UnknownScene", "--headless --scene no_such_scene", "no_such_scene"},
        BadArgs{"UnknownOption", "--headless --bogus", "bogus"},
        BadArgs{"MissingReplay", "--headless --scene falling_sphere --input replay:/no/file.csv",
                "replay"},
        BadArgs{"GamepadHeadless", "--headless --scene peg_in_hole --input gamepad",
                "--input gamepad"},
        BadArgs{"UnknownInput", "--headless --scene peg_in_hole --input joystick",
                "--input must be keyboard, spacemouse, gamepad or replay:FILE"},
        BadArgs{"WindowSizeNotWxH", "--screenshot /tmp/x.png --window-size 800", "--window-size"},
        BadArgs{"WindowSizeGarbage", "--screenshot /tmp/x.png --window-size axb", "--window-size"},
        BadArgs{"WindowSizeTooSmall", "--screenshot /tmp/x.png --window-size 10x600",
                "--window-size"},
        BadArgs{"WindowSizeTooLarge", "--window-size 9000x600", "--window-size"},
        BadArgs{"WindowSizeNegative", "--window-size -800x600", "--window-size"},
        BadArgs{"WindowSizeTrailing", "--window-size 800x600x2", "--window-size"},
        BadArgs{"NegativeMaxFps", "--max-fps -5", "--max-fps"},
        BadArgs{"UnknownIntegrator", "--headless --scene falling_sphere --integrator rk4",
                "--integrator must be symplectic_euler, implicit_euler, midpoint"},
        BadArgs{"AccuracyOutOfRange", "--headless --scene falling_sphere --accuracy 3",
                "--accuracy must be in [1e-8, 1], got 3"},
        BadArgs{"ZeroThreads", "--headless --scene falling_sphere --threads 0", "--threads"},
        BadArgs{"TooManyThreads", "--headless --scene falling_sphere --threads 65", "--threads"},
        BadArgs{"ThreadsNotANumber", "--headless --scene falling_sphere --threads two",
                "--threads"},
        BadArgs{"GuiStatsHeadless", "--headless --gui-stats /tmp/x.json", "--gui-stats"},
        BadArgs{"RecordUnwritableHeadless",
                "--headless --scene peg_in_hole --duration 0.01 --record /no/such/dir/r.csv",
                "/no/such/dir/r.csv"},
        BadArgs{"OutputDirUnderAFile",
                "--headless --scene falling_sphere --output-dir /proc/version/out",
                "--output-dir /proc/version/out: cannot create the folder"},
        BadArgs{"OutputDirUncreatable", "--output-dir /proc/contactlab_out --screenshot /tmp/x.png",
                "--output-dir /proc/contactlab_out"},
        BadArgs{"OutputDirEmpty", "--output-dir ''", "--output-dir must name a folder"},
        BadArgs{"RecordUnwritableGui",
                "--screenshot /tmp/x.png --scene peg_in_hole --record /no/such/dir/r.csv",
                "/no/such/dir/r.csv", true}),
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
  if (!CONTACTLAB_HAS_GUI) GTEST_SKIP() << "this build has no GUI";
  CONTACTLAB_REQUIRE_DISPLAY();
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
  // The issue's contract: the scripted insertion ends with task.inserted: true.
  const std::string summary = TempPath("peg.json");
  const Result r = RunContactlab(
      "--headless --scene peg_in_hole --input replay:" + contactlab::testing::SourceDirectory() +
      "/assets/teleop/insert_peg.csv --summary " + summary);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string json = ReadFile(summary);
  EXPECT_NE(json.find("\"inserted\": true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"insertion_depth\""), std::string::npos) << json;
  // Its held object (the peg) is watched beside the scene's own outcome.
  EXPECT_NE(json.find("\"held_body\": \"peg\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"max_grasp_slip\""), std::string::npos) << json;
  std::filesystem::remove(summary);
}

// Issue 35, item 5: a replay runs for the recording's length, not the scene's (peg_in_hole: 5 s).
// A 33 s run recorded headless (rows at t = 0 … 33 s − δt) replays without --duration to t = 33 s
// and ends in the recorded run's final state, as a replay given --duration 33 does; a shorter
// --duration cuts it short. (δt = 2 ms: the same contract at half the steps.)
TEST(CommandLine, AReplayRunsForTheRecordingsLengthByDefault) {
  const std::string recording = TempPath("long.csv");
  const std::string original = TempPath("long_original.json"),
                    by_default = TempPath("long_by_default.json"),
                    explicit_33 = TempPath("long_explicit.json"), cut = TempPath("long_cut.json");
  const std::string run = "--headless --scene peg_in_hole --dt 0.002 --summary ";
  const Result r0 = RunContactlab(run + original + " --duration 33 --record " + recording +
                                  " --input replay:" + contactlab::testing::SourceDirectory() +
                                  "/assets/teleop/insert_peg.csv");
  ASSERT_EQ(r0.exit_code, 0) << r0.output;
  for (const auto& [summary, duration] :
       {std::pair{by_default, std::string()}, std::pair{explicit_33, std::string(" --duration 33")},
        std::pair{cut, std::string(" --duration 10")}}) {
    const Result r = RunContactlab(run + summary + " --input replay:" + recording + duration);
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  // The run's end: steps, time, and the final state the task monitor and the controller saw
  // (the kinetic energy, the peg's pose, the tracking error: one step more or less changes them).
  auto field = [](const std::string& json, const std::string& key) {
    const size_t at = json.find("\"" + key + "\"");
    return at == std::string::npos ? std::string("(none)")
                                   : json.substr(at, json.find_first_of(",}", at) - at);
  };
  auto task = [](const std::string& json) {
    const size_t at = json.find("\"task\"");
    return at == std::string::npos ? std::string("(none)") : json.substr(at);
  };
  const std::string o = ReadFile(original), d = ReadFile(by_default), e = ReadFile(explicit_33);
  EXPECT_EQ(field(d, "steps"), "\"steps\": 16500");
  EXPECT_EQ(field(d, "sim_time"), "\"sim_time\": 33");
  EXPECT_EQ(task(d), task(o));
  EXPECT_EQ(task(d), task(e));
  EXPECT_EQ(field(d, "final_tracking_error"), field(o, "final_tracking_error"));
  EXPECT_EQ(field(d, "final_tracking_error"), field(e, "final_tracking_error"));
  EXPECT_EQ(field(ReadFile(cut), "steps"), "\"steps\": 5000");
  for (const auto& f : {recording, original, by_default, explicit_33, cut}) {
    std::filesystem::remove(f);
  }
}

TEST(CommandLine, ARecordedRunReplaysToTheSameInsertion) {
  // --record stores the commands applied (here: the scripted insertion's); replaying the
  // recording reproduces the run, so both summaries report the same insertion depth.
  const std::string recording = TempPath("recorded.csv");
  const std::string first = TempPath("first.json"), second = TempPath("second.json");
  const Result r1 = RunContactlab(
      "--headless --scene peg_in_hole --input replay:" + contactlab::testing::SourceDirectory() +
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

namespace {

// The number after "key": in `json` from `from` on (NaN if absent).
double NumberAfter(const std::string& json, const std::string& key, size_t from = 0) {
  const size_t at = json.find("\"" + key + "\": ", from);
  return at == std::string::npos ? NAN : std::stod(json.substr(at + key.size() + 4));
}

// Issue 36: grasp_stress's circle drives the arm headless; at 1.6 Hz (near the rod's 1.47 Hz
// pendulum frequency) the rod is lost within 5 s, and --stop-on-failure ends the run at that
// step: the summary's sim_time is the task's time_to_failure.
TEST(CommandLine, GraspStressStopsWhereTheRodIsLost) {
  const std::string summary = TempPath("grasp_stress.json");
  const Result r = RunContactlab(
      "--headless --scene grasp_stress --circle-frequency 1.6 "
      "--duration 5 --stop-on-failure --summary " +
      summary);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string json = ReadFile(summary);
  EXPECT_NE(json.find("\"device\": \"circle\""), std::string::npos) << json;
  const size_t task = json.find("\"task\"");
  ASSERT_NE(task, std::string::npos) << json;
  EXPECT_NE(json.find("\"failed\": true", task), std::string::npos) << json;
  const double t_f = NumberAfter(json, "time_to_failure", task);
  EXPECT_GT(t_f, 1.0);
  EXPECT_LT(t_f, 5.0);
  EXPECT_NEAR(NumberAfter(json, "sim_time"), t_f, 1e-9);
  EXPECT_GT(NumberAfter(json, "max_grasp_slip", task), 0.01);
  std::filesystem::remove(summary);
}

TEST(CommandLine, CircleFrequencyNeedsASceneWithACircleAndAFrequencyUpTo3Hz) {
  const Result no_circle =
      RunContactlab("--headless --scene falling_sphere --duration 0.01 --circle-frequency 1");
  EXPECT_EQ(no_circle.exit_code, 2) << no_circle.output;
  EXPECT_NE(no_circle.output.find("has no teleop circle"), std::string::npos) << no_circle.output;
  const Result too_fast =
      RunContactlab("--headless --scene grasp_stress --duration 0.01 --circle-frequency 3.5");
  EXPECT_EQ(too_fast.exit_code, 2) << too_fast.output;
  EXPECT_NE(too_fast.output.find("--circle-frequency"), std::string::npos) << too_fast.output;
}

}  // namespace
