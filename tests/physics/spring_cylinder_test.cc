// Spring–cylinder (SAP paper §VI-B): rolling oscillation at the frequency of the effective
// mass m + I/r², energy bounded with symplectic Euler.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "physics_test_util.h"

namespace contactlab {
namespace {

struct Oscillation {
  double period = 0, energy_min = 1e300, energy_max = -1e300, energy0 = 0;
  int nonconverged = 0;
};

Oscillation RunCylinder(SceneSpec scene, double duration) {
  World world(scene);
  const int carriage = scene.FindBody("carriage_x");
  const int q_index = world.multibody().position_start(world.multibody_index(carriage));
  Oscillation o;
  o.energy0 = world.KineticEnergy() + world.PotentialEnergy();
  std::vector<double> crossings;
  double previous = world.q()[q_index];
  o.nonconverged = testing::RunFor(&world, duration, [&](const World& w) {
    const double x = w.q()[q_index];
    if (previous < 0 && x >= 0) crossings.push_back(w.time() - w.dt() * x / (x - previous));
    previous = x;
    const double e = w.KineticEnergy() + w.PotentialEnergy();
    o.energy_min = std::min(o.energy_min, e);
    o.energy_max = std::max(o.energy_max, e);
  });
  if (crossings.size() >= 2) {
    o.period = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  }
  return o;
}

constexpr double kSpring = 100.0, kCylinderMass = 1.0, kCarriageMass = 0.02, kRadius = 0.1;

TEST(SpringCylinder, RollsAtTheFrequencyOfTheEffectiveMass) {
  SceneSpec scene = testing::LoadBuiltinScene("spring_cylinder");
  scene.contact_settings.dt_s = 0.005;
  const Oscillation o = RunCylinder(scene, 8.0);
  EXPECT_EQ(o.nonconverged, 0);
  // Rolling without slip: m_eff = m + I/r² = 1.5 m (solid cylinder) plus the carriages.
  const double m_eff = kCylinderMass * 1.5 + kCarriageMass;
  const double expected = 2 * M_PI * std::sqrt(m_eff / kSpring);
  EXPECT_NEAR(o.period, expected, 0.02 * expected);
  // And clearly not the frictionless period.
  const double frictionless = 2 * M_PI * std::sqrt((kCylinderMass + kCarriageMass) / kSpring);
  EXPECT_GT(o.period, 1.1 * frictionless);
}

TEST(SpringCylinder, FrictionlessSlidesAtTheSpringMassFrequency) {
  SceneSpec scene = testing::LoadBuiltinScene("spring_cylinder");
  scene.contact_settings.dt_s = 0.005;
  ContactOverrides no_friction;
  no_friction.friction = 0.0;
  ApplyOverrides(no_friction, &scene.contact_settings);
  const Oscillation o = RunCylinder(scene, 8.0);
  const double expected = 2 * M_PI * std::sqrt((kCylinderMass + kCarriageMass) / kSpring);
  EXPECT_NEAR(o.period, expected, 0.02 * expected);
}

TEST(SpringCylinder, EnergyStaysBoundedAtTheCoarseStep) {
  SceneSpec scene = testing::LoadBuiltinScene("spring_cylinder");
  const Oscillation o = RunCylinder(scene, 10.0);
  EXPECT_EQ(o.nonconverged, 0);
  // Symplectic Euler: the energy oscillates in a band but does not drift away or blow up;
  // rolling friction does no work, so no more than the band is lost either.
  EXPECT_LT(o.energy_max, o.energy0 * 1.3);
  EXPECT_GT(o.energy_min, o.energy0 * 0.6);
  (void)kRadius;
}

}  // namespace
}  // namespace contactlab
