// The contact settings a user changes while a world runs (sliders, the command line), as one
// value: the scene holds the ones it starts with (SceneSpec), the world the ones in force
// (WorldInputs), and the snapshot, the timeline and the UI copies of it. A change to them is a
// ContactOverrides, applied by ApplyOverrides (docs/contact-model.md §6).
#pragma once

#include <optional>
#include <string>

#include "engine/solver/contact_parameters.h"
#include "engine/solver/time_integration.h"

namespace contactlab {

struct ContactSettings {
  double dt_s = 1e-3;          // δt > 0; under error control δt_max, the largest step (§1.2)
  TimeIntegration integrator;  // how a step advances time (§1.1–§1.2)
  ContactApproximation approximation = ContactApproximation::kLagged;
  double stiction_tolerance_m_per_s = 1e-4;  // v_s > 0 (Lagged, Similar; §2.3)
  double sap_sigma = 1e-3;                   // σ > 0 (SAP, regularized Lagged; §2.1)
  // Values that replace the combined property of every contact pair (§6); unset: each pair has
  // its own, combined from its geometries'. k > 0; d, τ_d, μ ≥ 0.
  std::optional<double> stiffness_N_per_m, hunt_crossley_s_per_m, relaxation_time_s, friction;
  std::optional<double> restitution;  // ε ∈ [0, 1] (the rigid model, §8)
  bool operator==(const ContactSettings&) const = default;
};

// A change to ContactSettings, from the command line or the UI: the values it holds replace
// theirs. `--stiffness 1e7` means every contact pair has k = 1e7 N/m.
struct ContactOverrides {
  std::optional<double> stiffness_N_per_m, hunt_crossley_s_per_m, relaxation_time_s, friction,
      restitution, stiction_tolerance_m_per_s, dt_s;
  std::optional<ContactApproximation> approximation;
  std::optional<TimeIntegration> integrator;  // the whole value, its accuracy included
  // Pair overrides to drop first, so that every pair has its own value again (the UI's exact
  // "reset to scene value"). δt, v_s and the approximation are one value per scene, which a
  // plain override restores exactly.
  struct Clear {
    bool stiffness = false, hunt_crossley = false, relaxation_time = false, friction = false,
         restitution = false;
    bool operator==(const Clear&) const = default;
  } clear;
  bool operator==(const ContactOverrides&) const = default;
};

// How a validation message names a setting: by the scene file's key ("dt", "sigma") or by the
// command-line option that changes it ("--dt"; σ has none and keeps its key).
enum class ContactSettingNames { kSceneKeys, kOptions };

// Throws std::invalid_argument "<where><name> must be …" for the first setting out of its range
// (above), or not finite.
void ValidateContactSettings(const ContactSettings& settings, const std::string& where,
                             ContactSettingNames names);

// Applies `change` to `settings`: drops the pair overrides `change.clear` names, then sets the
// values it holds. Validates the result (by option names) first: on a bad value it throws
// std::invalid_argument naming the option and changes nothing.
void ApplyOverrides(const ContactOverrides& change, ContactSettings* settings);

}  // namespace contactlab
