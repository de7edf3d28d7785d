#include "app/headless/contact_log.h"

#include <cmath>
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

const char kContactCsvHeader[] =
    "t,body_a,body_b,px,py,pz,nx,ny,nz,signed_distance,signed_distance_end,"
    "normal_velocity,slip_speed,normal_force,friction_force,state,gliding_offset,"
    "effective_stiffness,effective_stiction_tolerance,pressure,requested_stiffness";

namespace {

// ",value", or "," alone for a value that is not there (a hydroelastic face's penetration
// where its pressure field does not define one; a point contact's pressure).
void AppendOptional(bool present, double value, fmt::memory_buffer* row) {
  if (present) {
    fmt::format_to(std::back_inserter(*row), ",{:.9g}", value);
  } else {
    row->push_back(',');
  }
}

}  // namespace

void AppendContactRow(double t_s, const std::vector<SceneBody>& bodies, const ContactResult& c,
                      fmt::memory_buffer* row) {
  auto out = std::back_inserter(*row);
  fmt::format_to(out, "{:.9g},{},{},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g}", t_s,
                 bodies[c.body_a].body.name, bodies[c.body_b].body.name, c.position_W.x(),
                 c.position_W.y(), c.position_W.z(), c.normal_W.x(), c.normal_W.y(),
                 c.normal_W.z());
  // A hydroelastic face's distances are the penetration its pressure implies
  // (docs/contact-model.md §5), not the solver's φ0 = −p/g.
  AppendOptional(std::isfinite(c.signed_distance_m), c.signed_distance_m, row);
  AppendOptional(std::isfinite(c.signed_distance_end_m), c.signed_distance_end_m, row);
  fmt::format_to(out, ",{:.9g},{:.9g},{:.9g},{:.9g},{}", c.normal_velocity,
                 c.slip_velocity_W.norm(), c.normal_force_W.norm(), c.friction_force_W.norm(),
                 ContactStateName(c.state));
  fmt::format_to(out, ",{:.9g},{:.9g},{:.9g}", c.gliding_offset_m, c.effective_stiffness_N_per_m,
                 c.effective_stiction_tolerance_m_per_s);
  AppendOptional(c.hydroelastic_patch >= 0, c.pressure_Pa, row);
  fmt::format_to(out, ",{:.9g}", c.requested_stiffness_N_per_m);
}

ContactLog::ContactLog(const std::string& path) : file_(path, "contact log", kContactCsvHeader) {}

void ContactLog::Write(const World& world) {
  for (const ContactResult& c : world.contacts()) {
    AppendContactRow(world.time(), world.scene().bodies, c, &file_.BeginRow());
    file_.EndRow();
  }
}

void WriteContactsCsv(const std::string& path, double t_s, const std::vector<SceneBody>& bodies,
                      const std::vector<ContactResult>& contacts) {
  CsvFile file(path, "contact export", kContactCsvHeader);
  for (const ContactResult& c : contacts) {
    AppendContactRow(t_s, bodies, c, &file.BeginRow());
    file.EndRow();
  }
}

}  // namespace contactlab
