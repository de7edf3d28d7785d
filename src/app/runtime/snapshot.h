// An immutable picture of the world after a step: what the render thread draws and the UI
// shows (docs/architecture.md, Threads). Filled by the sim thread into preallocated storage.
#pragma once

#include <Eigen/Geometry>
#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/teleop/peg_alignment.h"
#include "app/teleop/slip_meter.h"
#include "engine/world/world.h"

namespace contactlab {

// The frame live devices' twists are taken in (a replay keeps its recording's): each device's
// own (the CommandFrame its configuration gives its commands), or world or tool axes for every
// device. The values are the teleop panel's choices, in order.
enum class TeleopFrame { kDeviceOwn = 0, kWorld = 1, kTool = 2 };

// Teleoperation as the UI shows it (filled by the runtime for a scene with a robot arm; plain
// data: the engine knows nothing of input devices).
struct TeleopView {
  bool active = false;  // the scene has a teleoperated arm
  Eigen::Isometry3d target_tcp_W = Eigen::Isometry3d::Identity();  // commanded TCP pose X_WT*
  Eigen::Isometry3d tcp_W = Eigen::Isometry3d::Identity();         // measured TCP pose
  double position_error_m = 0, orientation_error_rad = 0;
  Eigen::Vector3d linear_m_per_s = Eigen::Vector3d::Zero();  // command applied (world axes)
  Eigen::Vector3d angular_rad_per_s = Eigen::Vector3d::Zero();
  double grip = 0;                // 0 open … 1 closed: the grip applied
  bool grip_latched = false;      // held at the scene's initial grip until the first toggle
  double grip_force_limit_N = 0;  // finger effort limit in use (the grip force setting)
  double max_grip_force_N = 0;    // the robot's range for that setting: (0, max]
  double grip_force_N = 0;        // measured: |net normal contact force| on the leader finger
  // The scene's grip-force program ("square wave 1-16 N, 6 s, 75 %"; "": none) and whether the
  // grip force follows it (false once the slider moved: overridden).
  std::string grip_program;
  bool grip_program_followed = false;
  bool fixed_hand = false;  // a gripper fixed to the world: no arm, twists are ignored
  // The scene's joint program drives the arm, twists are ignored ("panda_joint1 0.25 sin(1 t)";
  // "": none; app/teleop/teleop_program.h).
  std::string joint_program;
  double finger_opening_m = 0;  // measured finger joint position
  bool ik_ok = true;
  int ik_num_limited = 0, ik_failures = 0;
  double ik_min_singular_value = 0;
  double sensitivity = 1;  // live devices' twist scale
  TeleopFrame frame = TeleopFrame::kDeviceOwn;
  std::string device_name, device_status;
  bool device_connected = true;  // false: a requested device is missing (shown as a warning)
  // The scene's teleop circle (input/circle_device.h) drives the arm: its frequency [Hz].
  bool circle_driving = false;
  double circle_frequency_Hz = 0;
};

// One hydroelastic contact patch of the step, as World::hydroelastic_patches() (A compliant,
// normals from A into B); its faces are [first_face, first_face + num_faces) of the per-face
// arrays of HydroelasticSnapshot.
struct PatchSnapshot {
  int geometry_a = -1, geometry_b = -1;
  int body_a = -1, body_b = -1;  // scene body indices
  int first_face = 0, num_faces = 0;
  double area_m2 = 0;  // Σ A_f
  // Σ of the solver's face forces on B [N] (step average), and where they act: the centroids
  // weighted by each face's normal force (the area centroid when there is none).
  Eigen::Vector3d normal_force_W = Eigen::Vector3d::Zero();
  Eigen::Vector3d friction_force_W = Eigen::Vector3d::Zero();
  Eigen::Vector3d center_of_pressure_W = Eigen::Vector3d::Zero();
  float max_pressure_Pa = 0;  // over the patch's vertices and faces
};

// The hydroelastic contact surfaces of the step, flattened for drawing (docs/contact-model.md §5):
// every face f is one triangle of a polygon's centroid fan. Struct-of-arrays in float (display
// data); patch i of `patches` is World::hydroelastic_patches()[i], so ContactResult::
// hydroelastic_patch indexes it too. Refilled in place: no allocation once warm.
struct HydroelasticSnapshot {
  std::vector<PatchSnapshot> patches;
  // Per face f: its corners (centroid c, v_i, v_(i+1)) at [3f, 3f + 3), with the pressure of
  // the pressure field there [Pa].
  std::vector<Eigen::Vector3f> triangle_vertices_W;
  std::vector<float> vertex_pressure_Pa;
  // Per face f: centroid c_f, unit normal n̂_f (A into B), area A_f [m²], pressure p0_f at c_f
  // [Pa], and the traction on B: the solver's face force divided by A_f, split into its normal
  // and tangential (friction) parts [Pa]. Zero for a face that carried no constraint (no
  // pressure gradient along n̂_f).
  std::vector<Eigen::Vector3f> face_centroid_W, face_normal_W;
  std::vector<float> face_area_m2, face_pressure_Pa;
  std::vector<Eigen::Vector3f> face_normal_traction_Pa, face_tangential_traction_Pa;
  float max_pressure_Pa = 0;  // over all patches (0 without patches)

