#include "ui/panels/exports.h"

#include <imgui.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <ctime>
#include <exception>

#include "app/headless/contact_log.h"
#include "io/output_folder.h"
#include "io/png_file.h"
#include "ui/widgets/widgets.h"

namespace contactlab {
namespace {

std::string Report(const std::string& error, const std::string& path,
                   ContactInspectorState* state) {
  state->export_failed = !error.empty();
  state->export_message = error.empty() ? "wrote " + path : error;
  if (error.empty()) spdlog::info("{}", state->export_message);
  return error;
}

void ExportMessage(const ContactInspectorState& state) {
  if (state.export_message.empty()) return;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(state.export_failed ? kErrorColor : kDimColor, "%s",
                     state.export_message.c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace

std::string ExportPath(const char* field, const std::string& output_dir, const std::string& prefix,
                       const std::string& extension, std::string* error) {
  if (field != nullptr && field[0] != '\0') return field;
  return NewOutputPath(output_dir, prefix, extension, std::time(nullptr), error);
}

std::vector<uint8_t> CropRgba(const std::vector<uint8_t>& rgba, int width, int height, int x0,
                              int y0, int x1, int y1, int* w, int* h) {
  x0 = std::clamp(x0, 0, width), x1 = std::clamp(x1, 0, width);
  y0 = std::clamp(y0, 0, height), y1 = std::clamp(y1, 0, height);
  *w = std::max(x1 - x0, 0);
  *h = std::max(y1 - y0, 0);
  if (*w == 0 || *h == 0 || rgba.size() < static_cast<size_t>(width) * height * 4) {
    *w = *h = 0;
    return {};
  }
  std::vector<uint8_t> out;
  out.reserve(static_cast<size_t>(*w) * *h * 4);
  for (int y = y0; y < y1; ++y) {
    const auto row = rgba.begin() + (static_cast<ptrdiff_t>(y) * width + x0) * 4;
    out.insert(out.end(), row, row + static_cast<ptrdiff_t>(*w) * 4);
  }
  return out;
}

std::string ExportContacts(const Snapshot& snapshot, const std::string& output_dir,
                           ContactInspectorState* state) {
  if (!snapshot.scene) return Report("no scene to export contacts of", "", state);
  std::string error;
  const std::string path =
      ExportPath(state->contacts_csv_path, output_dir, "contactlab_contacts", "csv", &error);
  if (path.empty()) return Report(error, path, state);
  try {
    WriteContactsCsv(path, snapshot.time_s, snapshot.scene->bodies, snapshot.contacts);
  } catch (const std::exception& e) {
    return Report(e.what(), path, state);
  }
  return Report("", path + " (" + std::to_string(snapshot.contacts.size()) + " contacts)", state);
}

std::string ExportPlotPng(const std::vector<uint8_t>& rgba, int fb_w, int fb_h, float scale,
                          const PlotViewState& view, const std::string& output_dir,
                          ContactInspectorState* state) {
  int w = 0, h = 0;
  const std::vector<uint8_t> plot =
      CropRgba(rgba, fb_w, fb_h, static_cast<int>(std::floor(view.rect_x0 * scale)),
               static_cast<int>(std::floor(view.rect_y0 * scale)),
               static_cast<int>(std::ceil(view.rect_x1 * scale)),
               static_cast<int>(std::ceil(view.rect_y1 * scale)), &w, &h);
  if (plot.empty()) return Report("the plot is not on screen (panels hidden?)", "", state);
  std::string error;
  const std::string path =
      ExportPath(state->plot_png_path, output_dir, "contactlab_plot", "png", &error);
  if (path.empty()) return Report(error, path, state);
  try {
    WritePng(path, w, h, plot);
  } catch (const std::exception& e) {
    return Report(e.what(), path, state);
  }
  return Report("", path, state);
}

void ContactExportControls(const Snapshot& snapshot, ContactInspectorState* state,
                           UiActions* actions) {
  ImGui::SetNextItemWidth(-90);
  ImGui::InputTextWithHint("##contacts_csv", "(time-stamped name)", state->contacts_csv_path,
                           sizeof state->contacts_csv_path);
  ImGui::SameLine();
  if (ImGui::Button("Export CSV")) actions->export_contacts = true;
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "the %zu contacts of the shown step (t = %.4f s), columns of "
        "--log-contacts",
        snapshot.contacts.size(), snapshot.time_s);
  }
  ExportMessage(*state);
}

void PlotPngControls(const char* const* plot_names, int num_plots, ContactInspectorState* state,
                     UiActions* actions) {
  ImGui::SetNextItemWidth(80);
  ImGui::Combo("##png_plot", &state->png_plot, plot_names, num_plots);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(145);  // its hint in full
  ImGui::InputTextWithHint("##png_path", "(time-stamped name)", state->plot_png_path,
                           sizeof state->plot_png_path);
  ImGui::SameLine();
  if (ImGui::Button("PNG")) actions->export_plot_png = true;
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("save the chosen plot as drawn, as a PNG (path, or a time-stamped name)");
  }
}

}  // namespace contactlab
