#include "engine/solver/contact_settings.h"

#include <stdexcept>
#include <string>

#include "engine/solver/value_checks.h"

namespace contactlab {
namespace {

// A pair override is checked when it is set.
void CheckPositiveIfSet(const std::optional<double>& value, const std::string& what) {
  if (value) CheckPositive(*value, what);
}
void CheckNonNegativeIfSet(const std::optional<double>& value, const std::string& what) {
  if (value) CheckNonNegative(*value, what);
}

}  // namespace

void ValidateContactSettings(const ContactSettings& s, const std::string& where,
                             ContactSettingNames names) {
  auto name = [&](const char* scene_key, const char* option) {
    return where + (names == ContactSettingNames::kSceneKeys ? scene_key : option);
  };
  CheckPositive(s.dt_s, name("dt", "--dt"));
  ValidateTimeIntegration(s.integrator, name("integrator", "--integrator"),
                          name("accuracy", "--accuracy"));
  CheckPositive(s.stiction_tolerance_m_per_s, name("stiction_tolerance", "--stiction-tolerance"));
  CheckPositive(s.sap_sigma, name("sigma", "sigma"));
  CheckPositiveIfSet(s.stiffness_N_per_m, name("stiffness", "--stiffness"));
  CheckNonNegativeIfSet(s.hunt_crossley_s_per_m, name("hunt_crossley", "--hunt-crossley"));
  CheckNonNegativeIfSet(s.relaxation_time_s, name("relaxation_time", "--relaxation-time"));
  CheckNonNegativeIfSet(s.friction, name("friction", "--friction"));
  if (s.restitution && !(*s.restitution >= 0 && *s.restitution <= 1)) {
    throw std::invalid_argument(name("restitution", "--restitution") +
                                " must be from 0 to 1, got " + std::to_string(*s.restitution));
  }
}

void ApplyOverrides(const ContactOverrides& change, ContactSettings* settings) {
  ContactSettings s = *settings;
  if (change.clear.stiffness) s.stiffness_N_per_m.reset();
  if (change.clear.hunt_crossley) s.hunt_crossley_s_per_m.reset();
  if (change.clear.relaxation_time) s.relaxation_time_s.reset();
  if (change.clear.friction) s.friction.reset();
  if (change.clear.restitution) s.restitution.reset();
  if (change.stiffness_N_per_m) s.stiffness_N_per_m = change.stiffness_N_per_m;
  if (change.hunt_crossley_s_per_m) s.hunt_crossley_s_per_m = change.hunt_crossley_s_per_m;
  if (change.relaxation_time_s) s.relaxation_time_s = change.relaxation_time_s;
  if (change.friction) s.friction = change.friction;
  if (change.restitution) s.restitution = change.restitution;
  if (change.stiction_tolerance_m_per_s) {
    s.stiction_tolerance_m_per_s = *change.stiction_tolerance_m_per_s;
  }
  if (change.dt_s) s.dt_s = *change.dt_s;
  if (change.approximation) s.approximation = *change.approximation;
  if (change.integrator) s.integrator = *change.integrator;
  ValidateContactSettings(s, "", ContactSettingNames::kOptions);
  *settings = s;
}

}  // namespace contactlab
