#include "ui/view/contact_picking.h"

#include <limits>

namespace contactlab {

std::optional<Eigen::Vector2f> ProjectToScreen(const Eigen::Matrix4f& view_projection,
                                               const Eigen::Vector3d& p_W,
                                               const Eigen::Vector2f& viewport_px) {
  const Eigen::Vector4f clip = view_projection * p_W.cast<float>().homogeneous();
  if (!(clip.w() > 0) || !clip.allFinite()) return std::nullopt;
  const Eigen::Vector2f ndc = clip.head<2>() / clip.w();
  // NDC y points up, screen y down.
  return Eigen::Vector2f(0.5f * (ndc.x() + 1.0f) * viewport_px.x(),
                         0.5f * (1.0f - ndc.y()) * viewport_px.y());
}

int PickContact(const std::vector<ContactResult>& contacts, const Eigen::Matrix4f& view_projection,
                const Eigen::Vector2f& viewport_px, const Eigen::Vector2f& mouse_px,
                float max_distance_px) {
  int best = -1;
  float best_distance = max_distance_px;
  for (size_t i = 0; i < contacts.size(); ++i) {
    const std::optional<Eigen::Vector2f> p =
        ProjectToScreen(view_projection, contacts[i].position_W, viewport_px);
    if (!p) continue;
    const float d = (*p - mouse_px).norm();
    if (d <= best_distance) {
      best_distance = d;
      best = static_cast<int>(i);
    }
  }
  return best;
}

int MatchContact(const std::vector<ContactResult>& contacts, int body_a, int body_b,
                 const Eigen::Vector3d& p_W) {
  int best = -1;
  double best_distance = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < contacts.size(); ++i) {
    const ContactResult& c = contacts[i];
    if (c.body_a != body_a || c.body_b != body_b) continue;
    const double d = (c.position_W - p_W).norm();
    if (d < best_distance) {
      best_distance = d;
      best = static_cast<int>(i);
    }
  }
  return best;
}

void Pin(const std::vector<ContactResult>& contacts, int index, double t_s,
         ContactApproximation model, PinnedContact* pinned) {
  if (index < 0 || index >= static_cast<int>(contacts.size())) return;
  pinned->active = true;
  pinned->body_a = contacts[index].body_a;
  pinned->body_b = contacts[index].body_b;
  pinned->last = contacts[index];
  pinned->model = model;
  pinned->time_s = t_s;
  pinned->present = true;
}

void Unpin(PinnedContact* pinned) {
  pinned->active = pinned->present = false;
  pinned->body_a = pinned->body_b = -1;
}

void FollowPinned(const std::vector<ContactResult>& contacts, double t_s,
                  ContactApproximation model, PinnedContact* pinned) {
  if (!pinned->active) return;
  const int i = MatchContact(contacts, pinned->body_a, pinned->body_b, pinned->last.position_W);
  pinned->present = i >= 0;
  if (i < 0) return;
  pinned->last = contacts[i];
  pinned->model = model;
  pinned->time_s = t_s;
}

}  // namespace contactlab
