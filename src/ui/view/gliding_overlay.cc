#include "ui/view/gliding_overlay.h"

#include <imgui.h>

#include <cstdio>
#include <optional>

#include "engine/solver/contact_parameters.h"
#include "render/contact_colors.h"
#include "ui/view/contact_picking.h"
#include "ui/view/gliding_line.h"
#include "ui/widgets/contact_color_bar.h"
#include "ui/widgets/widgets.h"

namespace contactlab {
namespace {

// Half the drawn length of a line [pixels]: long enough to see, whatever the zoom.
constexpr float kHalfLengthPx = 40.0f;
constexpr float kGapPx = 7.0f;  // about a contact marker's radius
constexpr ImU32 kSurfaceColor = IM_COL32(230, 230, 230, 200);
constexpr ImU32 kGlidingColor =
    IM_COL32(kGlidingLineColor.r, kGlidingLineColor.g, kGlidingLineColor.b, 255);

ImVec2 ToIm(const Eigen::Vector2f& p) { return ImVec2(p.x(), p.y()); }

// The line's screen direction: the tangent through the projection, kHalfLengthPx long.
std::optional<Eigen::Vector2f> ScreenHalfTangent(const Eigen::Matrix4f& vp,
                                                 const Eigen::Vector2f& viewport,
                                                 const GlidingLine& line,
                                                 const Eigen::Vector2f& at) {
  constexpr double kProbe_m = 0.01;
  const std::optional<Eigen::Vector2f> q =
      ProjectToScreen(vp, line.surface_W + kProbe_m * line.tangent_W, viewport);
  if (!q || !((*q - at).norm() > 1e-3f)) return std::nullopt;
  return kHalfLengthPx * (*q - at).normalized();
}

void Label(const Eigen::Vector2f& at, const GlidingLine& line, ContactApproximation model) {
  char text[96];
  std::snprintf(
      text, sizeof text, "gliding %s (%s), true scale",
      FormatContactValue(line.offset_m, line.offset_m, ContactColorMode::kGliding).c_str(),
      ApproximationLabel(model));
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const ImVec2 p(at.x() + kHalfLengthPx + 6, at.y() - 0.5f * ImGui::GetFontSize());
  const ImVec2 size = ImGui::CalcTextSize(text);
  draw->AddRectFilled(ImVec2(p.x - 3, p.y - 1), ImVec2(p.x + size.x + 3, p.y + size.y + 1),
                      IM_COL32(20, 20, 24, 190), 3.0f);
  draw->AddText(p, kGlidingColor, text);
}

}  // namespace

void GlidingOverlay(const Snapshot& snapshot, const Eigen::Matrix4f& view_projection,
                    const Eigen::Vector2f& viewport_px, int plot_body) {
  // One line per body, at its pressed contact of the largest offset (several lines over a
  // box's corners would hide their markers).
  std::optional<GlidingLine> line;
  for (const ContactResult& c : snapshot.contacts) {
    const std::optional<GlidingLine> l = ComputeGlidingLine(c, plot_body);
    if (l && (!line || l->offset_m > line->offset_m)) line = l;
  }
  if (!line) return;
  const auto s = ProjectToScreen(view_projection, line->surface_W, viewport_px);
  const auto g = ProjectToScreen(view_projection, line->predicted_W, viewport_px);
  if (!s || !g) return;
  const std::optional<Eigen::Vector2f> h =
      ScreenHalfTangent(view_projection, viewport_px, *line, *s);
  if (!h) return;
  // Each line in two halves with a gap at the contact point, where its marker is.
  const Eigen::Vector2f gap = (kGapPx / kHalfLengthPx) * *h;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  for (const float side : {-1.0f, 1.0f}) {
    draw->AddLine(ToIm(*s + side * gap), ToIm(*s + side * *h), kSurfaceColor, 1.0f);
    draw->AddLine(ToIm(*g + side * gap), ToIm(*g + side * *h), kGlidingColor, 2.0f);
  }
  Label(*g, *line, snapshot.contact_settings.approximation);
}

}  // namespace contactlab
