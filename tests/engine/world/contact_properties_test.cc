// Pair properties (docs/contact-model.md §6) against hand-computed values: springs in series,
// a rigid side leaving the other's stiffness and dissipation, μ the harmonic mean, hydroelastic
// pairs weighted by E_h, and overrides replacing the combined values.
#include "engine/world/contact_properties.h"

#include <gtest/gtest.h>

#include <limits>

namespace contactlab {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

ContactProperties Props(double k, double d, double tau, double mu) {
  return {
      .stiffness_N_per_m = k, .hunt_crossley_s_per_m = d, .relaxation_time_s = tau, .friction = mu};
}

TEST(ContactProperties, PointPairCombinesInSeries) {
  const ContactProperties c =
      CombinePointContactProperties(Props(1e6, 10, 0.1, 0.5), Props(3e6, 50, 0.3, 1.0), {});
  EXPECT_DOUBLE_EQ(c.stiffness_N_per_m, 0.75e6);                           // 1e6·3e6/4e6
  EXPECT_DOUBLE_EQ(c.hunt_crossley_s_per_m, (3e6 * 10 + 1e6 * 50) / 4e6);  // 20 s/m
  EXPECT_DOUBLE_EQ(c.relaxation_time_s, (3e6 * 0.1 + 1e6 * 0.3) / 4e6);    // 0.15 s
  EXPECT_DOUBLE_EQ(c.friction, 2 * 0.5 * 1.0 / 1.5);
}

TEST(ContactProperties, RigidSideLeavesTheOther) {
  const ContactProperties c =
      CombinePointContactProperties(Props(kInf, 10, 0.1, 0.4), Props(2e6, 50, 0.3, 0.4), {});
  EXPECT_DOUBLE_EQ(c.stiffness_N_per_m, 2e6);
  EXPECT_DOUBLE_EQ(c.hunt_crossley_s_per_m, 50);
  EXPECT_DOUBLE_EQ(c.relaxation_time_s, 0.3);
  EXPECT_DOUBLE_EQ(c.friction, 0.4);
  const ContactProperties both =
      CombinePointContactProperties(Props(kInf, 10, 0.1, 0), Props(kInf, 50, 0.3, 0), {});
  EXPECT_DOUBLE_EQ(both.stiffness_N_per_m, 1e12);  // two rigid geometries
  EXPECT_DOUBLE_EQ(both.hunt_crossley_s_per_m, 30);
  EXPECT_DOUBLE_EQ(both.friction, 0);
}

TEST(ContactProperties, OverridesReplaceTheCombinedValues) {
  ContactSettings o;
  o.stiffness_N_per_m = 5e5;
  o.friction = 0.1;
  const ContactProperties c =
      CombinePointContactProperties(Props(1e6, 10, 0.1, 0.5), Props(3e6, 50, 0.3, 1.0), o);
  EXPECT_DOUBLE_EQ(c.stiffness_N_per_m, 5e5);
  EXPECT_DOUBLE_EQ(c.friction, 0.1);
  EXPECT_DOUBLE_EQ(c.hunt_crossley_s_per_m, 20);  // not overridden
}

// Restitution (docs/contact-model.md §8): the larger ε, so that a bouncy ball bounces on an
// inelastic floor; an override replaces it.
// A pair's own values (contact_pairs) replace the combined ones; a global override replaces both;
// a face set keeps its own stiffness.
TEST(ContactProperties, APairsOwnValuesReplaceTheCombinedOnesButNotTheOverrides) {
  ContactPairSpec pair;
  pair.scene_body_a = 3;
  pair.scene_body_b = 1;
  pair.stiffness_N_per_m = 2e5;
  pair.friction = 0.9;
  EXPECT_TRUE(pair.Joins(1, 3));
  EXPECT_FALSE(pair.Joins(1, 2));
  const std::vector<ContactPairSpec> pairs = {pair};
  EXPECT_EQ(FindContactPair(pairs, 1, 3), &pairs[0]);
  EXPECT_EQ(FindContactPair(pairs, 1, 2), nullptr);
  ContactProperties c = Props(1e6, 10, 0.1, 0.5);
  ApplyContactPair(pair, {}, /*point_contact=*/true, &c);
  EXPECT_EQ(c.stiffness_N_per_m, 2e5);
  EXPECT_EQ(c.friction, 0.9);
  EXPECT_EQ(c.hunt_crossley_s_per_m, 10);  // the pair has none of its own
  ContactSettings global;
  global.friction = 0.1;
  c = Props(1e6, 10, 0.1, 0.5);
  ApplyContactPair(pair, global, /*point_contact=*/false, &c);
  EXPECT_EQ(c.friction, 0.5) << "the global override is applied by the combination, not here";
  EXPECT_EQ(c.stiffness_N_per_m, 1e6) << "a face set keeps its own stiffness";
}

TEST(ContactProperties, RestitutionIsTheLargerOfThePair) {
  ContactProperties a = Props(1e6, 10, 0.1, 0.5), b = Props(1e6, 10, 0.1, 0.5);
  a.restitution = 0.8;
  b.restitution = 0.1;
  EXPECT_EQ(CombinePointContactProperties(a, b, {}).restitution, 0.8);
  EXPECT_EQ(CombineHydroelasticContactProperties(b, 1e5, a, kInf, {}).restitution, 0.8);
  ContactSettings o;
  o.restitution = 0.3;
  EXPECT_EQ(CombinePointContactProperties(a, b, o).restitution, 0.3);
}

TEST(ContactProperties, HydroelasticPairWeightsByModulus) {
  // E_a = 1e5, E_b = 3e5: d = (E_b d_a + E_a d_b)/(E_a + E_b); a rigid side (∞) leaves the
  // compliant side's d. The stiffness is per face: 0 here.
  const ContactProperties c = CombineHydroelasticContactProperties(
      Props(1e6, 10, 0.1, 0.5), 1e5, Props(1e6, 50, 0.3, 0.5), 3e5, {});
  EXPECT_DOUBLE_EQ(c.hunt_crossley_s_per_m, (3e5 * 10 + 1e5 * 50) / 4e5);
  EXPECT_DOUBLE_EQ(c.stiffness_N_per_m, 0);
  const ContactProperties rigid = CombineHydroelasticContactProperties(
      Props(1e6, 10, 0.1, 0.5), 1e5, Props(1e6, 50, 0.3, 0.5), kInf, {});
  EXPECT_DOUBLE_EQ(rigid.hunt_crossley_s_per_m, 10);
  EXPECT_DOUBLE_EQ(rigid.relaxation_time_s, 0.1);
}

// A hydroelastic pair takes the overrides of dissipation and friction but not the stiffness,
// which each face's pressure field gives (returned as 0); a value not overridden stays the
// combined one (equal moduli: the mean).
TEST(ContactProperties, HydroelasticOverridesReplaceDissipationAndFrictionButNotStiffness) {
  ContactSettings s;
  s.stiffness_N_per_m = 1e3;
  s.relaxation_time_s = 0.02;
  s.friction = 0.9;
  const ContactProperties c = CombineHydroelasticContactProperties(
      Props(1e6, 10, 0.1, 0.5), 1e7, Props(1e6, 50, 0.3, 0.5), 1e7, s);
  EXPECT_EQ(c.stiffness_N_per_m, 0);
  EXPECT_DOUBLE_EQ(c.hunt_crossley_s_per_m, 30);  // not overridden: (10 + 50) / 2
  EXPECT_EQ(c.relaxation_time_s, 0.02);
  EXPECT_EQ(c.friction, 0.9);
}

}  // namespace
}  // namespace contactlab
