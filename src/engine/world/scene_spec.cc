#include "engine/world/scene_spec.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "engine/solver/value_checks.h"

namespace contactlab {

double KinematicMotion::Displacement(double t) const {
  const double omega = 2 * std::numbers::pi * frequency_Hz;
  return amplitude_m * std::sin(omega * t + phase_rad) + speed_m_per_s * t;
}

double KinematicMotion::Velocity(double t) const {
  const double omega = 2 * std::numbers::pi * frequency_Hz;
  return amplitude_m * omega * std::cos(omega * t + phase_rad) + speed_m_per_s;
}

int SceneSpec::FindBody(const std::string& body_name) const {
  for (size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].body.name == body_name) return static_cast<int>(i);
  }
  return -1;
}

int SceneSpec::FindJoint(const std::string& joint_name) const {
  for (size_t i = 0; i < bodies.size(); ++i) {
    const SceneBody& b = bodies[i];
    if ((b.joint_name.empty() ? b.body.name : b.joint_name) == joint_name) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

int SceneSpec::FindCamera(const std::string& camera_name) const {
  for (size_t i = 0; i < cameras.size(); ++i) {
    if (cameras[i].name == camera_name) return static_cast<int>(i);
  }
  return -1;
}

namespace {

void Require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

void CheckContactProperties(const ContactProperties& c, const std::string& where) {
  // Stiffness may be +inf: a rigid geometry (the pair then takes the other's stiffness, §6).
  Require(!std::isnan(c.stiffness_N_per_m) && c.stiffness_N_per_m > 0,
          fmt::format("{}: stiffness must be positive, got {}", where, c.stiffness_N_per_m));
  CheckNonNegative(c.hunt_crossley_s_per_m, where + ": hunt_crossley");
  CheckNonNegative(c.relaxation_time_s, where + ": relaxation_time");
  CheckNonNegative(c.friction, where + ": friction");
}

void CheckHydroelastic(const GeometrySpec& g, const std::string& where) {
  const HydroelasticProperties& h = g.hydroelastic;
  if (h.model == ContactModel::kPoint) return;
  Require(
      !(h.model == ContactModel::kHydroelasticCompliant && g.shape.type == ShapeType::kHalfSpace),
      where + ": a half-space cannot be hydroelastic_compliant (use hydroelastic_rigid)");
  if (h.model == ContactModel::kHydroelasticCompliant) {
    CheckPositive(h.modulus_Pa, where + ": hydroelastic_modulus");
  }
  CheckNonNegative(h.resolution_m, where + ": resolution");
}

void CheckShape(const Shape& s, const std::string& where) {
  switch (s.type) {
    case ShapeType::kSphere:
      CheckPositive(s.radius_m, where + ": radius");
      break;
    case ShapeType::kBox:
      for (int i = 0; i < 3; ++i) CheckPositive(s.half_extents_m[i], where + ": size");
      break;
    case ShapeType::kCylinder:
    case ShapeType::kCapsule:
      CheckPositive(s.radius_m, where + ": radius");
      CheckPositive(s.length_m, where + ": length");
      break;
    case ShapeType::kConvexMesh:
      Require(s.convex_mesh != nullptr && s.convex_mesh->num_vertices() >= 4,
              where + ": convex mesh without vertices");
      CheckPositive(s.convex_mesh->mass.volume_m3, where + ": convex mesh volume");
      break;
    case ShapeType::kHalfSpace:
      break;
  }
}

// Names unique and not empty, a body that exists, a finite pose, 0 < fov < π.
void ValidateCameras(const SceneSpec& scene, const std::string& src) {
  for (size_t i = 0; i < scene.cameras.size(); ++i) {
    const CameraSpec& c = scene.cameras[i];
    const std::string where = fmt::format("{}: camera '{}'", src, c.name);
    Require(!c.name.empty(), fmt::format("{}: camera #{} has no name", src, i));
    Require(scene.FindCamera(c.name) == static_cast<int>(i), where + ": name used twice");
    Require(c.body >= -1 && c.body < static_cast<int>(scene.bodies.size()),
            where + ": no such body");
    Require(c.X_PC.matrix().allFinite(), where + ": pose must be finite");
    Require(c.fov_y_rad > 0 && c.fov_y_rad < std::numbers::pi,
            where + ": field of view must be in (0, 180) degrees");
  }
}

// A constraint's body: the world (−1) or a scene body.
void CheckConstraintBody(const SceneSpec& scene, int body, const std::string& where) {
  Require(body >= -1 && body < static_cast<int>(scene.bodies.size()), where + ": no such body");
}

bool IsOneDofJoint(const SceneSpec& scene, int body) {
  if (body < 0 || scene.bodies[body].kind != SceneBody::Kind::kDynamic) return false;
  const JointType j = scene.bodies[body].body.joint;
  return j == JointType::kRevolute || j == JointType::kPrismatic;
}

// Each constraint names two different bodies, at least one of them dynamic (a constraint on
// nothing that moves is a mistake), finite frames and valid parameters (docs/contact-model.md
// §3.2); a coupler couples two 1-dof joints.
void ValidateConstraints(const SceneSpec& scene, const std::string& src) {
  auto check_pair = [&](const std::string& where, int a, int b) {
    CheckConstraintBody(scene, a, where);
    CheckConstraintBody(scene, b, where);
    Require(a != b, where + ": the two bodies must differ");
    auto dynamic = [&](int i) {
      return i >= 0 && scene.bodies[i].kind == SceneBody::Kind::kDynamic;
    };
    Require(dynamic(a) || dynamic(b), where + ": one of the two bodies must be dynamic");
  };
  auto with_where = [](const std::string& where, auto&& validate) {
    try {
      validate();
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(where + ": " + e.what());
    }
  };
  for (const CouplerSpec& c : scene.couplers) {
    const std::string where = fmt::format("{}: coupler '{}'", src, c.name);
    check_pair(where, c.body_a, c.body_b);
    Require(IsOneDofJoint(scene, c.body_a) && IsOneDofJoint(scene, c.body_b),
            where + ": both bodies must be on revolute or prismatic joints");
    with_where(where, [&] { c.parameters.Validate(); });
  }
  for (const DistanceSpec& d : scene.distances) {
    const std::string where = fmt::format("{}: distance '{}'", src, d.name);
    check_pair(where, d.body_a, d.body_b);
    Require(d.p_AP.allFinite() && d.p_BQ.allFinite(), where + ": points must be finite");
    with_where(where, [&] { d.parameters.Validate(); });
  }
  for (const WeldSpec& w : scene.welds) {
    const std::string where = fmt::format("{}: weld '{}'", src, w.name);
    check_pair(where, w.body_a, w.body_b);
    Require(w.X_AP.matrix().allFinite() && w.X_BQ.matrix().allFinite(),
            where + ": frames must be finite");
    with_where(where, [&] { w.parameters.Validate(); });
  }
}

// A mesh shape's solid is its mesh (non-convex allowed); a hull made from points is the hull.
const PolyhedronMassProperties& MeshMassProperties(const Shape& s) {
  return s.mesh ? s.mesh->mass : s.convex_mesh->mass;
}

// contact_pairs: two distinct bodies each, each pair once, every value in its range.
void ValidateContactPairs(const SceneSpec& scene, const std::string& src) {
  const int n = static_cast<int>(scene.bodies.size());
  for (size_t i = 0; i < scene.contact_pairs.size(); ++i) {
    const ContactPairSpec& p = scene.contact_pairs[i];
    const std::string where = fmt::format("{}: contact_pairs[{}]", src, i);
    Require(p.scene_body_a >= 0 && p.scene_body_a < n && p.scene_body_b >= 0 &&
                p.scene_body_b < n && p.scene_body_a != p.scene_body_b,
            where + ": needs two distinct bodies of the scene");
    for (size_t j = 0; j < i; ++j) {
      Require(!scene.contact_pairs[j].Joins(p.scene_body_a, p.scene_body_b),
              where + ": the pair is listed twice");
    }
    if (p.stiffness_N_per_m) CheckPositive(*p.stiffness_N_per_m, where + ".stiffness");
    if (p.hunt_crossley_s_per_m)
      CheckNonNegative(*p.hunt_crossley_s_per_m, where + ".hunt_crossley");
    if (p.relaxation_time_s) CheckNonNegative(*p.relaxation_time_s, where + ".relaxation_time");
    if (p.friction) CheckNonNegative(*p.friction, where + ".friction");
    if (p.restitution) {
      Require(*p.restitution >= 0 && *p.restitution <= 1, where + ".restitution must be in [0, 1]");
    }
  }
}

}  // namespace

void ValidateScene(const SceneSpec& scene) {
  const std::string& src = scene.source.empty() ? scene.name : scene.source;
  ValidateContactPairs(scene, src);
  ValidateContactSettings(scene.contact_settings, src + ": ", ContactSettingNames::kSceneKeys);
  CheckPositive(scene.duration_s, src + ": duration");
  CheckNonNegative(scene.contact_margin_m, src + ": contact_margin");
  Require(scene.gravity_W.allFinite(), src + ": gravity must be finite");
  for (size_t i = 0; i < scene.bodies.size(); ++i) {
    const SceneBody& b = scene.bodies[i];
    const std::string where = fmt::format("{}: body '{}'", src, b.body.name);
    Require(!b.body.name.empty(), fmt::format("{}: body #{} has no name", src, i));
    Require(scene.FindBody(b.body.name) == static_cast<int>(i), where + ": name used twice");
    Require(b.initial_pose.matrix().allFinite(), where + ": pose must be finite");
    Require(!b.color || (b.color->minCoeff() >= 0 && b.color->maxCoeff() <= 1),
            where + ": color must be three numbers in [0, 1]");
    if (b.kind == SceneBody::Kind::kDynamic) {
      Require(b.parent_scene_index < static_cast<int>(i),
              where + ": parent must be listed before the body");
      if (b.parent_scene_index >= 0) {
        Require(scene.bodies[b.parent_scene_index].kind == SceneBody::Kind::kDynamic,
                where + ": parent must be a dynamic body (or the world)");
      }
      CheckPositive(b.body.inertia.mass_kg, where + ": mass");
      Require(b.initial_velocity.allFinite(), where + ": velocity must be finite");
      Require(std::isfinite(b.initial_position), where + ": position must be finite");
    }
    if (b.pd) {
      CheckNonNegative(b.pd->kp, where + ": pd.kp");
      CheckNonNegative(b.pd->kd, where + ": pd.kd");
      CheckPositive(b.pd->effort_limit, where + ": pd.effort_limit");
    }
    if (b.limits) {
      Require(b.limits->first < b.limits->second, where + ": limits must satisfy lower < upper");
    }
    for (const GeometrySpec& g : b.geometries) {
      const std::string gw = fmt::format("{} shape '{}'", where, g.name);
      CheckShape(g.shape, gw);
      CheckContactProperties(g.contact, gw);
      CheckHydroelastic(g, gw);
    }
  }
  ValidateCameras(scene, src);
  ValidateConstraints(scene, src);
}

double ShapeVolume(const Shape& s) {
  const double pi = std::numbers::pi;
  const double r = s.radius_m;
  switch (s.type) {
    case ShapeType::kSphere:
      return 4.0 / 3.0 * pi * r * r * r;
    case ShapeType::kBox:
      return 8.0 * s.half_extents_m.prod();
    case ShapeType::kCylinder:
      return pi * r * r * s.length_m;
    case ShapeType::kCapsule:
      return pi * r * r * s.length_m + 4.0 / 3.0 * pi * r * r * r;
    case ShapeType::kConvexMesh:
      return MeshMassProperties(s).volume_m3;
    case ShapeType::kHalfSpace:
      return std::numeric_limits<double>::infinity();
  }
  return 0;
}

Eigen::Matrix3d SolidInertia(const Shape& s, double m) {
  const double r = s.radius_m, L = s.length_m;
  Eigen::Vector3d d = Eigen::Vector3d::Zero();
  switch (s.type) {
    case ShapeType::kSphere:
      d.setConstant(0.4 * m * r * r);
      break;
    case ShapeType::kBox: {
      const Eigen::Vector3d h2 = s.half_extents_m.cwiseAbs2();
      d << m / 3 * (h2.y() + h2.z()), m / 3 * (h2.x() + h2.z()), m / 3 * (h2.x() + h2.y());
      break;
    }
    case ShapeType::kCylinder:
      d << m * (3 * r * r + L * L) / 12, m * (3 * r * r + L * L) / 12, 0.5 * m * r * r;
      break;
    case ShapeType::kCapsule: {
      // Cylinder plus two hemispheres, masses split by volume.
      const double v_cyl = std::numbers::pi * r * r * L;
      const double v_sph = 4.0 / 3.0 * std::numbers::pi * r * r * r;
      const double m_cyl = m * v_cyl / (v_cyl + v_sph);
      const double m_hemi = 0.5 * (m - m_cyl);
      const double axial = 0.5 * m_cyl * r * r + 2 * (0.4 * m_hemi * r * r);
      // Hemisphere: 2/5 m r² about its flat face's centre; its COM sits 3r/8 from that face.
      const double hemi_com = 0.4 * m_hemi * r * r - m_hemi * std::pow(3 * r / 8, 2);
      const double offset = L / 2 + 3 * r / 8;
      const double transverse =
          m_cyl * (3 * r * r + L * L) / 12 + 2 * (hemi_com + m_hemi * offset * offset);
      d << transverse, transverse, axial;
      break;
    }
    case ShapeType::kConvexMesh: {
      // Divergence theorem (convex_hull.h): a full tensor, about the centroid.
      const PolyhedronMassProperties& p = MeshMassProperties(s);
      return m / p.volume_m3 * p.unit_density_inertia;
    }
    case ShapeType::kHalfSpace:
      throw std::invalid_argument("a half-space has no finite inertia");
  }
  return d.asDiagonal();
}

Eigen::Vector3d ShapeCentroid(const Shape& s) {
  return s.type == ShapeType::kConvexMesh ? MeshMassProperties(s).centroid_G
                                          : Eigen::Vector3d::Zero();
}

}  // namespace contactlab
