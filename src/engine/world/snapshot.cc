#include "engine/world/snapshot.h"

namespace contactlab {

void FillSnapshot(const World& world, const std::shared_ptr<const SceneSpec>& scene,
                  uint64_t scene_generation, uint64_t step_index, Snapshot* s) {
  s->scene = scene;
  s->scene_generation = scene_generation;
  s->step_index = step_index;
  s->time_s = world.time();
  const int nb = static_cast<int>(world.scene().bodies.size());
  const int ng = world.num_geometries();
  s->body_poses.resize(nb);
  s->net_normal_force.resize(nb);
  s->net_friction_force.resize(nb);
  for (int b = 0; b < nb; ++b) {
    s->body_poses[b] = world.BodyPose(b);
    s->net_normal_force[b] = world.NetNormalForce(b);
    s->net_friction_force[b] = world.NetFrictionForce(b);
  }
  s->geometry_poses.resize(ng);
  s->geometry_body.resize(ng);
  s->geometries.resize(ng);
  for (int g = 0; g < ng; ++g) {
    s->geometry_poses[g] = world.GeometryPose(g);
    s->geometry_body[g] = world.geometry_body(g);
  }
  // Point into the shared scene (not the world's copy), in World's order: bodies in scene
  // order, each body's geometries in order. Snapshots may outlive the world.
  int g = 0;
  for (const SceneBody& body : scene->bodies) {
    for (const GeometrySpec& spec : body.geometries) {
      if (g < ng) s->geometries[g] = &spec;
      ++g;
    }
  }
  s->contacts.assign(world.contacts().begin(), world.contacts().end());
  s->stats = world.last_stats();
  s->approximation = world.scene().approximation;
  s->dt_s = world.scene().dt_s;
  s->stiction_tolerance_m_per_s = world.scene().stiction_tolerance_m_per_s;
  s->overrides = world.scene().overrides;
}

}  // namespace contactlab
