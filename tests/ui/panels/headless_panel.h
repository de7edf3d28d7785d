// A panel drawn through Dear ImGui without a window or renderer and clicked like a user: a
// context of its own, one window filling the display, and the mouse set per frame. Frames are
// 0.5 s apart, so that two clicks never make a double-click (which opens a log slider's editor).
#pragma once

#include <imgui.h>

#include <functional>

namespace contactlab::testing {

class HeadlessPanel {
 public:
  HeadlessPanel(float width, float height) : width_(width), height_(height) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(width, height);
    io.DeltaTime = 0.5f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the font atlas NewFrame needs
    ImGui::StyleColorsDark();                       // as ui/window.cc; sizes are the defaults
  }
  ~HeadlessPanel() { ImGui::DestroyContext(); }
  HeadlessPanel(const HeadlessPanel&) = delete;
  HeadlessPanel& operator=(const HeadlessPanel&) = delete;

  // One frame of `draw` in the window, the mouse at (x, y), its left button down or up.
  void Frame(float x, float y, bool down, const std::function<void()>& draw) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(x, y);
    io.MouseDown[0] = down;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(width_, height_));
    ImGui::Begin("panel", nullptr, ImGuiWindowFlags_NoDecoration);
    draw();
    ImGui::End();
    ImGui::Render();
  }

  // A click at (x, y): the mouse moves there, presses and releases, a frame each.
  void Click(float x, float y, const std::function<void()>& draw) {
    Frame(x, y, false, draw);
    Frame(x, y, true, draw);
    Frame(x, y, false, draw);
  }

  float width() const { return width_; }
  float height() const { return height_; }

 private:
  float width_, height_;
};

}  // namespace contactlab::testing
