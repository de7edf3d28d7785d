// The contact parameters a step is differentiated with respect to and a calibration fits
// (docs/contact-model.md §9–§10), as values: read and set in the live settings and pairs
// (WorldInputs) or in a scene (SceneSpec). A global k, d, τ_d or μ is the settings' override that
// replaces every pair's; a pair's own is its contact_pairs entry (§6); v_s is the settings'; E_h
// is every compliant geometry's.
#pragma once

#include "engine/solver/contact_constraint_factory.h"
#include "engine/solver/contact_settings.h"
#include "engine/world/scene_spec.h"
#include "engine/world/world_inputs.h"

namespace contactlab {

// A contact parameter as a global value: the ContactSettings value that replaces every pair's
// (k, d, τ_d, μ) or the stiction tolerance v_s. Throws std::invalid_argument when the settings
// hold no such value (a pair-combined property has no single value to differentiate) or the
// parameter is not one of those five.
double GlobalParameterValue(const ContactSettings& settings, ContactParameter parameter);
void SetGlobalParameterValue(ContactParameter parameter, double value, ContactSettings* settings);
// A parameter in the live inputs: global (`contact_pair` −1: the settings' value above, or E_h,
// one value for every compliant geometry) or one pair of bodies' own (`contact_pair`, an index
// into WorldInputs::contact_pairs). Throws std::invalid_argument when the pair does not hold the
// value, a global value overrides it for every pair (docs/contact-model.md §6), or for E_h when
// no geometry is compliant, their moduli differ, or a pair is named (it has none of its own).
double ContactParameterValue(const WorldInputs& inputs, ContactParameter parameter,
                             int contact_pair);
void SetContactParameterValue(ContactParameter parameter, int contact_pair, double value,
                              WorldInputs* inputs);
// The same in a scene's terms (its settings' overrides, its contact_pairs entries, its compliant
// geometries' E_h): the value a World made from the scene starts with.
double SceneParameterValue(const SceneSpec& scene, ContactParameter parameter, int contact_pair);
void SetSceneParameterValue(ContactParameter parameter, int contact_pair, double value,
                            SceneSpec* scene);
// Its name as calibrate's --fit (and, but for E_h, the command-line option that sets it) gives it:
// "stiffness", "hunt-crossley", "relaxation-time", "friction", "stiction-tolerance",
// "hydroelastic-modulus".
const char* GlobalParameterOptionName(ContactParameter parameter);

}  // namespace contactlab
