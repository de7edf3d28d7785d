#include "engine/world/contact_parameter_values.h"

#include <spdlog/fmt/fmt.h>

#include <optional>
#include <stdexcept>

namespace contactlab {
namespace {

// The optional k, d, τ_d or μ of the settings' global overrides or of a pair's own values
// (ContactSettings and ContactPairSpec name them alike); null for v_s and restitution.
template <typename Values>
auto Slot(Values& values, ContactParameter parameter) -> decltype(&values.friction) {
  switch (parameter) {
    case ContactParameter::kStiffness:
      return &values.stiffness_N_per_m;
    case ContactParameter::kHuntCrossley:
      return &values.hunt_crossley_s_per_m;
    case ContactParameter::kRelaxationTime:
      return &values.relaxation_time_s;
    case ContactParameter::kFriction:
      return &values.friction;
    default:
      return nullptr;
  }
}

// E_h is fitted as one value for every compliant geometry (docs/contact-model.md §9): a pair has
// none of its own.
void CheckGlobalModulus(int contact_pair) {
  if (contact_pair >= 0) {
    throw std::invalid_argument(
        "the hydroelastic modulus is a compliant geometry's, not a pair's: it is differentiated "
        "as one value for every compliant geometry");
  }
}

// The one E_h of the compliant geometries, added one by one: throws when two differ or, asked
// for its value, when there was none.
class SharedModulus {
 public:
  void Add(double modulus_Pa) {
    if (modulus_Pa_ && *modulus_Pa_ != modulus_Pa) {
      throw std::invalid_argument(fmt::format(
          "the compliant geometries have different hydroelastic moduli ({} and {} Pa): the "
          "derivative is with respect to one value for all of them",
          *modulus_Pa_, modulus_Pa));
    }
    modulus_Pa_ = modulus_Pa;
  }
  double value() const {
    if (!modulus_Pa_) {
      throw std::invalid_argument(
          "no hydroelastic_compliant geometry: the scene has no hydroelastic modulus");
    }
    return *modulus_Pa_;
  }

