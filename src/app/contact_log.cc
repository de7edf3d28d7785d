#include "app/contact_log.h"

#include <iterator>
#include <stdexcept>

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

ContactLog::ContactLog(const std::string& path) : file_(std::fopen(path.c_str(), "w")) {
  if (!file_) {
    throw std::runtime_error(fmt::format("{}: cannot open the contact log for writing", path));
  }
  std::fputs(
      "t,body_a,body_b,px,py,pz,nx,ny,nz,signed_distance,signed_distance_end,normal_velocity,"
      "slip_speed,normal_force,friction_force,state,gliding_offset,effective_stiffness,"
      "effective_stiction_tolerance\n",
      file_.get());
}

void ContactLog::Write(const World& world) {
  const std::vector<SceneBody>& bodies = world.scene().bodies;
  for (const ContactResult& c : world.contacts()) {
    line_.clear();
    auto out = std::back_inserter(line_);
    fmt::format_to(out, "{:.9g},{},{},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g}", world.time(),
                   bodies[c.body_a].body.name, bodies[c.body_b].body.name, c.position_W.x(),
                   c.position_W.y(), c.position_W.z(), c.normal_W.x(), c.normal_W.y(),
                   c.normal_W.z());
    fmt::format_to(out, ",{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{}", c.signed_distance_m,
                   c.signed_distance_end_m, c.normal_velocity, c.slip_speed_m_per_s,
                   c.normal_force_W.norm(), c.friction_force_W.norm(), ContactStateName(c.state));
    fmt::format_to(out, ",{:.9g},{:.9g},{:.9g}\n", c.gliding_offset_m,
                   c.effective_stiffness_N_per_m, c.effective_stiction_tolerance_m_per_s);
    std::fwrite(line_.data(), 1, line_.size(), file_.get());
  }
}

}  // namespace contactlab
