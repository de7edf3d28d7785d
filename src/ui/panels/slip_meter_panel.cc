#include "ui/panels/slip_meter_panel.h"

#include <imgui.h>
#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cmath>

#include "ui/widgets/plot_widget.h"
#include "ui/widgets/widgets.h"

namespace contactlab {

namespace {

const std::string& BodyName(const Snapshot& snapshot, int body) {
  static const std::string kWorld = "the world";
  return body >= 0 ? snapshot.scene->bodies[body].body.name : kWorld;
}

// The plot of the slip speed: 1 nm/s at the bottom (SlipPlotValue's floor).
constexpr float kPlotHeight = 110.0f;

}  // namespace

double SlipPlotValue(double slip_speed_m_per_s) {
  if (std::isnan(slip_speed_m_per_s)) return NAN;
  return std::log10(std::max(slip_speed_m_per_s, 1e-9) / 1e-6);
}

std::string SlipSpeedLabel(double speed_m_per_s) {
  const double um = speed_m_per_s * 1e6, mm = speed_m_per_s * 1e3;
  if (speed_m_per_s < 1e-3) return fmt::format("{:.3g} µm/s = {:.3g} mm/s", um, mm);
  return fmt::format("{:.3g} mm/s = {:.3g} µm/s", mm, um);
}

std::vector<std::string> SlipMeterLines(const Snapshot& snapshot) {
  const SlipReading& r = snapshot.slip_meter.reading;
  std::vector<std::string> lines;
  lines.push_back(fmt::format("{} in {}", BodyName(snapshot, r.body), BodyName(snapshot, r.hand)));
  if (r.hand < 0) lines.back() += " (no hand: world frame)";
  lines.push_back(r.held ? fmt::format("held by {} hand bodies since t = {:.3f} s",
                                       r.hand_bodies_touching, r.held_since_s)
                         : fmt::format("not held ({} hand bodies press)", r.hand_bodies_touching));
  if (!r.has_slip) {
    lines.push_back("slip: no step yet");
  } else {
    const Eigen::Vector3d v_um = 1e6 * r.v_slip_H;
    lines.push_back("slip " + SlipSpeedLabel(r.slip_speed_m_per_s()));
    lines.push_back(fmt::format("v_H ({:.3g}, {:.3g}, {:.3g}) µm/s", v_um.x(), v_um.y(), v_um.z()));
    lines.push_back(fmt::format("rotation {:.3g} mrad/s", 1e3 * r.w_slip_rad_per_s));
  }
  if (r.held_since_s >= 0 || r.creep_path_m > 0) {
    lines.push_back(fmt::format("creep {}: {:.3g} µm path",
                                r.held ? "since closed" : "of last grasp", 1e6 * r.creep_path_m));
    lines.push_back(fmt::format("  net {:.3g} µm, turned {:.3g} mrad", 1e6 * r.creep_displacement_m,
                                1e3 * r.creep_angle_rad));
  }
  return lines;
}

void SlipMeterPanel(const Snapshot& snapshot, const PlotData& plots, UiState* ui) {
  const std::vector<std::string> lines = SlipMeterLines(snapshot);
  for (size_t i = 0; i < lines.size(); ++i) {
    const bool dim = i == 0 || i == 1;  // which body, held: context for the numbers
    if (dim) {
      ImGui::TextColored(kDimColor, "%s", lines[i].c_str());
    } else {
      ImGui::TextUnformatted(lines[i].c_str());
    }
  }
  static constexpr int kSeries[] = {kSeriesMeterSlip};
  PlotWidget("slip_meter", "slip [log10 µm/s]", plots, kSeries, ui->plot_window, kPlotHeight,
             &ui->slip_meter_view);
}

}  // namespace contactlab
