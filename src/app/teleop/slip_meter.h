// The slip meter (issue 36; docs/architecture.md §5, "The slip meter"): how a body B moves in the
// frame H of the hand that holds it, step by step, and how far it has crept since the grasp
// closed. The headless run's log and summary (the held object's creep rate) and the GUI's Slip
// meter panel (through the snapshot) read the same meter.
#pragma once

#include <Eigen/Geometry>
#include <vector>

#include "engine/world/world.h"

namespace contactlab {

// What the meter read after the last step (or at its last restart).
struct SlipReading {
  int body = -1;  // scene body B measured (−1: none)
  int hand = -1;  // scene body whose frame H it is measured in (−1: the world frame)
  double time_s = 0;
  Eigen::Isometry3d X_HB = Eigen::Isometry3d::Identity();  // B's pose in H, now
  // A step was observed since the meter (re)started: the slip below is defined.
  bool has_slip = false;
  // The slip: the displacement of B's origin in H over the last step, divided by the step,
  // (p_HB(t) − p_HB(t − δt)) / δt [m/s], expressed in H; and the angle of the relative rotation
  // R_HB(t − δt)ᵀ R_HB(t) over the step, divided by the step [rad/s].
  Eigen::Vector3d v_slip_H = Eigen::Vector3d::Zero();
  double w_slip_rad_per_s = 0;
  double step_s = 0;  // the last step observed
  // Bodies of the hand's subtree (H and every body hanging from it: the fingers, their pads)
  // that pressed on B (a non-zero normal force) in the last step; held: at least two of them.
  int hand_bodies_touching = 0;
  bool held = false;
  // Held at both ends of the last step: the step is part of the held phase, its displacement
  // counts as creep.
  bool held_through_step = false;
  double held_since_s = -1;  // when the grasp closed (the first held step's end); −1: not held
  // Creep since the grasp closed (restarting when a grasp re-closes; kept after a release):
  // the path length of B's origin in H (Σ ‖Δp_HB‖ over the held steps), the rotation angle
  // travelled (Σ of the steps' angles), and the net displacement ‖p_HB − p_HB(closed)‖.
  double creep_path_m = 0;
  double creep_angle_rad = 0;
  double creep_displacement_m = 0;
  // The drift since the meter (re)started — headless, the run's start — held or not:
  // ‖p_HB − p_HB(start)‖ [m] (Drumwright & Shell's "drift from its initial position in the
  // gripper", issue 38).
  double drift_m = 0;

  double slip_speed_m_per_s() const { return v_slip_H.norm(); }
};

// The hand a scene's body is measured against by default: the held object's hand if the scene
// declares `held_object`, else the teleoperated arm's hand, else −1 (the world).
int DefaultSlipHand(const SceneSpec& scene);

class SlipMeter {
 public:
  // Measures `body` in the frame of `hand` (scene bodies; hand −1: the world, where nothing is
  // ever held), from the world's current state. Throws std::invalid_argument on an index out of
  // range.
  SlipMeter(const World& world, int body, int hand);
  SlipMeter() = default;  // measures nothing

  // After each step of `world` (the same scene): the slip over the step, the grasp, the creep.
  // Allocates nothing. A time that did not advance restarts the meter instead.
  void Observe(const World& world);
  // The state jumped (a reset, a recorded step shown, a branch): the next step's slip is taken
  // from here, and a grasp seen now counts as closing now.
  void Restart(const World& world);

  const SlipReading& reading() const { return reading_; }

 private:
  Eigen::Isometry3d RelativePose(const World& world) const;
  int CountHandBodiesTouching(const World& world);
  void CloseGrasp(double time_s);

  SlipReading reading_;
  Eigen::Vector3d p_HB_closed_ = Eigen::Vector3d::Zero();  // where B was when the grasp closed
  Eigen::Vector3d p_HB_start_ = Eigen::Vector3d::Zero();   // where B was at the (re)start
  std::vector<char> in_hand_;                              // per scene body: in H's subtree
  std::vector<char> touching_;                             // per scene body, this step
};

}  // namespace contactlab
