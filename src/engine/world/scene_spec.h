// A scene as plain data: what the YAML loader produces and what tests and benchmarks build
// programmatically. `World` is constructed from it.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/geometry/shape.h"
#include "engine/hydroelastic/hydroelastic_properties.h"
#include "engine/multibody/multibody.h"
#include "engine/solver/contact_settings.h"
#include "engine/solver/coupler_constraint.h"
#include "engine/solver/distance_constraint.h"
#include "engine/solver/weld_constraint.h"

namespace contactlab {

struct GeometrySpec {
  std::string name;
  Shape shape;
  Eigen::Isometry3d X_BG = Eigen::Isometry3d::Identity();  // placement on the body
  ContactProperties contact;
  HydroelasticProperties hydroelastic;
};

// Geometry that is only drawn (a URDF <visual>): the world ignores it (no contact, no mass);
// the renderer draws it on its body. A primitive keeps its Shape; a mesh keeps its triangles as
// loaded (convex or not), shared and immutable.
struct VisualMesh {
  std::vector<Eigen::Vector3d> vertices_m;    // in the visual's frame V
  std::vector<std::array<int, 3>> triangles;  // counterclockwise seen from outside
  std::string source;                         // the file it came from (for messages)
};
struct VisualSpec {
  std::string name;
  Eigen::Isometry3d X_BV = Eigen::Isometry3d::Identity();  // placement on the body
  Shape shape;                                             // when mesh is null
  std::shared_ptr<const VisualMesh> mesh;                  // else this
  std::optional<Eigen::Vector4d> rgba;                     // the URDF material's colour, if any
};

// Prescribed motion of a kinematic body: X_WB(t) = translation(s(t)·axis) · X_WB0 with
// s(t) = amplitude·sin(2π f t + phase) + speed·t (a belt oscillating or running).
struct KinematicMotion {
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();
  double amplitude_m = 0.0;
  double frequency_Hz = 0.0;
  double phase_rad = 0.0;
  double speed_m_per_s = 0.0;
  double Displacement(double t) const;
  double Velocity(double t) const;
};

// PD controller with effort limit on a 1-dof joint (docs/contact-model.md §3).
struct JointPdSpec {
  double kp = 0.0, kd = 0.0;
  double effort_limit = 1e30;
  double q_desired = 0.0, v_desired = 0.0, feedforward = 0.0;
};

struct SceneBody {
  enum class Kind { kDynamic, kStatic, kKinematic };
  Kind kind = Kind::kDynamic;
  // For dynamic bodies: name, parent (index into SceneSpec::bodies of a dynamic body, or −1
  // for the world), joint, placement and inertia. The index of this body in the multibody
  // is its order among dynamic bodies.
  BodySpec body;
  int parent_scene_index = -1;
  // Static and kinematic bodies, and floating joints: the initial pose X_PB (world for roots).
  Eigen::Isometry3d initial_pose = Eigen::Isometry3d::Identity();
  // Initial velocity: floating [ω (3), v (3)] in the parent frame; 1-dof: one entry.
  Eigen::VectorXd initial_velocity;
  double initial_position = 0.0;                    // 1-dof joints
  KinematicMotion motion;                           // kinematic bodies
  std::optional<JointPdSpec> pd;                    // 1-dof joints
  std::optional<std::pair<double, double>> limits;  // 1-dof joints [lower, upper]
  // The name of the joint to its parent: a URDF joint's (with the robot's prefix); empty for a
  // body of the scene file, whose joint goes by the body's own name (SceneSpec::FindJoint).
  std::string joint_name;
  std::vector<GeometrySpec> geometries;
  std::vector<VisualSpec> visuals;  // drawn only (World ignores them)
  // How the GUI draws the body (sRGB, each in [0, 1]); unset: BodyColor's by kind and index.
  std::optional<Eigen::Vector3d> color;
};

// A named camera of the scene (YAML `cameras:`, assets/scenes/README.md). The engine ignores
// cameras; the GUI views through them. Camera frame C as in Drake's sensors (and OpenCV): the
// camera looks along +z_C, +x_C points right in the image and +y_C down.
struct CameraSpec {
  std::string name;
  int body = -1;  // scene body (index into SceneSpec::bodies) it is attached to; −1: the world
  Eigen::Isometry3d X_PC = Eigen::Isometry3d::Identity();  // X_BC on a body, X_WC in the world
  double fov_y_rad = 0.8;                                  // vertical field of view
};

// Holonomic constraints between bodies (docs/contact-model.md §3.2). Bodies are scene indices
// (into SceneSpec::bodies); −1 is the world.
// Coupler: the 1-dof joints of two dynamic bodies held at q_a = ρ·q_b + offset (URDF <mimic>).
struct CouplerSpec {
  std::string name;
  int body_a = -1, body_b = -1;
  CouplerConstraint::Parameters parameters;
};
// Distance: the point P of body A and the point Q of body B held at a distance.
struct DistanceSpec {
  std::string name;
  int body_a = -1, body_b = -1;
  Eigen::Vector3d p_AP = Eigen::Vector3d::Zero(), p_BQ = Eigen::Vector3d::Zero();
  DistanceConstraint::Parameters parameters;
};
// Weld: the frame P of body A and the frame Q of body B held together.
struct WeldSpec {
  std::string name;
  int body_a = -1, body_b = -1;
  Eigen::Isometry3d X_AP = Eigen::Isometry3d::Identity(), X_BQ = Eigen::Isometry3d::Identity();
  WeldConstraint::Parameters parameters;
};

// The object a scene's task holds in a hand (scene key `held_object`, issue 36): the slip meter
// and the summary's creep rate measure `body`'s motion relative to the frame of `hand`. Scene
// body indices.
struct HeldObjectSpec {
  int body = -1;
  int hand = -1;
};

// What drives a scene's robot when no live device does (scene key `teleop`, issue 36): a replay
// script, a horizontal circle of the tool point or sinusoids of arm joints (issue 38), and the
// grip force, constant or a square wave. The engine ignores it; app/ runs it.
struct TeleopProgramSpec {
  std::string script_path;  // a replay CSV (e.g. peg_in_hole's insert_peg.csv); "": none
  // The tool point's circle in the world's horizontal plane through its initial position p0,
  // centred at p0 − r·x̂ (it starts at the circle's +x point, at rest, and turns counter-
  // clockwise seen from above: input/circle_device.h); radius 0: none.
  double circle_radius_m = 0;
  double circle_frequency_Hz = 0;
  // Grip force [N]: constant (`grip_force: 20`), or `high_N` for the first duty·period of each
  // period and `low_N` for the rest (`grip_force: {square_wave: {...}}`); absent: the robot's
  // default (TeleopConfig::grip_force_N).
  struct SquareWave {
    double low_N = 0, high_N = 0, period_s = 0, duty = 0;
  };
  std::optional<double> grip_force_N;
  std::optional<SquareWave> grip_force_square_wave;
  // Joint sinusoids (`joint_sines`; Drumwright & Shell's grasping example): the PD target of each
  // listed 1-dof joint follows q0 + A sin(ω t) at the rate A ω cos(ω t), q0 its initial position
  // (app/teleop/teleop_program.h). Exclusive with the script and the circle: the program drives
  // the whole arm, the joints it does not list held at their initial targets.
  struct JointSine {
    int body = -1;         // scene body whose joint follows (SceneSpec::FindJoint)
    double amplitude = 0;  // A ≥ 0 [rad, or m for a prismatic joint]
    double angular_frequency_rad_per_s = 0;  // ω ≥ 0
  };
  std::vector<JointSine> joint_sines;
};

// One pair of bodies' own contact properties (scene key contact_pairs, docs/contact-model.md §6):
// each value set replaces the pair's value combined from its geometries, unless the live
// settings override it for every pair. What a calibration fits per pair (§10).
struct ContactPairSpec {
  int scene_body_a = -1, scene_body_b = -1;  // distinct scene bodies, in either order
  std::optional<double> stiffness_N_per_m;   // k > 0 (point contacts; a face's is its own, §5)
  std::optional<double> hunt_crossley_s_per_m, relaxation_time_s, friction;  // ≥ 0
  std::optional<double> restitution;                                         // ∈ [0, 1]
  bool Joins(int body_a, int body_b) const {
    return (body_a == scene_body_a && body_b == scene_body_b) ||
           (body_a == scene_body_b && body_b == scene_body_a);
  }
};

struct SceneSpec {
  std::string name = "unnamed";
  std::string source;  // file it came from (for messages)
  double duration_s = 1.0;
  // The contact settings the scene starts with (its keys dt, model, stiction_tolerance, sigma;
  // the command line's overrides applied by the caller).
  ContactSettings contact_settings;
  Eigen::Vector3d gravity_W{0, 0, -9.81};
  double contact_margin_m = 0.01;
  std::vector<SceneBody> bodies;
  std::vector<CameraSpec> cameras;  // drawn from by the GUI only
  std::vector<CouplerSpec> couplers;
  std::vector<DistanceSpec> distances;
  std::vector<WeldSpec> welds;
  std::vector<ContactPairSpec> contact_pairs;  // at most one per pair of bodies
  std::optional<HeldObjectSpec> held_object;
  TeleopProgramSpec teleop;
  int FindBody(const std::string& name) const;
  // The scene body whose joint (to its parent) has this name: SceneBody::joint_name, or a
  // scene file body's own name; −1: none.
  int FindJoint(const std::string& joint_name) const;
  int FindCamera(const std::string& name) const;  // −1: none of that name
};

// Throws std::invalid_argument with a message naming the body/field for an invalid scene
// (non-positive dt, negative stiffness, NaN, unknown parent...).
void ValidateScene(const SceneSpec& scene);

// Solid-body inertia of a shape of the given mass about its centroid, in the shape frame.
Eigen::Matrix3d SolidInertia(const Shape& shape, double mass_kg);
// The centroid of a bounded shape in its frame G: the origin, except for a convex mesh (whose
// vertices need not be centred on G's origin).
Eigen::Vector3d ShapeCentroid(const Shape& shape);
// Volume of a bounded shape (m³).
double ShapeVolume(const Shape& shape);

}  // namespace contactlab
