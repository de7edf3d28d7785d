// The contact read-out through Dear ImGui, headless (a context without a window or renderer):
// the mouse over a contact's projection hovers it, a click pins it once it is confirmed single,
// the first click of a double-click (which selects a body) does not — at 2 fps, clicks by their
// stamps (ui/view/click_timing.h); the gliding overlay draws only when on, the plot body has
// a pressed contact and the model is not rigid.
#include "ui/panels/contact_panel.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <string>
#include <vector>

#include "render/camera.h"
#include "ui/view/click_timing.h"

namespace contactlab {
namespace {

class ContactPanelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(800, 600);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the font atlas NewFrame needs
    // Looking at the origin from (0, −2, 0): the origin projects to the centre (400, 300).
    camera_.target = Eigen::Vector3f::Zero();
    camera_.distance_m = 2.0f;
    camera_.yaw_rad = static_cast<float>(-M_PI / 2);
    camera_.pitch_rad = 0.0f;
    snapshot_.contacts = {Contact(0.0), Contact(0.2)};
    ui_.plot_body = 1;
  }
  void TearDown() override { ImGui::DestroyContext(); }

  static ContactResult Contact(double x_m) {
    ContactResult c;
    c.body_a = 0;
    c.body_b = 1;
    c.position_W = Eigen::Vector3d(x_m, 0, 0);
    c.normal_W = Eigen::Vector3d::UnitZ();
    c.state = ContactResult::State::kSlip;
    c.slip_velocity_W = Eigen::Vector3d(0.1, 0, 0);
    c.gliding_offset_m = 3e-4;
    return c;
  }

  // One frame with the mouse at (x, y), the left button down or not, and the view's clicks;
  // returns the number of vertices the background draw list (the gliding overlay) got.
  int Frame(float x, float y, bool down, const Clicks& clicks = {}) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(x, y);
    io.MouseDown[0] = down;
    ImGui::NewFrame();
    InspectContacts(snapshot_, camera_, clicks, &ui_);
    const int vertices = ImGui::GetBackgroundDrawList()->VtxBuffer.Size;
    ImGui::Render();
    return vertices;
  }

  // A frame at 2 fps (poll k at k/2 s) whose event poll delivered a click (a press and release
  // 10 ms apart) at (x, y), or nothing.
  Clicks TwoFpsFrame(float x, float y, bool click) {
    ++poll_;
    const double poll_s = 0.5 * static_cast<double>(poll_);
    std::vector<MouseButtonEvent> events;
    if (click) {
      events = {{0, true, x, y, false, poll_s, poll_},
                {0, false, x, y, false, poll_s + 0.01, poll_}};
    }
    const Clicks clicks = timing_.Update(events, poll_, poll_s);
    Frame(x, y, false, clicks);
    return clicks;
  }

  Camera camera_;
  Snapshot snapshot_;
  UiState ui_;
  ClickTiming timing_;
  int64_t poll_ = 0;
};

TEST_F(ContactPanelTest, HoverPicksTheContactUnderTheMouse) {
  Frame(402, 301, false);
  EXPECT_EQ(ui_.contacts.hovered, 0);
  // 0.2 m to the right at 2 m: 0.2·600/(4·tan 0.4) = 70.96 px.
  Frame(471, 300, false);
  EXPECT_EQ(ui_.contacts.hovered, 1);
  Frame(430, 300, false);
  EXPECT_EQ(ui_.contacts.hovered, -1);
  EXPECT_FALSE(ui_.contacts.pinned.active);
}

// A click on a contact pins it once no second press can make it a double-click: at 2 fps, the
// frame after. (Drags and Ctrl+clicks are no clicks: click_timing_test.)
TEST_F(ContactPanelTest, AClickPinsTheContactItWasOnOnceConfirmed) {
  ASSERT_FALSE(TwoFpsFrame(471, 300, true).confirmed);
  EXPECT_FALSE(ui_.contacts.pinned.active) << "not before it is known to be single";
  // The pinned contact is the one clicked, though the mouse has moved on.
  ASSERT_TRUE(TwoFpsFrame(10, 10, false).confirmed);
  ASSERT_TRUE(ui_.contacts.pinned.active);
  EXPECT_DOUBLE_EQ(ui_.contacts.pinned.last.position_W.x(), 0.2);
  // The pin follows the pair into the next step (moved 5 mm), the mouse elsewhere.
  snapshot_.contacts = {Contact(0.205)};
  Frame(10, 10, false);
  EXPECT_TRUE(ui_.contacts.pinned.present);
  EXPECT_DOUBLE_EQ(ui_.contacts.pinned.last.position_W.x(), 0.205);
  // A click on nothing pins nothing (and leaves the pin).
  TwoFpsFrame(430, 300, true);
  TwoFpsFrame(430, 300, false);
  EXPECT_DOUBLE_EQ(ui_.contacts.pinned.last.position_W.x(), 0.205);
}

// The case: the first click of a double-click (selecting a body) pinned the contact
// under it. Both clicks in consecutive polls at 2 fps: nothing is pinned.
TEST_F(ContactPanelTest, TheFirstClickOfADoubleClickPinsNothing) {
  TwoFpsFrame(471, 300, true);
  const Clicks second = TwoFpsFrame(471, 300, true);
  ASSERT_TRUE(second.double_click.has_value());
  for (int i = 0; i < 4; ++i) TwoFpsFrame(471, 300, false);
  EXPECT_FALSE(ui_.contacts.pinned.active);
}

