// The solver's logs (--log-solver, --log-newton, --hessian-condition; app/headless/solver_log.h)
// against known answers: a 1 kg box of 0.1 × 0.2 × 0.3 m falls 1 cm onto the ground and comes to
// rest on the four corners of its smallest face (Lagged, k = 1e5 N/m). In the air the Newton
// Hessian is the mass matrix, whose condition number is m over the smallest principal moment,
// m (0.1² + 0.2²)/12: 240 (its distinct moments tell λ_min from the next); at rest each corner
// carries mg/4, so every pressed
// contact penetrates mg/(4k), Lagged's stiction tolerance is the scene's v_s and the slip is
// below it; Newton with an exact line search never raises the cost.
#include "app/headless/solver_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "test_support/run_contactlab.h"
#include "test_support/temp_path.h"

namespace contactlab {
namespace {

using contactlab::testing::RunContactlab;
using contactlab::testing::TempPath;

constexpr double kStiffness = 1e5, kMass = 1.0, kGravity = 9.81, kStictionTolerance = 1e-4;
// λ_max/λ_min of the 0.1 × 0.2 × 0.3 m box's mass matrix: m / (m (0.1² + 0.2²)/12).
constexpr double kConditionInTheAir = 12 / (0.1 * 0.1 + 0.2 * 0.2);

std::string BoxOnGroundScene() {
  const std::string path = TempPath("solver_log_box.yaml");
  std::ofstream(path) << "scene: box_on_ground\ndt: 1.0e-3\nduration: 1.0\nmodel: lagged\n"
                         "stiction_tolerance: 1.0e-4\n"
                         "default_contact: {stiffness: 1.0e5, hunt_crossley: 50.0, friction: 0.5}\n"
                         "bodies:\n"
                         "  - name: ground\n    type: static\n"
                         "    shapes:\n      - {type: half_space, stiffness: .inf}\n"
                         "  - name: box\n    mass: 1.0\n    position: [0, 0, 0.16]\n"
                         "    shapes:\n      - {type: box, size: [0.1, 0.2, 0.3]}\n";
  return path;
}

// The CSV's rows as maps from its header's names to numbers.
std::vector<std::map<std::string, double>> ReadCsv(const std::string& path,
                                                   const std::string& header) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, header);
  std::vector<std::string> names;
  std::stringstream hs(header);
  for (std::string name; std::getline(hs, name, ',');) names.push_back(name);
  std::vector<std::map<std::string, double>> rows;
  while (std::getline(in, line)) {
    std::stringstream ls(line);
    std::map<std::string, double>& row = rows.emplace_back();
    std::string cell;
    for (const std::string& name : names) {
      std::getline(ls, cell, ',');
      row[name] = cell.empty() ? NAN : std::stod(cell);
    }
  }
  return rows;
}

TEST(SolverLog, ABoxComingToRestLogsItsKnownPenetrationAndConditioning) {
  const std::string solver_log = TempPath("solver_log.csv"), newton_log = TempPath("newton.csv");
  const testing::RunResult r =
      RunContactlab("--headless --scene " + BoxOnGroundScene() + " --log-solver " + solver_log +
                    " --hessian-condition --log-newton " + newton_log);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto steps = ReadCsv(solver_log, kSolverLogHeader);
  ASSERT_EQ(steps.size(), 1000u);
  // The first step, in the air: H = M, eigenvalues m (×3) and the box's three principal
  // moments m(b² + c²)/12, all different, the smallest about z.
  EXPECT_EQ(steps.front().at("pressed_contacts"), 0);
  EXPECT_NEAR(steps.front().at("hessian_condition"), kConditionInTheAir, kConditionInTheAir * 1e-9);
  // At rest: four corners, each mg/(4k) deep, slipping below v_s.
  const auto& rest = steps.back();
  EXPECT_EQ(rest.at("pressed_contacts"), 4);
  const double penetration_m = kMass * kGravity / (4 * kStiffness);
  EXPECT_NEAR(rest.at("mean_penetration_m"), penetration_m, penetration_m * 1e-4);
  EXPECT_NEAR(rest.at("max_penetration_m"), penetration_m, penetration_m * 1e-4);
  EXPECT_LT(rest.at("mean_slip_speed_m_per_s"), kStictionTolerance);
  EXPECT_DOUBLE_EQ(rest.at("mean_effective_stiction_tolerance_m_per_s"), kStictionTolerance);
  // Contact adds k δt² Jᵀ J to H: the conditioning worsens from the mass matrix's.
  EXPECT_GT(rest.at("hessian_condition"), kConditionInTheAir * 1.5);
  EXPECT_EQ(rest.at("converged"), 1);

  // Per step: iterate 0 (the warm start) first, the cost never rising (exact line search), and
  // the last iterate's cost the solver log's.
  const auto iterates = ReadCsv(newton_log, kNewtonLogHeader);
  std::map<int, std::vector<double>> costs;
  for (const auto& row : iterates) {
    std::vector<double>& c = costs[static_cast<int>(row.at("step"))];
    EXPECT_EQ(row.at("iteration"), c.size());
    c.push_back(row.at("cost"));
  }
  ASSERT_EQ(costs.size(), 1000u);
  int steps_with_iterations = 0;
  for (const auto& [step, c] : costs) {
    for (size_t k = 1; k < c.size(); ++k) EXPECT_LE(c[k], c[k - 1] + 1e-15) << step;
    EXPECT_EQ(c.back(), steps[step - 1].at("cost")) << step;
    EXPECT_EQ(static_cast<double>(c.size() - 1), steps[step - 1].at("iterations")) << step;
    steps_with_iterations += c.size() > 1;
  }
  // The fall and the impact take iterations; at rest the warm start (the last step's v) is
  // the solution or one iteration from it (docs/contact-model.md §4), mostly the former.
  EXPECT_GE(steps_with_iterations, 40);
  int warm_start_solved = 0;
  for (int step = 501; step <= 1000; ++step) {
    EXPECT_LE(costs[step].size(), 2u) << step;
    warm_start_solved += costs[step].size() == 1;
  }
  EXPECT_GE(warm_start_solved, 400);
}

TEST(SolverLog, TheConditionNumberIsRefusedWhereItWouldBeWrong) {
  const std::string scene = BoxOnGroundScene(), log = TempPath("refused.csv");
  for (const std::string& args :
       {std::string("--hessian-condition"),
        "--model drumwright_shell --hessian-condition --log-solver " + log,
        "--integrator error_controlled --hessian-condition --log-solver " + log}) {
    const testing::RunResult r =
        RunContactlab("--headless --duration 0.01 --scene " + scene + " " + args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find("--hessian-condition"), std::string::npos) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  }
}

}  // namespace
}  // namespace contactlab
