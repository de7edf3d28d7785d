// The contact log (--log-contacts, docs/architecture.md §7) of peg_in_hole while its gripper
// holds the peg and then opens (issue 35, item 4): every distance in it is one. The pads'
// pressure-field faces report the penetration their pressure implies (docs/contact-model.md
// §5), micrometres under the default 30 N grip, not the solver's φ0 = −p/g, which read −1.7e4 m
// and more on the faces where the peg's ends cut the pads' overlap layer; they carry their
// pressure in the `pressure` column, which point contacts leave empty.
#include "app/headless/contact_log.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_support/run_contactlab.h"
#include "test_support/temp_path.h"

namespace contactlab {
namespace {

using contactlab::testing::TempPath;

std::vector<std::string> Fields(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  for (std::string field; std::getline(ss, field, ',');) f.push_back(field);
  if (!line.empty() && line.back() == ',') f.emplace_back();  // an empty last cell
  return f;
}

TEST(ContactLog, TheGripperOpeningInPegInHoleLogsDistancesInMetres) {
  // Held closed for 0.1 s, opened over 20 ms (the replay interpolates), then the peg drops
  // onto the table (point contact).
  const std::string replay = TempPath("open_grip.csv"), log = TempPath("open_contacts.csv");
  std::ofstream(replay) << "t,vx,vy,vz,wx,wy,wz,grip\n0,0,0,0,0,0,0,1\n0.1,0,0,0,0,0,0,1\n"
                           "0.12,0,0,0,0,0,0,0\n0.5,0,0,0,0,0,0,0\n";
  const testing::RunResult r = testing::RunContactlab(
      "--headless --scene peg_in_hole --duration 0.5 --input replay:" + replay +
      " --log-contacts " + log);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(log);
  std::string line;
  std::getline(in, line);
  ASSERT_EQ(line, kContactCsvHeader);
  ASSERT_EQ(Fields(line).size(), 21u);
  ASSERT_EQ(Fields(line)[19], "pressure");
  ASSERT_EQ(Fields(line)[20], "requested_stiffness");
  int pad_rows = 0, point_rows = 0;
  double last_pad_t = 0, deepest_pad_m = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = Fields(line);
    ASSERT_EQ(f.size(), 21u) << line;
    EXPECT_GT(std::stod(f[20]), 0.0) << line;  // every pair asks for a stiffness
    const double distance = std::stod(f[9]), distance_end = std::stod(f[10]);
    EXPECT_LT(std::abs(distance), 1.0) << line;
    EXPECT_LT(std::abs(distance_end), 1.0) << line;
    const bool pad = f[1] == "panda_leftfinger" || f[1] == "panda_rightfinger";
    if (!pad) {
      EXPECT_EQ(f[19], "") << line;        // a point contact has no pressure
      point_rows += std::stod(f[13]) > 0;  // pressed
      continue;
    }
    EXPECT_EQ(f[2], "peg") << line;
    EXPECT_GT(std::stod(f[19]), 0.0) << line;
    // 30 N on the 2 × 4.5 cm pads sinks them ≈ 10 µm (assets/scenes/peg_in_hole.yaml).
    EXPECT_LE(distance, 0.0) << line;
    EXPECT_GT(distance, -5e-5) << line;
    deepest_pad_m = std::max(deepest_pad_m, -distance);
    last_pad_t = std::stod(f[0]);
    ++pad_rows;
  }
  EXPECT_GT(pad_rows, 1000);  // a few dozen faces a step while held
  EXPECT_GT(deepest_pad_m, 1e-6);
  EXPECT_LT(last_pad_t, 0.2) << "the grip opened and the pads let go of the peg";
  EXPECT_GT(point_rows, 0) << "the peg landed on the table";
  std::filesystem::remove(replay);
  std::filesystem::remove(log);
}

}  // namespace
}  // namespace contactlab
