#include "engine/world/world_inputs.h"

#include <spdlog/spdlog.h>

namespace contactlab {

WorldInputs MakeInitialInputs(const WorldModel& model) {
  const SceneSpec& scene = model.scene();
  WorldInputs inputs;
  inputs.contact_settings = scene.contact_settings;
  inputs.contact_pairs = scene.contact_pairs;
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

void ResetActuation(const WorldModel& model, WorldInputs* inputs) {
  inputs->pd.clear();
  for (const SceneBody& sb : model.scene().bodies) inputs->pd.push_back(sb.pd);
  inputs->external_force = ExternalForce{};
}

}  // namespace contactlab