 private:
  std::optional<double> modulus_Pa_;
};

}  // namespace

const char* GlobalParameterOptionName(ContactParameter parameter) {
  switch (parameter) {
    case ContactParameter::kStiffness:
      return "stiffness";
    case ContactParameter::kHuntCrossley:
      return "hunt-crossley";
    case ContactParameter::kRelaxationTime:
      return "relaxation-time";
    case ContactParameter::kFriction:
      return "friction";
    case ContactParameter::kStictionTolerance:
      return "stiction-tolerance";
    case ContactParameter::kHydroelasticModulus:
      return "hydroelastic-modulus";
    case ContactParameter::kRestitution:
      break;
  }
  return "restitution";
}

double GlobalParameterValue(const ContactSettings& settings, ContactParameter parameter) {
  if (parameter == ContactParameter::kStictionTolerance) {
    return settings.stiction_tolerance_m_per_s;
  }
  if (parameter == ContactParameter::kHydroelasticModulus) {
    throw std::invalid_argument(
        "the hydroelastic modulus is the compliant geometries' (WorldInputs::hydroelastic), not "
        "the settings'");
  }
  const std::optional<double>* value = Slot(settings, parameter);
  if (value == nullptr) {
    throw std::invalid_argument(
        "restitution is the rigid model's and has no derivative (docs/contact-model.md §9)");
  }
  if (!value->has_value()) {
    throw std::invalid_argument(fmt::format(
        "the derivative with respect to {0} needs one value for every pair: set --{0} to the "
        "value to differentiate at",
        GlobalParameterOptionName(parameter)));
  }
  return **value;
}

void SetGlobalParameterValue(ContactParameter parameter, double value, ContactSettings* settings) {
  if (parameter == ContactParameter::kStictionTolerance) {
    settings->stiction_tolerance_m_per_s = value;
    return;
  }
  std::optional<double>* slot = Slot(*settings, parameter);
  if (slot == nullptr) {
    throw std::invalid_argument(
        fmt::format("the settings hold no {}", GlobalParameterOptionName(parameter)));
  }
  *slot = value;
}

double ContactParameterValue(const WorldInputs& inputs, ContactParameter parameter,
                             int contact_pair) {
  if (parameter == ContactParameter::kHydroelasticModulus) {
    CheckGlobalModulus(contact_pair);
    SharedModulus modulus;
    for (const HydroelasticRepresentation& r : inputs.hydroelastic) {
      if (r.compliant) modulus.Add(r.modulus_Pa);
    }
    return modulus.value();
  }
  if (contact_pair < 0) return GlobalParameterValue(inputs.contact_settings, parameter);
  if (contact_pair >= static_cast<int>(inputs.contact_pairs.size())) {
    throw std::invalid_argument(fmt::format("no contact pair #{}", contact_pair));
  }
  const std::optional<double>* own = Slot(inputs.contact_pairs[contact_pair], parameter);
  if (own == nullptr) {
    throw std::invalid_argument(fmt::format(
        "a pair's {} has no derivative: only stiffness, hunt-crossley, relaxation-time and "
        "friction are a pair's own",
        GlobalParameterOptionName(parameter)));
  }
  if (Slot(inputs.contact_settings, parameter)->has_value()) {
    throw std::invalid_argument(
        fmt::format("--{0} overrides every pair's {0}: a pair's own value does not act",
                    GlobalParameterOptionName(parameter)));
  }
  if (!own->has_value()) {
    throw std::invalid_argument(fmt::format(
        "contact pair #{} has no {} of its own to differentiate at (the scene's contact_pairs)",
        contact_pair, GlobalParameterOptionName(parameter)));
  }
  return **own;
}

void SetContactParameterValue(ContactParameter parameter, int contact_pair, double value,
                              WorldInputs* inputs) {
  if (parameter == ContactParameter::kHydroelasticModulus) {
    CheckGlobalModulus(contact_pair);
    for (HydroelasticRepresentation& r : inputs->hydroelastic) {
      if (!r.compliant) continue;
      r.compliant =
          std::make_shared<const hydroelastic::CompliantGeometry>(WithModulus(*r.compliant, value));
      r.modulus_Pa = value;
    }
    return;
  }
  if (contact_pair < 0) {
    SetGlobalParameterValue(parameter, value, &inputs->contact_settings);
    return;
  }
  std::optional<double>* slot = Slot(inputs->contact_pairs.at(contact_pair), parameter);
  if (slot == nullptr) throw std::invalid_argument("a pair's stiction tolerance is the scene's");
  *slot = value;
}

double SceneParameterValue(const SceneSpec& scene, ContactParameter parameter, int contact_pair) {
  if (parameter == ContactParameter::kHydroelasticModulus) {
    CheckGlobalModulus(contact_pair);
    SharedModulus modulus;
    for (const SceneBody& body : scene.bodies) {
      for (const GeometrySpec& g : body.geometries) {
        if (g.hydroelastic.model == ContactModel::kHydroelasticCompliant) {
          modulus.Add(g.hydroelastic.modulus_Pa);
        }
      }
    }
    return modulus.value();
  }
  WorldInputs inputs;
  inputs.contact_settings = scene.contact_settings;
  inputs.contact_pairs = scene.contact_pairs;
  return ContactParameterValue(inputs, parameter, contact_pair);
}

void SetSceneParameterValue(ContactParameter parameter, int contact_pair, double value,
                            SceneSpec* scene) {
  if (parameter == ContactParameter::kHydroelasticModulus) {
    CheckGlobalModulus(contact_pair);
    for (SceneBody& body : scene->bodies) {
      for (GeometrySpec& g : body.geometries) {
        if (g.hydroelastic.model == ContactModel::kHydroelasticCompliant) {
          g.hydroelastic.modulus_Pa = value;
        }
      }
    }
    return;
  }
  WorldInputs inputs;
  inputs.contact_settings = scene->contact_settings;
  inputs.contact_pairs = scene->contact_pairs;
  SetContactParameterValue(parameter, contact_pair, value, &inputs);
  scene->contact_settings = inputs.contact_settings;
  scene->contact_pairs = inputs.contact_pairs;
}

}  // namespace contactlab
