// The stiffness a contact achieved in the step against the one its pair asked for
// (ContactResult::effective_stiffness_N_per_m, requested_stiffness_N_per_m): in the Contacts
// panel per contact, and beside the Contact model panel's stiffness slider for the pinned pair,
// so that a user sees when δt (SAP's near-rigid rule) caps what the slider asks for
// (docs/contact-model.md §2.1, §2.5 Table I). A rigid contact (§8) has no stiffness: its
// achieved stiffness is 0 whatever the pair's k, so it is not set against the requested one.
#pragma once

#include <string>

#include "engine/solver/contact_parameters.h"
#include "engine/world/step_results.h"
#include "ui/state/ui_state.h"

namespace contactlab {

// Why the achieved stiffness differs from the requested one: "capped by the near-rigid rule
// (dt)" (SAP's R_n took its near-rigid term), "softened while sliding (SAP)" (k_R/(1 + μ̃²)),
// "stiffened while slipping (Similar)" (k(1 + μ·d·‖v_t‖)), or "as requested" (within 1e-6);
// under a rigid model (IsRigidModel) "none: rigid contact".
const char* StiffnessNote(const ContactResult& c, ContactApproximation model);

// "1.23e+05 / 1e+06 N/m": achieved / requested, three significant digits.
std::string StiffnessRatioText(const ContactResult& c);

// Under the stiffness slider: "selected pair: achieved X of requested Y N/m" and the note, for
// the contact pinned in the Contacts panel (its last values when out of contact); nothing when
// none is pinned or it was last seen under a rigid model (whose slider is greyed out).
void SelectedPairStiffness(const UiState& ui);

}  // namespace contactlab
