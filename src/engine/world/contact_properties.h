// Stage "contact properties" of a step: the physical properties of a contact pair, combined
// from the two geometries' own (docs/contact-model.md §6) and then replaced by the pair
// overrides of the live settings.
#pragma once

#include "engine/solver/contact_parameters.h"
#include "engine/world/scene_spec.h"

namespace contactlab {

// Point contact (§6): stiffnesses in series (a rigid side, k = ∞, leaves the other's), the
// dissipations d and τ_d weighted by the other side's stiffness, μ the harmonic mean 2μ_aμ_b /
// (μ_a + μ_b), ε the larger; then the overrides. Two rigid sides get k = 1e12 N/m.
ContactProperties CombinePointContactProperties(const ContactProperties& a,
                                                const ContactProperties& b,
                                                const ContactSettings& settings);

// The pair of bodies' own values (scene key contact_pairs), or null.
const ContactPairSpec* FindContactPair(const std::vector<ContactPairSpec>& pairs, int scene_body_a,
                                       int scene_body_b);
// Replaces c's values by the pair's own, those the live settings do not override for every pair
// (a `--friction` beats a pair's friction as it beats the geometries'). A face set keeps its own
// stiffness (§5): `point_contact` false.
void ApplyContactPair(const ContactPairSpec& pair, const ContactSettings& settings,
                      bool point_contact, ContactProperties* c);

// Hydroelastic pair (§5, §6): d and τ_d weighted by the hydroelastic moduli E_h (∞ for a rigid
// side) instead of the point stiffnesses, μ as for points, then the overrides. The stiffness
// is that of each face (k_f = A_f·g_f), not the pair's: returned as 0.
ContactProperties CombineHydroelasticContactProperties(const ContactProperties& a,
                                                       double modulus_a_Pa,
                                                       const ContactProperties& b,
                                                       double modulus_b_Pa,
                                                       const ContactSettings& settings);

}  // namespace contactlab