  int num_faces() const { return static_cast<int>(face_area_m2.size()); }
  bool empty() const { return patches.empty(); }
};

// The user's mouse spring as applied in the step (Perturbation; body −1: none).
struct PerturbationView {
  int body = -1;                                       // scene body
  Eigen::Vector3d p_WQ = Eigen::Vector3d::Zero();      // the grabbed point, now
  Eigen::Vector3d target_W = Eigen::Vector3d::Zero();  // the mouse point
  Eigen::Vector3d f_W = Eigen::Vector3d::Zero();       // the spring force on the body [N]
};

// The ghost run (GhostRuntime), as the UI shows it.
struct GhostView {
  bool active = false;         // a ghost is running (its snapshots: SimRuntime::LatestGhost)
  bool ready = false;          // its world is built
  std::string label;           // what differs from the main run
  double lag_s = 0;            // simulated time it is behind the main run
  std::string stopped_reason;  // why the last ghost stopped by itself ("" if none did)
};

// The timeline (Timeline), as the UI shows it.
struct TimelineView {
  int records = 0;                    // steps held
  double oldest_s = 0, newest_s = 0;  // the span the slider covers (start of the oldest
                                      // step, end of the newest)
  bool viewing = false;               // the snapshot shows a recorded step, not the head
  double memory_MB = 0;               // allocated for the history
  int replay_steps_left = 0;          // a branch replaying the recorded inputs
};

// Peg-in-hole alignment aids (app/teleop/peg_alignment.h), for a scene with a peg and a hole.
struct AlignmentView {
  bool active = false;
  PegAlignment alignment;
  RimPolygon hole_outline_W;
};

// Recording and replaying teleoperation in the window.
struct RecordingView {
  bool recording = false;
  std::string path;  // the file being recorded, or the last one written
  size_t rows = 0;   // commands recorded so far
  bool replaying = false;
  double replay_end_s = 0;  // the replay's last command (progress: time_s / replay_end_s)
};

// The slip meter (app/teleop/slip_meter.h) of the plot body, or of the scene's held object when no
// body is selected, measured on the sim thread every step.
struct SlipMeterView {
  bool active = false;  // a body is measured
  SlipReading reading;
};

struct Snapshot {
  // The scene this snapshot belongs to (shapes, names, initial values: immutable, shared).
  // scene_generation changes whenever the scene is replaced, so a renderer can rebuild meshes.
  std::shared_ptr<const SceneSpec> scene;
  uint64_t scene_generation = 0;
  uint64_t step_index = 0;  // steps since the last reset
  double time_s = 0;

  std::vector<Eigen::Isometry3d> body_poses;                 // per scene body, X_WB
  std::vector<Eigen::Matrix<double, 6, 1>> body_velocities;  // per scene body, [ω, v_Bo] (W)
  std::vector<Eigen::Isometry3d> geometry_poses;             // per geometry (World order), X_WG
  std::vector<int> geometry_body;                            // scene body of each geometry
  std::vector<const GeometrySpec*> geometries;  // into *scene (valid while scene is held)
  // Per geometry: its hydroelastic properties in force (the scene's, with the E_h and mesh
  // resolution of live changes).
  std::vector<HydroelasticProperties> geometry_hydroelastic;
  std::vector<ContactResult> contacts;
  HydroelasticSnapshot hydroelastic;                // contact patches (their faces: in contacts)
  std::vector<Eigen::Vector3d> net_normal_force;    // per scene body [N]
  std::vector<Eigen::Vector3d> net_friction_force;  // per scene body [N]
  StepStats stats;
  // Error control (docs/contact-model.md §1.2): per scene body, the last step's error estimate
  // over its coordinates (m, rad; World::position_error_by_body); empty under a fixed step.
  std::vector<double> position_error_by_body;
  bool all_converged_since_reset = true;

  // The settings in force for the step that produced this snapshot (so a test can see that a
  // UI change reached the solver).
  ContactSettings contact_settings;

  // Runtime state (filled by the runtime, not by FillSnapshot).
  uint64_t run = 0;  // resets and scene loads since the runtime started (PlotSample::run)
  std::chrono::steady_clock::time_point published{};  // when the runtime published it
  bool paused = false;
  double target_realtime_factor = 1.0;  // 0: as fast as possible
  double achieved_realtime_factor = 0;  // measured over the last ~0.5 s of wall time
  TeleopView teleop;                    // teleoperation (scenes with a robot arm)
  PerturbationView perturbation;
  GhostView ghost;
  TimelineView timeline;
  RecordingView recording;
  AlignmentView alignment;
  SlipMeterView slip_meter;
};

// The contact of `scene_body` that carried the largest normal force in the last step (the one
// the plots follow); null if it has none.
const ContactResult* StrongestContact(const World& world, int scene_body);

// Copies the world's state into `s` without allocating once `s` has held a scene this size.
// The snapshot shares the world's scene (World::shared_scene).
void FillSnapshot(const World& world, uint64_t scene_generation, uint64_t step_index, Snapshot* s);

}  // namespace contactlab
