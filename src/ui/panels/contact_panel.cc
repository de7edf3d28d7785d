#include "ui/panels/contact_panel.h"

#include <imgui.h>
#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/headless/contact_log.h"
#include "render/camera.h"
#include "render/contact_colors.h"
#include "render/render_layers.h"
#include "render/rgb8.h"
#include "render/view_projection.h"
#include "ui/panels/exports.h"
#include "ui/panels/stiffness_readout.h"
#include "ui/view/camera_views.h"
#include "ui/view/contact_picking.h"
#include "ui/view/gliding_overlay.h"
#include "ui/widgets/widgets.h"

namespace contactlab {
namespace {

constexpr ImU32 kHoverRing = IM_COL32(255, 255, 255, 230);
constexpr ImU32 kPinRing = IM_COL32(0, 230, 255, 255);

const char* Name(const Snapshot& s, int b) {
  if (!s.scene || b < 0 || b >= static_cast<int>(s.scene->bodies.size())) return "?";
  return s.scene->bodies[b].body.name.c_str();
}

std::string Value(double value, const char* unit) { return fmt::format("{:.4g} {}", value, unit); }

// A penetration from a negated signed distance; NaN: the pressure field defines none there.
std::string Penetration(double signed_distance_m) {
  return std::isfinite(signed_distance_m) ? Value(-signed_distance_m, "m") : "n/a";
}

// The distance rows (docs/contact-model.md §5 for a hydroelastic face set).
void AppendDistanceRows(const ContactResult& c, std::vector<DiagnosticRow>* rows) {
  if (c.hydroelastic_patch < 0) {
    rows->push_back({"phi start", Value(c.signed_distance_m, "m")});
    rows->push_back({"phi end", Value(c.signed_distance_end_m, "m")});
    return;
  }
  rows->push_back({"penetration (p field)", Penetration(c.signed_distance_m)});
  rows->push_back({"penetration end", Penetration(c.signed_distance_end_m)});
  rows->push_back({"pressure", Value(c.pressure_Pa, "Pa")});
  rows->push_back({"face area", Value(c.face_area_m2, "m^2")});
  rows->push_back({"faces", c.hydroelastic_num_faces > 0 ? std::to_string(c.hydroelastic_num_faces)
                                                         : std::string("tiny polygons, pooled")});
}

void ColorModeCombo(RenderLayers* layers) {
  static constexpr const char* kModes[] = {"state", "gliding offset", "slip speed"};
  int mode = static_cast<int>(layers->contact_colors);
  ImGui::SetNextItemWidth(140);
  if (ImGui::Combo("point colours", &mode, kModes, 3)) {
    layers->contact_colors = static_cast<ContactColorMode>(mode);
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "contact points by state (green stick, orange slip, blue margin), or on\n"
        "the colour bar by gliding offset or slip speed (0 .. auto top)");
  }
}

void PinnedReadout(const Snapshot& snapshot, PinnedContact* pinned) {
  if (!pinned->active) {
    ImGui::TextColored(kDimColor,
                       "hover a contact point for its diagnostics;\nclick it to pin it here");
    return;
  }
  if (pinned->present) {
    ImGui::Text("pinned: %s / %s, followed", Name(snapshot, pinned->body_a),
                Name(snapshot, pinned->body_b));
  } else {
    ImGui::TextColored(ImVec4(1, 0.7f, 0.3f, 1), "%s / %s not in contact; as at t = %.3f s",
                       Name(snapshot, pinned->body_a), Name(snapshot, pinned->body_b),
                       pinned->time_s);
  }
  ContactDiagnosticsTable(snapshot, pinned->last, pinned->model);
  if (ImGui::Button("Unpin")) Unpin(pinned);
}

// One row of ContactTable, built without allocating (the panel is redrawn every frame).
void ContactTableRow(const Snapshot& snapshot, int i, PinnedContact* pinned) {
  const ContactResult& c = snapshot.contacts[i];
  const ContactApproximation model = snapshot.contact_settings.approximation;
  ImGui::TableNextColumn();
  ImGui::PushID(i);
  const Rgb8 color = ContactStateColor(c.state);
  ImGui::PushStyleColor(ImGuiCol_Text,
                        ImVec4(color.r / 255.f, color.g / 255.f, color.b / 255.f, 1));
  char bodies[160];
  std::snprintf(bodies, sizeof(bodies), "%s / %s", Name(snapshot, c.body_a),
                Name(snapshot, c.body_b));
  if (ImGui::Selectable(bodies, false, ImGuiSelectableFlags_SpanAllColumns)) {
    Pin(snapshot.contacts, i, snapshot.time_s, model, pinned);
  }
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("k %s; click: pin", StiffnessNote(c, model));
  ImGui::PopID();
  ImGui::TableNextColumn();
  ImGui::Text("%.3g", c.normal_force_W.norm());
  ImGui::TableNextColumn();
  if (IsRigidModel(model)) {
    ImGui::TextUnformatted("rigid");  // effective 0, whatever the pair's k (§8)
  } else {
    ImGui::Text("%.3g / %.3g N/m", c.effective_stiffness_N_per_m, c.requested_stiffness_N_per_m);
  }
}

// Every contact of the shown step, one row each: the bodies, the state, the normal force and
// the stiffness achieved against the one asked for (StiffnessNote in the row's tooltip); a click
// on a row pins its contact. Clipped: only the visible rows are built (the clutter has
// hundreds).
void ContactTable(const Snapshot& snapshot, PinnedContact* pinned) {
  const int n = static_cast<int>(snapshot.contacts.size());
  if (!ImGui::TreeNode("contacts_table", "all contacts (%d)", n)) return;
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                     ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV;
  const float height = ImGui::GetTextLineHeightWithSpacing() * std::min(n + 1, 9);
  if (n > 0 && ImGui::BeginTable("contacts", 3, kFlags, ImVec2(0, height))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("A / B");
    ImGui::TableSetupColumn("f_n N");
    ImGui::TableSetupColumn("k achieved / requested");
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(n);
    while (clipper.Step()) {
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        ContactTableRow(snapshot, i, pinned);
      }
    }
    ImGui::EndTable();
  }
  ImGui::TreePop();
}

