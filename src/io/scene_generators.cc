#include "io/scene_generators.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

namespace contactlab {

namespace {
// ICF paper §VII-A: objects start in columns of 10 (four columns for 40 bodies).
constexpr int kClutterPerColumn = 10;
}  // namespace

void AddPegBlock(const PegBlockSpec& b, const ContactProperties& contact, SceneSpec* scene) {
  const double W_x = b.size_m.x(), W_y = b.size_m.y(), H = b.size_m.z();
  const double h = b.peg_width_m + b.clearance_m;  // hole width
  const double c = b.chamfer_m;
  if (!(h < std::min(W_x, W_y))) {
    throw std::invalid_argument(
        fmt::format("the hole ({} m = peg width + clearance) must be narrower than the block", h));
  }
  const double wall_x = 0.5 * (W_x - h), wall_y = 0.5 * (W_y - h);  // wall thickness
  if (!(c < 0.5 * std::min(wall_x, wall_y) && c < 0.5 * H)) {
    throw std::invalid_argument(
        fmt::format("a chamfer of {} m does not fit walls {} m thick and {} m high", c,
                    std::min(wall_x, wall_y), H));
  }
  SceneBody body;
  body.kind = SceneBody::Kind::kStatic;
  body.body.name = b.name;
  body.initial_pose = b.pose;
  auto add = [&](const std::string& name, const Eigen::Vector3d& size,
                 const Eigen::Vector3d& position, const Eigen::Matrix3d& R) {
    GeometrySpec g;
    g.name = name;
    g.shape = Shape::Box(0.5 * size);
    g.X_BG.linear() = R;
    g.X_BG.translation() = position;
    g.contact = contact;
    body.geometries.push_back(std::move(g));
  };
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  // Walls below the chamfer layer (full height without a chamfer).
  const double wall_h = H - c, wall_z = -c - 0.5 * wall_h;
  const double x_off = 0.5 * h + 0.5 * wall_x, y_off = 0.5 * h + 0.5 * wall_y;
  add("wall_px", {wall_x, W_y, wall_h}, {x_off, 0, wall_z}, I);
  add("wall_nx", {wall_x, W_y, wall_h}, {-x_off, 0, wall_z}, I);
  add("wall_py", {h, wall_y, wall_h}, {0, y_off, wall_z}, I);
  add("wall_ny", {h, wall_y, wall_h}, {0, -y_off, wall_z}, I);
  if (c > 0) {
    // The top layer, set back by c from the hole.
    const double top_x = wall_x - c, top_y = wall_y - c;
    const double tx = 0.5 * h + c + 0.5 * top_x, ty = 0.5 * h + c + 0.5 * top_y;
    add("top_px", {top_x, W_y, c}, {tx, 0, -0.5 * c}, I);
    add("top_nx", {top_x, W_y, c}, {-tx, 0, -0.5 * c}, I);
    add("top_py", {h + 2 * c, top_y, c}, {0, ty, -0.5 * c}, I);
    add("top_ny", {h + 2 * c, top_y, c}, {0, -ty, -0.5 * c}, I);
    // A square of side c·√2 turned 45° about the edge direction, centred at (h/2 + c, −c): one
    // face runs from the wall's top inner edge (h/2, −c) to the top layer's edge (h/2 + c, 0).
    const double d = c * std::sqrt(2.0), e = 0.5 * h + c;
    const auto Ry = [](double deg) {
      return Eigen::AngleAxisd(deg * M_PI / 180, Eigen::Vector3d::UnitY()).toRotationMatrix();
    };
    const auto Rx = [](double deg) {
      return Eigen::AngleAxisd(deg * M_PI / 180, Eigen::Vector3d::UnitX()).toRotationMatrix();
    };
    add("chamfer_px", {d, h + 2 * c, d}, {e, 0, -c}, Ry(-45));
    add("chamfer_nx", {d, h + 2 * c, d}, {-e, 0, -c}, Ry(45));
    add("chamfer_py", {h + 2 * c, d, d}, {0, e, -c}, Rx(45));
    add("chamfer_ny", {h + 2 * c, d, d}, {0, -e, -c}, Rx(-45));
  }
  scene->bodies.push_back(std::move(body));
}

int ClutterGridSide(int count) {
  const int columns = (count + kClutterPerColumn - 1) / kClutterPerColumn;
  return static_cast<int>(std::ceil(std::sqrt(static_cast<double>(columns))));
}

void AddClutter(const ClutterSpec& c, const ContactProperties& contact, SceneSpec* scene) {
  // ICF paper §VII-A: objects start in columns (kClutterPerColumn), an arbitrary assortment of
  // spheres and boxes, and fall into the box.
  std::mt19937 rng(c.seed);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05), angle(-M_PI, M_PI), coin(0, 1);
  const int side = ClutterGridSide(c.count);
  const double half = 0.5 * c.container_m;
  const double pitch = c.container_m / side;
  const double spacing = 1.1 * std::sqrt(3.0) * c.size_m;  // a rotated box's diagonal fits
  if (c.walls) {
    SceneBody walls;
    walls.kind = SceneBody::Kind::kStatic;
    walls.body.name = "walls";
    const double thickness = 0.1, height = c.container_m;
    for (int wall = 0; wall < 4; ++wall) {
      GeometrySpec g;
      g.name = fmt::format("wall{}", wall);
      const bool normal_x = wall < 2;
      const double sign = wall % 2 == 0 ? 1.0 : -1.0;
      const double offset = half + 0.5 * thickness;
      g.shape =
          Shape::Box(normal_x ? Eigen::Vector3d(0.5 * thickness, half + thickness, 0.5 * height)
                              : Eigen::Vector3d(half + thickness, 0.5 * thickness, 0.5 * height));
      g.X_BG.translation() = normal_x ? Eigen::Vector3d(sign * offset, 0, 0.5 * height)
                                      : Eigen::Vector3d(0, sign * offset, 0.5 * height);
      g.contact = contact;
      g.contact.stiffness_N_per_m = std::numeric_limits<double>::infinity();  // rigid walls
      walls.geometries.push_back(g);
    }
    scene->bodies.push_back(walls);
  }
  for (int i = 0; i < c.count; ++i) {
    const int column = i / kClutterPerColumn, level = i % kClutterPerColumn;
    const int ix = column % side, iy = column / side;
    SceneBody sb;
    sb.kind = SceneBody::Kind::kDynamic;
    const bool sphere = coin(rng) < 0.5;
    sb.body.name = fmt::format("{}{}", sphere ? "sphere" : "box", i);
    GeometrySpec g;
    g.name = "shape";
    g.shape = sphere ? Shape::Sphere(0.5 * c.size_m)
                     : Shape::Box(Eigen::Vector3d::Constant(0.5 * c.size_m));
    g.contact = contact;
    sb.geometries.push_back(g);
    const double mass = c.density_kg_per_m3 * ShapeVolume(g.shape);
    sb.body.inertia.mass_kg = mass;
    sb.body.inertia.inertia_about_com_B = SolidInertia(g.shape, mass);
    const double x = -half + pitch * (ix + 0.5) + jitter(rng) * c.size_m;
    const double y = -half + pitch * (iy + 0.5) + jitter(rng) * c.size_m;
    const double z = c.drop_height_m + 0.5 * spacing + spacing * level;
    sb.initial_pose.translation() = Eigen::Vector3d(x, y, z);
    sb.initial_pose.linear() = (Eigen::AngleAxisd(angle(rng), Eigen::Vector3d::UnitZ()) *
                                Eigen::AngleAxisd(angle(rng), Eigen::Vector3d::UnitY()) *
                                Eigen::AngleAxisd(angle(rng), Eigen::Vector3d::UnitX()))
                                   .toRotationMatrix();
    sb.initial_velocity = Eigen::VectorXd::Zero(6);
    scene->bodies.push_back(sb);
  }
}

}  // namespace contactlab
