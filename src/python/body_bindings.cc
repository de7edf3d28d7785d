#include "python/body_bindings.h"

#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <spdlog/fmt/fmt.h>

#include <utility>
#include <vector>

namespace contactlab {
namespace py = pybind11;

namespace {

std::vector<std::string> BodyNames(const World& world) {
  std::vector<std::string> names;
  for (const SceneBody& body : world.scene().bodies) names.push_back(body.body.name);
  return names;
}

// (p_WB, quaternion of R_WB), the quaternion as the log CSV writes it (Eigen's from R_WB).
std::pair<Eigen::Vector3d, Eigen::Vector4d> BodyPose(const World& world, const BodyArgument& body) {
  const Eigen::Isometry3d X_WB = world.BodyPose(SceneBodyIndex(world, body));
  const Eigen::Quaterniond q_WB(X_WB.linear());
  return {X_WB.translation(), Eigen::Vector4d(q_WB.w(), q_WB.x(), q_WB.y(), q_WB.z())};
}

}  // namespace

int SceneBodyIndex(const World& world, const BodyArgument& body) {
  const int num_bodies = static_cast<int>(world.scene().bodies.size());
  if (const int* index = std::get_if<int>(&body)) {
    if (*index < 0 || *index >= num_bodies) {
      throw py::index_error(
          fmt::format("body {} out of range: the scene has {} bodies", *index, num_bodies));
    }
    return *index;
  }
  const std::string& name = std::get<std::string>(body);
  const int index = world.scene().FindBody(name);
  if (index < 0) {
    throw py::value_error(
        fmt::format("no body named '{}' in scene '{}' (World.body_names lists them)", name,
                    world.scene().name));
  }
  return index;
}

void BindBodies(py::class_<World>* world) {
  world->def_property_readonly(
      "body_names", &BodyNames,
      R"doc(The scene's bodies by name, in scene order (static and kinematic ones and robot links
too); a method that takes a body takes one of these names or its index in this list.
)doc");
  world->def(
      "body_pose", &BodyPose, py::arg("body"),
      R"doc(The body's pose in the world at the current state: (p_WB, quaternion_WB), the position
of its frame's origin [m] (3,) and its orientation as a unit quaternion [w, x, y, z] (4,).
)doc");
  world->def(
      "body_velocity",
      [](const World& w, const BodyArgument& body) -> Eigen::Matrix<double, 6, 1> {
        return w.BodyVelocity(SceneBodyIndex(w, body));
      },
      py::arg("body"),
      R"doc(The body's spatial velocity in the world frame, [ω (3) [rad/s], v (3) [m/s]] (6,): its
angular velocity and the velocity of its frame's origin. A kinematic body reports its mean velocity
over the last step (the one the solver used); a static body zero.
)doc");
}

}  // namespace contactlab