void DrawRing(const Eigen::Matrix4f& vp, const Eigen::Vector2f& viewport,
              const Eigen::Vector3d& p_W, ImU32 color) {
  const std::optional<Eigen::Vector2f> p = ProjectToScreen(vp, p_W, viewport);
  if (!p) return;
  ImGui::GetForegroundDrawList()->AddCircle(ImVec2(p->x(), p->y()), kContactHoverRadiusPx + 3,
                                            color, 16, 2.0f);
}

}  // namespace

void ContactDiagnosticsTable(const Snapshot& snapshot, const ContactResult& c,
                             ContactApproximation model) {
  if (!ImGui::BeginTable("diagnostics", 2, ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableNextColumn();
  ImGui::TextUnformatted("bodies A / B");
  ImGui::TableNextColumn();
  ImGui::Text("%s / %s", Name(snapshot, c.body_a), Name(snapshot, c.body_b));
  ImGui::TableNextColumn();
  ImGui::TextUnformatted("state");
  ImGui::TableNextColumn();
  const Rgb8 color = ContactStateColor(c.state);
  ImGui::TextColored(ImVec4(color.r / 255.f, color.g / 255.f, color.b / 255.f, 1), "%s",
                     ContactStateName(c.state));
  for (const DiagnosticRow& row : ContactDiagnosticRows(c, model)) {
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.label);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.value.c_str());
  }
  ImGui::EndTable();
}

std::vector<DiagnosticRow> ContactDiagnosticRows(const ContactResult& c,
                                                 ContactApproximation model) {
  std::vector<DiagnosticRow> rows;
  rows.push_back({"slip speed", Value(c.slip_velocity_W.norm(), "m/s")});
  rows.push_back({"v_n (end)", Value(c.normal_velocity, "m/s")});
  AppendDistanceRows(c, &rows);
  if (IsRigidModel(model)) {
    // docs/contact-model.md §8: the impulses meet v_n exactly and friction within its cone; the
    // compliant diagnostics would read 0 (stiffness, gliding) or an internal threshold.
    rows.push_back({"model", "rigid: no k, gliding or v_s"});
  } else {
    rows.push_back({"gliding offset", Value(c.gliding_offset_m, "m")});
    rows.push_back({"k achieved / requested", StiffnessRatioText(c)});
    rows.push_back({"k", StiffnessNote(c, model)});
    rows.push_back({"eff. stiction tol.", Value(c.effective_stiction_tolerance_m_per_s, "m/s")});
  }
  rows.push_back({"normal force", Value(c.normal_force_W.norm(), "N")});
  rows.push_back({"friction force", Value(c.friction_force_W.norm(), "N")});
  rows.push_back({"position", fmt::format("{:.4f} {:.4f} {:.4f} m", c.position_W.x(),
                                          c.position_W.y(), c.position_W.z())});
  return rows;
}

