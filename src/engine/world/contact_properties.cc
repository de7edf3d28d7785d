#include "engine/world/contact_properties.h"

#include <algorithm>
#include <cmath>

namespace contactlab {
namespace {

// Springs in series; a rigid (infinite) side leaves the other's value (§6).
double CombineStiffness(double ka, double kb) {
  if (std::isinf(ka)) return kb;
  if (std::isinf(kb)) return ka;
  return ka * kb / (ka + kb);
}

// Each side's dissipation weighted by the other side's stiffness (the softer side dominates).
double CombineDissipation(double ka, double da, double kb, double db) {
  if (std::isinf(ka) && std::isinf(kb)) return 0.5 * (da + db);
  if (std::isinf(ka)) return db;
  if (std::isinf(kb)) return da;
  return (kb * da + ka * db) / (ka + kb);
}

// The pair overrides of the live settings (§6), but the stiffness: a hydroelastic face's comes
// from its pressure field, a point pair's override is applied by the caller.
void ApplyPairDissipationAndFriction(const ContactSettings& settings, ContactProperties* pair) {
  if (settings.hunt_crossley_s_per_m) pair->hunt_crossley_s_per_m = *settings.hunt_crossley_s_per_m;
  if (settings.relaxation_time_s) pair->relaxation_time_s = *settings.relaxation_time_s;
  if (settings.friction) pair->friction = *settings.friction;
  if (settings.restitution) pair->restitution = *settings.restitution;
}

// The larger ε (Box2D's b2MixRestitution): a bouncy ball bounces on an inelastic floor.
double CombineRestitution(double e_a, double e_b) { return std::max(e_a, e_b); }

double CombineFriction(double mu_a, double mu_b) {
  if (mu_a + mu_b <= 0) return 0;
  return 2 * mu_a * mu_b / (mu_a + mu_b);
}

}  // namespace

ContactProperties CombinePointContactProperties(const ContactProperties& a,
                                                const ContactProperties& b,
                                                const ContactSettings& settings) {
  ContactProperties c;
  c.stiffness_N_per_m = CombineStiffness(a.stiffness_N_per_m, b.stiffness_N_per_m);
  c.hunt_crossley_s_per_m = CombineDissipation(a.stiffness_N_per_m, a.hunt_crossley_s_per_m,
                                               b.stiffness_N_per_m, b.hunt_crossley_s_per_m);
  c.relaxation_time_s = CombineDissipation(a.stiffness_N_per_m, a.relaxation_time_s,
                                           b.stiffness_N_per_m, b.relaxation_time_s);
  c.friction = CombineFriction(a.friction, b.friction);
  c.restitution = CombineRestitution(a.restitution, b.restitution);
  if (settings.stiffness_N_per_m) c.stiffness_N_per_m = *settings.stiffness_N_per_m;
  ApplyPairDissipationAndFriction(settings, &c);
  if (std::isinf(c.stiffness_N_per_m)) c.stiffness_N_per_m = 1e12;  // two rigid geometries
  return c;
}

ContactProperties CombineHydroelasticContactProperties(const ContactProperties& a,
                                                       double modulus_a_Pa,
                                                       const ContactProperties& b,
                                                       double modulus_b_Pa,
                                                       const ContactSettings& settings) {
  const double ea = modulus_a_Pa, eb = modulus_b_Pa;
  ContactProperties c;
  c.stiffness_N_per_m = 0;
  c.hunt_crossley_s_per_m =
      CombineDissipation(ea, a.hunt_crossley_s_per_m, eb, b.hunt_crossley_s_per_m);
  c.relaxation_time_s = CombineDissipation(ea, a.relaxation_time_s, eb, b.relaxation_time_s);
  c.friction = CombineFriction(a.friction, b.friction);
  c.restitution = CombineRestitution(a.restitution, b.restitution);
  ApplyPairDissipationAndFriction(settings, &c);
  return c;
}

const ContactPairSpec* FindContactPair(const std::vector<ContactPairSpec>& pairs, int scene_body_a,
                                       int scene_body_b) {
  for (const ContactPairSpec& p : pairs) {
    if (p.Joins(scene_body_a, scene_body_b)) return &p;
  }
  return nullptr;
}

void ApplyContactPair(const ContactPairSpec& pair, const ContactSettings& settings,
                      bool point_contact, ContactProperties* c) {
  auto apply = [](const std::optional<double>& own, const std::optional<double>& global,
                  double* value) {
    if (own && !global) *value = *own;
  };
  if (point_contact)
    apply(pair.stiffness_N_per_m, settings.stiffness_N_per_m, &c->stiffness_N_per_m);
  apply(pair.hunt_crossley_s_per_m, settings.hunt_crossley_s_per_m, &c->hunt_crossley_s_per_m);
  apply(pair.relaxation_time_s, settings.relaxation_time_s, &c->relaxation_time_s);
  apply(pair.friction, settings.friction, &c->friction);
  apply(pair.restitution, settings.restitution, &c->restitution);
}

}  // namespace contactlab