// A contact behind the camera inset (top right) is not hovered or pinned through it: the mouse
// is on the inset's picture.
TEST_F(ContactPanelTest, ContactsBehindTheInsetAreNeitherHoveredNorPinned) {
  // 0.564 m right and up at 2 m: 0.564·300/tan 0.4 = 200 px right of and above the centre,
  // (600, 100), inside the inset's 550…790 × 40…220 at 800 × 600.
  ContactResult behind = Contact(0.564);
  behind.position_W.z() = 0.564;
  snapshot_.contacts = {behind};
  Frame(600, 100, false);
  ASSERT_EQ(ui_.contacts.hovered, 0) << "without an inset";
  auto scene = std::make_shared<SceneSpec>();
  scene->cameras.resize(1);
  snapshot_.scene = scene;
  ui_.views.inset = 0;
  Frame(600, 100, false);
  EXPECT_EQ(ui_.contacts.hovered, -1);
  Frame(600, 100, true);
  Frame(600, 100, false);
  EXPECT_FALSE(ui_.contacts.pinned.active);
}

TEST_F(ContactPanelTest, GlidingOverlayOnlyWhenOnAndForThePlotBody) {
  EXPECT_GT(Frame(10, 10, false), 0);
  ui_.contacts.gliding_overlay = false;
  EXPECT_EQ(Frame(10, 10, false), 0);
  ui_.contacts.gliding_overlay = true;
  ui_.plot_body = 5;  // no contact of its own
  EXPECT_EQ(Frame(10, 10, false), 0);
  // A rigid contact does not glide (docs/contact-model.md §8): no overlay.
  ui_.plot_body = 1;
  snapshot_.contact_settings.approximation = ContactApproximation::kDrumwrightShell;
  EXPECT_EQ(Frame(10, 10, false), 0);
}

// The value of the read-out's row `label`, or "" if there is none.
std::string RowValue(const std::vector<DiagnosticRow>& rows, const std::string& label) {
  for (const DiagnosticRow& row : rows) {
    if (label == row.label) return row.value;
  }
  return "";
}

// A hydroelastic face set reads as the penetration its pressure field implies and its pressure
// (docs/contact-model.md §5), not as a signed distance φ: the solver's φ0 = −p/g of such a face
// read −1.7e4 m in peg_in_hole (issue 35, item 4). A point contact keeps its φ rows.
TEST(ContactDiagnosticRows, AHydroelasticFaceReadsAsPenetrationAndPressure) {
  ContactResult face;
  face.hydroelastic_patch = 0;
  face.hydroelastic_face = 3;
  face.hydroelastic_num_faces = 2;
  face.signed_distance_m = -4.25e-6;
  face.signed_distance_end_m = -4.5e-6;
  face.pressure_Pa = 1.5e4;
  face.face_area_m2 = 2e-5;
  const std::vector<DiagnosticRow> rows =
      ContactDiagnosticRows(face, ContactApproximation::kLagged);
  for (const DiagnosticRow& row : rows) {
    const std::string label = row.label;
    EXPECT_EQ(label.find("phi"), std::string::npos) << label;
    EXPECT_EQ(label.find("signed"), std::string::npos) << label;
  }
  EXPECT_EQ(RowValue(rows, "penetration (p field)"), "4.25e-06 m");
  EXPECT_EQ(RowValue(rows, "penetration end"), "4.5e-06 m");
  EXPECT_EQ(RowValue(rows, "pressure"), "1.5e+04 Pa");
  EXPECT_EQ(RowValue(rows, "face area"), "2e-05 m^2");
  EXPECT_EQ(RowValue(rows, "faces"), "2");
  face.signed_distance_m = face.signed_distance_end_m = NAN;  // the field defines none
  EXPECT_EQ(
      RowValue(ContactDiagnosticRows(face, ContactApproximation::kLagged), "penetration (p field)"),
      "n/a");

  ContactResult point;
  point.signed_distance_m = -1e-3;
  point.signed_distance_end_m = 2e-4;
  const std::vector<DiagnosticRow> point_rows =
      ContactDiagnosticRows(point, ContactApproximation::kLagged);
  EXPECT_EQ(RowValue(point_rows, "phi start"), "-0.001 m");
  EXPECT_EQ(RowValue(point_rows, "phi end"), "0.0002 m");
  EXPECT_EQ(RowValue(point_rows, "pressure"), "");
}

// A rigid contact (docs/contact-model.md §8) has no stiffness, gliding or stiction tolerance:
// its achieved stiffness is 0 against the pair's k, which the compliant rows would have read as
// "softened while sliding (SAP)". One row says so instead; the kinematic rows stay.
TEST(ContactDiagnosticRows, ARigidContactShowsNoCompliantDiagnostics) {
  ContactResult c;
  c.requested_stiffness_N_per_m = 1e6;  // the pair's k, which the rigid model does not read
  c.effective_stiction_tolerance_m_per_s = 1e-6;
  c.signed_distance_m = -2e-6;
  const std::vector<DiagnosticRow> rigid =
      ContactDiagnosticRows(c, ContactApproximation::kDrumwrightShell);
  EXPECT_EQ(RowValue(rigid, "model"), "rigid: no k, gliding or v_s");
  for (const char* label :
       {"k", "k achieved / requested", "gliding offset", "eff. stiction tol."}) {
    EXPECT_EQ(RowValue(rigid, label), "") << label;
  }
  EXPECT_EQ(RowValue(rigid, "phi start"), "-2e-06 m");
  const std::vector<DiagnosticRow> lagged = ContactDiagnosticRows(c, ContactApproximation::kLagged);
  EXPECT_EQ(RowValue(lagged, "k achieved / requested"), "0 / 1e+06 N/m");
  EXPECT_EQ(RowValue(lagged, "model"), "");
}

}  // namespace
}  // namespace contactlab
