#include "app/contact_log.h"

#include <iterator>

namespace contactlab {

const char* ContactStateName(ContactResult::State state) {
  switch (state) {
    case ContactResult::State::kStick:
      return "stick";
    case ContactResult::State::kSlip:
      return "slip";
    case ContactResult::State::kSeparating:
      return "separating";
    case ContactResult::State::kMargin:
      return "margin";
  }
  return "?";
}

ContactLog::ContactLog(const std::string& path)
    : file_(path, "contact log",
            "t,body_a,body_b,px,py,pz,nx,ny,nz,signed_distance,signed_distance_end,"
            "normal_velocity,slip_speed,normal_force,friction_force,state,gliding_offset,"
            "effective_stiffness,effective_stiction_tolerance") {}

void ContactLog::Write(const World& world) {
  const std::vector<SceneBody>& bodies = world.scene().bodies;
  for (const ContactResult& c : world.contacts()) {
    auto out = std::back_inserter(file_.BeginRow());
    fmt::format_to(out, "{:.9g},{},{},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g}", world.time(),
                   bodies[c.body_a].body.name, bodies[c.body_b].body.name, c.position_W.x(),
                   c.position_W.y(), c.position_W.z(), c.normal_W.x(), c.normal_W.y(),
                   c.normal_W.z());
    fmt::format_to(out, ",{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{}", c.signed_distance_m,
                   c.signed_distance_end_m, c.normal_velocity, c.slip_velocity_W.norm(),
                   c.normal_force_W.norm(), c.friction_force_W.norm(), ContactStateName(c.state));
    fmt::format_to(out, ",{:.9g},{:.9g},{:.9g}", c.gliding_offset_m, c.effective_stiffness_N_per_m,
                   c.effective_stiction_tolerance_m_per_s);
    file_.EndRow();
  }
}

}  // namespace contactlab
