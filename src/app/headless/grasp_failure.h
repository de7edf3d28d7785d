// When a held object is lost (issue 36; the ICF paper's grasp stress test, §XII-B: "begins to
// rock, slide, and ultimately fall"): the time to failure t_f of a scene's `held_object`.
//
// Definition: the grasp point G is the object's material point that starts at the tool point
// (midway between the finger pads; else the hand's origin). The object has failed once G has
// moved more than kGraspFailureSlip_m (1 cm) from where it started in the hand's frame; t_f is
// the end of the first step at which it has. Rocking — the object turning about the grasp,
// which the paper names as the first stage, not the failure — leaves G in place and does not
// count; sliding along or out of the pads moves G and does, and so does a fall. 1 cm is a
// fifth of the Panda's pad length (4.5 cm) and far above the creep of a secure grasp
// (micrometres per second: tests/app/headless/grasp_failure_test.cc), so t_f does not depend
// on the threshold's exact value once the rod slides away.
#pragma once

#include <Eigen/Geometry>

#include "engine/world/world.h"

namespace contactlab {

inline constexpr double kGraspFailureSlip_m = 0.01;

// The measurement alone, from the hand's and the object's poses.
class GraspFailureDetector {
 public:
  // p_HG: the grasp point in the hand's frame; X_WH0, X_WO0: the hand's and the object's
  // initial poses.
  GraspFailureDetector(const Eigen::Vector3d& p_HG, const Eigen::Isometry3d& X_WH0,
                       const Eigen::Isometry3d& X_WO0, double threshold_m = kGraspFailureSlip_m);
  // After the step that ends at t.
  void Observe(double t, const Eigen::Isometry3d& X_WH, const Eigen::Isometry3d& X_WO);

  bool failed() const { return failed_; }
  // t_f when failed, else the time of the last observation (the run held for all of it).
  double time_to_failure() const { return failed_ ? failure_time_ : last_time_; }
  double slip_m() const { return slip_m_; }              // G's displacement in the hand frame now
  double max_slip_m() const { return max_slip_m_; }      // its largest until the failure (or now)
  double max_rock_rad() const { return max_rock_rad_; }  // the largest turn in the hand frame

 private:
  Eigen::Vector3d p_HG_, p_OG_;  // the grasp point in the hand's and the object's frames
  Eigen::Matrix3d R_HO0_;        // the object's initial orientation in the hand frame
  double threshold_m_;
  bool failed_ = false;
  double failure_time_ = 0, last_time_ = 0;
  double slip_m_ = 0, max_slip_m_ = 0, max_rock_rad_ = 0;
};

// The detector for a scene's `held_object`, from the world's current poses: the grasp point is
// the tool point (midway between the pads) when the hand is a teleoperated robot's, else the
// hand's origin.
GraspFailureDetector MakeGraspFailureDetector(const World& world, const HeldObjectSpec& held);

}  // namespace contactlab
