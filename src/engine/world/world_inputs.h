// What changes while a World runs, next to its state (q, v, t), while the model stays const
// (MuJoCo's mjData next to mjModel): the live contact settings, the hydroelastic
// representations, and the actuation (PD targets and effort limits).
#pragma once

#include <Eigen/Core>
#include <optional>
#include <vector>

#include "engine/hydroelastic/hydroelastic_representation.h"
#include "engine/world/world_model.h"

namespace contactlab {

// A force applied to one body at a body-fixed point, held until changed: a user's mouse spring
// (MuJoCo simulate's perturbation), or any other external push. Only bodies of the multibody
// (dynamic bodies, robot links included) can be pushed.
struct ExternalForce {
  int scene_body = -1;                                // −1: no force
  Eigen::Vector3d p_BoQ_B = Eigen::Vector3d::Zero();  // application point Q, body frame [m]
  Eigen::Vector3d f_Q_W = Eigen::Vector3d::Zero();    // the force at Q, world frame [N]
};

struct WorldInputs {
  // The contact settings in force, which a user changes live (sliders, the command line);
  // World::Reset keeps them, as MuJoCo's simulate keeps its option changes over a reset.
  ContactSettings contact_settings;
  // The pairs of bodies with contact properties of their own (the scene's contact_pairs, §6),
  // which a derivative or a calibration moves (docs/contact-model.md §9–§10).
  std::vector<ContactPairSpec> contact_pairs;
  // Per geometry (WorldModel order): its hydroelastic representation, replaceable between
  // steps (World::SetHydroelasticGeometry); model kPoint and no meshes for point contact.
  std::vector<HydroelasticRepresentation> hydroelastic;

  // Actuation, which World::Reset restores from the model (like MuJoCo's mj_resetData).
  // Per scene body: its PD controller's targets, gains and effort limit, if it has one.
  std::vector<std::optional<JointPdSpec>> pd;
  // An external force, held over steps until changed; World::Reset removes it.
  ExternalForce external_force;
};

// The inputs a model starts with: the scene's own settings and PD targets, and the
// hydroelastic representations built from its geometry specs (meshing: off the step).
WorldInputs MakeInitialInputs(const WorldModel& model);

// The actuation of the model's initial state, without an external force.
void ResetActuation(const WorldModel& model, WorldInputs* inputs);

}  // namespace contactlab