void ContactPanel(const Snapshot& snapshot, UiState* ui, UiActions* actions) {
  FollowPinned(snapshot.contacts, snapshot.time_s, snapshot.contact_settings.approximation,
               &ui->contacts.pinned);
  ColorModeCombo(&ui->layers);
  ImGui::Checkbox("gliding overlay", &ui->contacts.gliding_overlay);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "a line at the height the approximation holds the plot body above the\n"
        "surface while sliding (SAP mu(dt+tau_d)|v_t|, Similar mu dt |v_t|,\n"
        "Lagged 0), at true scale; none under the rigid Drumwright-Shell");
  }
  PinnedReadout(snapshot, &ui->contacts.pinned);
  ContactTable(snapshot, &ui->contacts.pinned);
  ContactExportControls(snapshot, &ui->contacts, actions);
}

namespace {

// A click prepares the pin of the contact under it (the step it was clicked in); the pin is made
// when the click is confirmed single and dropped when it becomes a double-click's first.
void PinOnClick(const Snapshot& snapshot, const Eigen::Matrix4f& vp,
                const Eigen::Vector2f& viewport, const Clicks& clicks, bool points_shown,
                ContactInspectorState* state) {
  if (clicks.cancelled) Unpin(&state->click_candidate);
  if (clicks.click) {
    Unpin(&state->click_candidate);
    const int i = points_shown ? PickContact(snapshot.contacts, vp, viewport, *clicks.click,
                                             kContactHoverRadiusPx)
                               : -1;
    if (i >= 0) {
      Pin(snapshot.contacts, i, snapshot.time_s, snapshot.contact_settings.approximation,
          &state->click_candidate);
    }
  }
  if (clicks.confirmed && state->click_candidate.active) {
    state->pinned = state->click_candidate;
    Unpin(&state->click_candidate);
  }
}

}  // namespace

void InspectContacts(const Snapshot& snapshot, const Camera& view, const Clicks& clicks,
                     UiState* ui) {
  ContactInspectorState& state = ui->contacts;
  // Again (it finds the same contact) for when the panels are hidden: the ring follows.
  FollowPinned(snapshot.contacts, snapshot.time_s, snapshot.contact_settings.approximation,
               &state.pinned);
  const ImGuiIO& io = ImGui::GetIO();
  const Eigen::Vector2f viewport(io.DisplaySize.x, io.DisplaySize.y);
  if (!(viewport.x() > 0 && viewport.y() > 0)) return;
  const Eigen::Matrix4f vp = ViewProjection(view, snapshot, viewport.x() / viewport.y());
  // A rigid contact does not glide (docs/contact-model.md §8): nothing for the overlay to show.
  if (state.gliding_overlay && !IsRigidModel(snapshot.contact_settings.approximation)) {
    GlidingOverlay(snapshot, vp, viewport, ui->plot_body);
  }
  state.hovered = -1;
  if (ui->layers.contact_points && !io.WantCaptureMouse && ImGui::IsMousePosValid() &&
      !OverInset(snapshot, ui->views, viewport.x(), viewport.y(), io.MousePos.x, io.MousePos.y)) {
    state.hovered =
        PickContact(snapshot.contacts, vp, viewport, Eigen::Vector2f(io.MousePos.x, io.MousePos.y),
                    kContactHoverRadiusPx);
  }
  PinOnClick(snapshot, vp, viewport, clicks, ui->layers.contact_points, &state);
  if (state.pinned.active && state.pinned.present) {
    DrawRing(vp, viewport, state.pinned.last.position_W, kPinRing);
  }
  if (state.hovered < 0) return;
  const ContactResult& c = snapshot.contacts[state.hovered];
  DrawRing(vp, viewport, c.position_W, kHoverRing);
  ImGui::BeginTooltip();
  ContactDiagnosticsTable(snapshot, c, snapshot.contact_settings.approximation);
  ImGui::TextColored(kDimColor, "click: pin in the Contacts panel");
  ImGui::EndTooltip();
}

}  // namespace contactlab
