#include "engine/solver/contact_settings.h"

#include <spdlog/fmt/fmt.h>

#include <cmath>
#include <stdexcept>

namespace contactlab {
namespace {

enum class Range { kPositive, kNonNegative };

void Check(double value, Range range, const std::string& where, const char* name) {
  const char* requirement = "";
  bool ok = std::isfinite(value);
  switch (range) {
    case Range::kPositive:
      ok = ok && value > 0;
      requirement = "a positive finite number";
      break;
    case Range::kNonNegative:
      ok = ok && value >= 0;
      requirement = "a non-negative finite number";
      break;
  }
  if (!ok) {
    throw std::invalid_argument(
        fmt::format("{}{} must be {}, got {}", where, name, requirement, value));
  }
}

void Check(const std::optional<double>& value, Range range, const std::string& where,
           const char* name) {
  if (value) Check(*value, range, where, name);
}

}  // namespace

void ValidateContactSettings(const ContactSettings& s, const std::string& where,
                             ContactSettingNames names) {
  auto name = [names](const char* scene_key, const char* option) {
    return names == ContactSettingNames::kSceneKeys ? scene_key : option;
  };
  Check(s.dt_s, Range::kPositive, where, name("dt", "--dt"));
  Check(s.stiction_tolerance_m_per_s, Range::kPositive, where,
        name("stiction_tolerance", "--stiction-tolerance"));
  Check(s.sap_sigma, Range::kPositive, where, "sigma");
  Check(s.stiffness_N_per_m, Range::kPositive, where, name("stiffness", "--stiffness"));
  Check(s.hunt_crossley_s_per_m, Range::kNonNegative, where,
        name("hunt_crossley", "--hunt-crossley"));
  Check(s.relaxation_time_s, Range::kNonNegative, where,
        name("relaxation_time", "--relaxation-time"));
  Check(s.friction, Range::kNonNegative, where, name("friction", "--friction"));
}

void ApplyOverrides(const ContactOverrides& change, ContactSettings* settings) {
  ContactSettings s = *settings;
  if (change.clear.stiffness) s.stiffness_N_per_m.reset();
  if (change.clear.hunt_crossley) s.hunt_crossley_s_per_m.reset();
  if (change.clear.relaxation_time) s.relaxation_time_s.reset();
  if (change.clear.friction) s.friction.reset();
  if (change.stiffness_N_per_m) s.stiffness_N_per_m = change.stiffness_N_per_m;
  if (change.hunt_crossley_s_per_m) s.hunt_crossley_s_per_m = change.hunt_crossley_s_per_m;
  if (change.relaxation_time_s) s.relaxation_time_s = change.relaxation_time_s;
  if (change.friction) s.friction = change.friction;
  if (change.stiction_tolerance_m_per_s) {
    s.stiction_tolerance_m_per_s = *change.stiction_tolerance_m_per_s;
  }
  if (change.dt_s) s.dt_s = *change.dt_s;
  if (change.approximation) s.approximation = *change.approximation;
  ValidateContactSettings(s, "", ContactSettingNames::kOptions);
  *settings = s;
}

void ApplyPairDissipationAndFriction(const ContactSettings& settings, ContactProperties* pair) {
  if (settings.hunt_crossley_s_per_m) pair->hunt_crossley_s_per_m = *settings.hunt_crossley_s_per_m;
  if (settings.relaxation_time_s) pair->relaxation_time_s = *settings.relaxation_time_s;
  if (settings.friction) pair->friction = *settings.friction;
}

}  // namespace contactlab
