// Compliant–compliant hydroelastic contact (docs/contact-model.md §5): a block bouncing on a
// compliant base oscillates with the stiffness of the two pressure fields in series.
//
// Each box's field rises as p = E_h·δ/r from its face (r: the inradius, half the smallest
// side), so a face of area A pressed δ into it carries A·(E_h/r)·δ. Two such fields meet where
// their pressures are equal: their gradients add like springs in series, g = g_A g_B/(g_A + g_B),
// and the block of mass m on its bottom face of area A oscillates with the period
// T = 2π √(m / (A g)). Without dissipation (d = 0) and with an amplitude below the static
// deflection the contact never opens, so the motion is harmonic. δt = 0.5 ms is under 2 % of
// the period, so the implicit step's period error is far below the 2 % tolerance; the next
// candidates (one field alone, the sum or the mean of the gradients) are at least 4.8 % away.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "physics_test_util.h"

namespace contactlab {
namespace {

constexpr double kBlockMass_kg = 1.0, kSide_m = 0.1, kHeight_m = 0.05;

// A 10 × 10 × 5 cm block, its bottom face at z = gap_m above the base's top face (z = 0); the
// base 16 × 16 × 5 cm, static, so that the block's footprint lies where the base's field is
// that of its top face alone.
SceneSpec BlockOnCompliantBase(double block_modulus_Pa, double base_modulus_Pa, double gap_m) {
  const std::string yaml =
      "scene: hydroelastic_oscillation\n"
      "dt: 5.0e-4\n"
      "model: lagged\n"
      "default_contact: {stiffness: 1.0e6, hunt_crossley: 0.0, relaxation_time: 0.1, "
      "friction: 0.5}\n"
      "bodies:\n"
      "  - name: base\n"
      "    type: static\n"
      "    position: [0, 0, -0.025]\n"
      "    shapes:\n"
      "      - {type: box, size: [0.16, 0.16, 0.05], contact_model: hydroelastic_compliant,\n"
      "         hydroelastic_modulus: " +
      std::to_string(base_modulus_Pa) +
      ", resolution: 0.01}\n"
      "  - name: block\n"
      "    mass: 1.0\n"
      "    position: [0, 0, " +
      std::to_string(0.5 * kHeight_m + gap_m) +
      "]\n"
      "    shapes:\n"
      "      - {type: box, size: [0.1, 0.1, 0.05], contact_model: hydroelastic_compliant,\n"
      "         hydroelastic_modulus: " +
      std::to_string(block_modulus_Pa) + ", resolution: 0.01}\n";
  return ParseScene(yaml, "hydroelastic_oscillation_test");
}

// Mean spacing of the upward crossings of the block's height through its mean, over
// duration_s after the block first touches.
double MeasuredPeriod(const SceneSpec& scene, double duration_s) {
  World world(scene);
  const int block = scene.FindBody("block");
  std::vector<double> t, z;
  EXPECT_EQ(testing::RunFor(&world, duration_s,
                            [&](const World& w) {
                              t.push_back(w.time());
                              z.push_back(w.BodyPose(block).translation().z());
                            }),
            0);
  double mean = 0;
  for (double zi : z) mean += zi / z.size();
  std::vector<double> crossings;
  for (size_t i = 1; i < z.size(); ++i) {
    if (z[i - 1] < mean && z[i] >= mean) {  // linear interpolation between the two steps
      crossings.push_back(t[i - 1] + (t[i] - t[i - 1]) * (mean - z[i - 1]) / (z[i] - z[i - 1]));
    }
  }
  EXPECT_GE(crossings.size(), 4u);
  if (crossings.size() < 2) return 0;
  return (crossings.back() - crossings.front()) / (crossings.size() - 1);
}

double SeriesPeriod(double block_modulus_Pa, double base_modulus_Pa) {
  const double g_block = block_modulus_Pa / (0.5 * kHeight_m);  // inradius: half of 5 cm
  const double g_base = base_modulus_Pa / (0.5 * kHeight_m);
  const double g = g_block * g_base / (g_block + g_base);
  return 2 * M_PI * std::sqrt(kBlockMass_kg / (kSide_m * kSide_m * g));
}

TEST(HydroelasticOscillation, CompliantPairOscillatesWithTheSeriesStiffness) {
  // Equal moduli halve the stiffness of one field: the period is √2 that on rigid ground.
  // Released at rest 0.2 static deflections into the base, the block swings between 0.2 and
  // 1.8 of them: the contact never opens.
  const double E = 1e5;
  const double k = kSide_m * kSide_m * 0.5 * E / (0.5 * kHeight_m);
  const double static_deflection_m = kBlockMass_kg * 9.81 / k;
  const SceneSpec scene = BlockOnCompliantBase(E, E, -0.2 * static_deflection_m);
  const double expected = SeriesPeriod(E, E);
  const double measured = MeasuredPeriod(scene, 6 * expected);
  EXPECT_NEAR(measured, expected, 0.02 * expected)
      << "rigid-ground period " << expected / std::sqrt(2.0);
}

TEST(HydroelasticOscillation, TheSofterFieldSetsTheStiffness) {
  // A base ten times softer than the block: g = g_block/11 — the softer field alone would give
  // a period 4.8 % shorter, their sum or mean far shorter still.
  const double E_block = 1e6, E_base = 1e5;
  const double expected = SeriesPeriod(E_block, E_base);
  const double k = 4 * M_PI * M_PI * kBlockMass_kg / (expected * expected);
  const SceneSpec scene = BlockOnCompliantBase(E_block, E_base, -0.2 * kBlockMass_kg * 9.81 / k);
  const double measured = MeasuredPeriod(scene, 6 * expected);
  EXPECT_NEAR(measured, expected, 0.02 * expected);
}

}  // namespace
}  // namespace contactlab
