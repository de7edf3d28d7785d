#include "engine/world/world_inputs.h"

#include <spdlog/spdlog.h>

namespace contactlab {

WorldInputs MakeInitialInputs(const WorldModel& model) {
  const SceneSpec& scene = model.scene();
  WorldInputs inputs;
  inputs.overrides = scene.overrides;
  inputs.dt_s = scene.dt_s;
  inputs.approximation = scene.approximation;
  inputs.stiction_tolerance_m_per_s = scene.stiction_tolerance_m_per_s;
  inputs.hydroelastic.resize(model.num_geometries());
  for (int g = 0; g < model.num_geometries(); ++g) {
    const GeometrySpec& spec = *model.geometry(g).spec;
    HydroelasticRepresentation& r = inputs.hydroelastic[g];
    r = BuildHydroelasticRepresentation(spec.name, spec.shape, spec.hydroelastic);
    if (r.compliant) {
      spdlog::debug(
          "hydroelastic: geometry '{}' compliant, E_h = {:.3g} Pa, edge {:.3g} m, {} tets",
          spec.name, r.modulus_Pa, r.resolution_m, r.num_tets());
    }
  }
  ResetActuation(model, &inputs);
  return inputs;
}

void ApplyOverrides(const ContactOverrides& o, WorldInputs* inputs) {
  ApplyOverrides(o, {&inputs->overrides, &inputs->dt_s, &inputs->approximation,
                     &inputs->stiction_tolerance_m_per_s});
}

void ResetActuation(const WorldModel& model, WorldInputs* inputs) {
  inputs->pd.clear();
  for (const SceneBody& sb : model.scene().bodies) inputs->pd.push_back(sb.pd);
  inputs->external_force = ExternalForce{};
}

}  // namespace contactlab
