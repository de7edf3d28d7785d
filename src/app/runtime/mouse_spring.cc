#include "app/runtime/mouse_spring.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>
#include <utility>

namespace contactlab {

MouseSpring::MouseSpring(std::function<void(std::string)> error) : error_(std::move(error)) {}

void MouseSpring::Set(const Perturbation& next, World* world) {
  if (next.scene_body == -1) {
    Release(world);
    return;
  }
  try {
    PerturbationForce(*world, next);  // validates
  } catch (const std::exception& e) {
    error_(fmt::format("perturbation rejected: {}", e.what()));
    return;
  }
  if (perturbation_.scene_body != next.scene_body) {
    Release(world);
    start_s_ = world->time();
    peak_N_ = 0;
    const Eigen::Vector3d p_WQ = world->BodyPose(next.scene_body) * next.p_BoQ_B;
    spdlog::info(
        "sim runtime: perturbation: pulling '{}' at ({:.3f}, {:.3f}, {:.3f}) m from t = {:.3f} s",
        world->scene().bodies[next.scene_body].body.name, p_WQ.x(), p_WQ.y(), p_WQ.z(),
        world->time());
  }
  perturbation_ = next;
}

void MouseSpring::Release(World* world) {
  if (perturbation_.scene_body < 0) return;
  spdlog::info(
      "sim runtime: perturbation: released '{}' at t = {:.3f} s after {:.3f} s, peak force "
      "{:.2f} N",
      world->scene().bodies[perturbation_.scene_body].body.name, world->time(),
      world->time() - start_s_, peak_N_);
  perturbation_ = Perturbation{};
  world->SetExternalForce({});
}

void MouseSpring::Apply(World* world) {
  if (perturbation_.scene_body < 0) return;
  try {
    const ExternalForce f = PerturbationForce(*world, perturbation_);
    world->SetExternalForce(f);
    peak_N_ = std::max(peak_N_, f.f_Q_W.norm());
  } catch (const std::exception& e) {
    error_(fmt::format("perturbation stopped: {}", e.what()));
    Release(world);
  }
}

void MouseSpring::Fill(const World& world, PerturbationView* view) const {
  PerturbationView& p = *view;
  p.body = perturbation_.scene_body;
  if (p.body < 0) return;
  p.p_WQ = world.BodyPose(p.body) * perturbation_.p_BoQ_B;
  p.target_W = perturbation_.target_W;
  p.f_W = world.inputs().external_force.f_Q_W;
}

}  // namespace contactlab
