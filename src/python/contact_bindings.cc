#include "python/contact_bindings.h"

#include <pybind11/eigen.h>

#include <utility>

namespace contactlab {
namespace py = pybind11;

namespace {

py::dict Contacts(const World& world) {
  using Rows3 = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
  const std::vector<ContactResult>& contacts = world.contacts();
  const Eigen::Index n = static_cast<Eigen::Index>(contacts.size());
  Rows3 position(n, 3), normal(n, 3), force(n, 3);
  Eigen::VectorXd normal_force(n), slip_speed(n), signed_distance(n);
  Eigen::VectorXi body_a(n), body_b(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const ContactResult& c = contacts[i];
    position.row(i) = c.position_W;
    normal.row(i) = c.normal_W;
    force.row(i) = c.normal_force_W + c.friction_force_W;
    normal_force[i] = c.normal_force_W.norm();
    slip_speed[i] = c.slip_velocity_W.norm();
    signed_distance[i] = c.signed_distance_m;
    body_a[i] = c.body_a;
    body_b[i] = c.body_b;
  }
  // The arrays are moved into NumPy, not copied.
  py::dict out;
  out["position"] = py::cast(std::move(position));
  out["normal"] = py::cast(std::move(normal));
  out["force"] = py::cast(std::move(force));
  out["normal_force"] = py::cast(std::move(normal_force));
  out["slip_speed"] = py::cast(std::move(slip_speed));
  out["signed_distance"] = py::cast(std::move(signed_distance));
  out["body_a"] = py::cast(std::move(body_a));
  out["body_b"] = py::cast(std::move(body_b));
  return out;
}

}  // namespace

void BindContacts(py::class_<World>* world) {
  world->def(
      "contacts", &Contacts,
      R"doc(The contacts of the last step (none before the first step or after reset()), a dict of
new NumPy arrays with one row per contact; a hydroelastic contact surface gives one row per face set
(docs/contact-model.md §5). Those within the contact margin that did not act are included, with zero
force. World frame, SI units:

  position         (n, 3) where the force acts, found at the step's start [m]
  normal           (n, 3) the unit normal, from body A into body B
  force            (n, 3) the force on B (minus it on A), normal and friction, averaged over
                   the step [N]
  normal_force     (n,)   the magnitude of its normal part [N]
  slip_speed       (n,)   the slip speed of B relative to A at the step's end [m/s]
  signed_distance  (n,)   the signed distance at the step's start [m] (a hydroelastic face
                   set: minus the penetration its pressure implies; NaN where not defined)
  body_a, body_b   (n,)   the two bodies, as indices into body_names
)doc");
}

}  // namespace contactlab
