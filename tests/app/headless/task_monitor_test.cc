// The task monitor's own report (the summary's "task" object, docs/architecture.md) against the
// rigid-body answer of the falling sphere (docs/contact-model.md §7), both as the monitor is fed
// a run of the built-in scene step by step and as the headless binary writes it with --summary.
#include "app/headless/task_monitor.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>

#include "io/scene_loader.h"
#include "test_support/run_contactlab.h"

namespace contactlab {
namespace {

// assets/scenes/falling_sphere.yaml: a solid sphere (I = 2/5 m r²) whose lowest point starts
// h = 5 cm above the ground, moving at U0 = 2 m/s along x; μ = 0.5; g = 9.81 m/s².
constexpr double kU0 = 2.0, kMu = 0.5, kG = 9.81, kDrop = 0.05, kDt = 5e-4;

// The rigid answer (docs/contact-model.md §7). It reaches the ground at t* = sqrt(2h/g) with
// v_n = sqrt(2gh) = 0.990 m/s. While it slides, friction μ m g slows the centre by μg and spins
// the sphere up by μ m g r / (2/5 m r²), so the slip v − ωr decelerates at μg(1 + 5/2) = 7μg/2;
// the impact's friction impulse μ m v_n takes (7/2) μ v_n of slip at once, leaving
// u1 = U0 − (7/2) μ v_n = 0.267 m/s, so rolling starts 2 u1/(7 μ g) = 15.5 ms after touchdown.
// Angular momentum about the contact point, m U0 r = m v r + 2/5 m r² (v/r), gives the rolling
// speed v = 5/7 U0 = 1.4286 m/s.
const double kTouchdown_s = std::sqrt(2 * kDrop / kG);
const double kLandingSpeed_m_per_s = std::sqrt(2 * kG * kDrop);
const double kSlipAfterImpact_m_per_s = kU0 - 3.5 * kMu * kLandingSpeed_m_per_s;
const double kSlide_s = 2 * kSlipAfterImpact_m_per_s / (7 * kMu * kG);
const double kRollingSpeed_m_per_s = 5.0 / 7.0 * kU0;

// The value of "key": a number (or a boolean as 1/0) in a JSON text; NaN if absent.
double JsonValue(const std::string& json, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + key + "\": ([^,}]+)"))) return NAN;
  if (m[1] == "true") return 1;
  if (m[1] == "false") return 0;
  return std::stod(m[1]);
}

// The falling sphere's task fields against the rigid answer.
void ExpectRigidSlideThenRoll(const std::string& task) {
  SCOPED_TRACE(task);
  ASSERT_NEAR(kTouchdown_s, 0.10096, 1e-5);  // the worked numbers of the scene's header
  ASSERT_NEAR(kSlipAfterImpact_m_per_s, 0.267, 1e-3);
  ASSERT_NEAR(kSlide_s, 0.0155, 1e-4);
  // (JsonWriter prints 12 significant digits.)
  EXPECT_NEAR(JsonValue(task, "initial_speed"), kU0, 1e-11);
  EXPECT_NEAR(JsonValue(task, "rigid_final_speed"), kRollingSpeed_m_per_s, 1e-11);
  // Touchdown is reported as the start of the step in which the ground first pushes: the step
  // during which the sphere reaches the ground. It does so at t*, and the time-stepped fall
  // (semi-implicit Euler: the lowest point drops ½ g t (t + δt) by time t) at the root of
  // t (t + δt) = 2h/g, 0.10071 s: both within the step from 0.1005 s.
  const double touchdown = JsonValue(task, "touchdown_time");
  const double stepped_touchdown = 0.5 * (-kDt + std::sqrt(kDt * kDt + 8 * kDrop / kG));
  for (const double t : {kTouchdown_s, stepped_touchdown}) {
    EXPECT_LE(touchdown, t);
    EXPECT_GT(touchdown + kDt, t);
  }
  // The slide: the rigid 15.5 ms within 15 % (the compliant impact lasts a few steps, and the
  // slip must fall below the monitor's 2 mm/s, ≈ 0.1 ms at 7μg/2), as the physics test allows
  // (tests/physics/falling_sphere_test.cc).
  const double slide = JsonValue(task, "slide_duration");
  EXPECT_NEAR(slide, kSlide_s, 0.15 * kSlide_s);
  EXPECT_NEAR(JsonValue(task, "roll_time"), touchdown + slide, 1e-9);
  EXPECT_EQ(JsonValue(task, "rolling"), 1);
  // Then it rolls: at 5/7 U0 (1 %, as the physics test), its contact point at rest.
  EXPECT_NEAR(JsonValue(task, "final_speed"), kRollingSpeed_m_per_s, 0.01 * kRollingSpeed_m_per_s);
  EXPECT_LT(JsonValue(task, "final_slip_speed"), 2e-3);
  // The deepest overlap: more than resting's m g / k = 0.49 µm (k = 1e7 N/m), less than an
  // undamped spring's v_n sqrt(m/k) + m g/k = 0.22 mm (Hunt–Crossley damping only adds force
  // while the sphere sinks).
  const double m = 0.5, k = 1e7;
  EXPECT_GT(JsonValue(task, "max_penetration"), m * kG / k);
  EXPECT_LT(JsonValue(task, "max_penetration"),
            kLandingSpeed_m_per_s * std::sqrt(m / k) + m * kG / k);
}

TEST(FallingSphereMonitor, ReportsTouchdownSlideAndRollOfTheRigidAnswer) {
  World world(LoadSceneFile(ResolveScenePath("falling_sphere")));
  ASSERT_EQ(world.dt(), kDt);
  std::unique_ptr<TaskMonitor> monitor = MakeTaskMonitor(world);
  const int steps = static_cast<int>(std::llround(world.scene().duration_s / kDt));
  ASSERT_EQ(steps, 800);  // 0.4 s: rolling from 0.116 s on
  for (int i = 0; i < steps; ++i) {
    ASSERT_TRUE(world.Step()) << world.failure();
    monitor->Observe(world);
  }
  JsonWriter json;
  json.BeginObject();
  monitor->Report(&json);
  json.EndObject();
  ExpectRigidSlideThenRoll(json.str());
}

TEST(FallingSphereMonitor, HeadlessSummaryReportsTheSameRoll) {
  const std::string summary =
      (std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_roll.json"))
          .string();
  const testing::RunResult r =
      testing::RunContactlab("--headless --scene falling_sphere --summary " + summary);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::stringstream text;
  text << std::ifstream(summary).rdbuf();
  std::filesystem::remove(summary);
  const std::string json = text.str();
  const size_t task = json.find("\"task\"");
  ASSERT_NE(task, std::string::npos) << json;
  ExpectRigidSlideThenRoll(json.substr(task, json.find('}', task) - task));  // no nesting
}

}  // namespace
}  // namespace contactlab
