// Finding a contact under the mouse and following a pinned contact from step to step: plain
// geometry on the snapshot's contacts (no ImGui), so that it can be tested with known values.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/solver/contact_parameters.h"
#include "engine/world/step_results.h"

namespace contactlab {

// Where p_W lands on a viewport of viewport_px pixels (x right, y down from the top-left
// corner) through view_projection (world to clip); std::nullopt behind the camera (clip w ≤ 0).
std::optional<Eigen::Vector2f> ProjectToScreen(const Eigen::Matrix4f& view_projection,
                                               const Eigen::Vector3d& p_W,
                                               const Eigen::Vector2f& viewport_px);

// The index of the contact whose projected position is nearest to mouse_px, if that is within
// max_distance_px; −1 otherwise (no contacts, all too far or behind the camera).
int PickContact(const std::vector<ContactResult>& contacts, const Eigen::Matrix4f& view_projection,
                const Eigen::Vector2f& viewport_px, const Eigen::Vector2f& mouse_px,
                float max_distance_px);

// A contact the user clicked, followed across steps: in each new step it is the contact of the
// same body pair (same order) nearest to where it was last seen (a sliding box's corner moves
// with the box). While the pair is out of contact the read-out keeps the last values seen, and
// the model they were computed under, which reads them (a rigid contact has no stiffness,
// docs/contact-model.md §8) and may since have been switched.
struct PinnedContact {
  bool active = false;
  int body_a = -1, body_b = -1;
  ContactResult last;                                          // the values last seen
  ContactApproximation model = ContactApproximation::kLagged;  // the step's model when last seen
  double time_s = 0;                                           // when last seen
  bool present = false;                                        // in the shown step
};

// The index of the contact of bodies (body_a, body_b) nearest to p_W; −1 if there is none.
int MatchContact(const std::vector<ContactResult>& contacts, int body_a, int body_b,
                 const Eigen::Vector3d& p_W);

// Pins contacts[index] of the step at time t_s, computed under `model`.
void Pin(const std::vector<ContactResult>& contacts, int index, double t_s,
         ContactApproximation model, PinnedContact* pinned);

// Drops the pin (the read-out shows none).
void Unpin(PinnedContact* pinned);

// Follows an active pin into the step (contacts, t_s, model): updates last/model/time_s/present.
void FollowPinned(const std::vector<ContactResult>& contacts, double t_s,
                  ContactApproximation model, PinnedContact* pinned);

}  // namespace contactlab
