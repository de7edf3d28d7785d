// The scene loader's reading of YAML values (io/scene_loader.cc and the parsers it calls): every
// error names the file, the line and the field, in one printable line (SceneError). Internal to
// io/.
#pragma once

#include <spdlog/fmt/fmt.h>
#include <yaml-cpp/yaml.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>

#include "io/asset_directory.h"
#include "io/printable_text.h"
#include "io/scene_bounds.h"
#include "io/scene_loader.h"

namespace contactlab::scene_yaml {

// Carries the file name so every error names file, line and field.
struct Context {
  std::string source;

  // One printable line (Printable): values quoted from a corrupted file stay escaped.
  [[noreturn]] void Fail(const YAML::Node& node, const std::string& message) const {
    constexpr size_t kMaxChars = 400;
    if (node.IsDefined() && node.Mark().line >= 0) {
      throw SceneError(
          Printable(fmt::format("{}:{}: {}", source, node.Mark().line + 1, message), kMaxChars));
    }
    throw SceneError(Printable(fmt::format("{}: {}", source, message), kMaxChars));
  }

  void CheckKeys(const YAML::Node& node, const std::string& where,
                 const std::set<std::string>& allowed) const {
    if (!node.IsMap()) Fail(node, where + " must be a mapping");
    for (const auto& kv : node) {
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
      if (!allowed.count(key)) {
        Fail(kv.first, fmt::format("{}: unknown field '{}'", where, Printable(key)));
      }
    }
  }

  // A finite number of magnitude at most scene_bounds::kMaxMagnitude (with allow_inf, ±.inf
  // too: a rigid contact's stiffness).
  double Number(const YAML::Node& node, const std::string& field, bool allow_inf = false) const {
    if (!node.IsScalar()) Fail(node, fmt::format("field '{}' must be a number", field));
    double value;
    try {
      value = node.as<double>();
    } catch (const YAML::Exception&) {
      Fail(node,
           fmt::format("field '{}' must be a number, got '{}'", field, Printable(node.Scalar())));
    }
    if (std::isnan(value)) Fail(node, fmt::format("field '{}' is NaN", field));
    if (std::isinf(value) && !allow_inf) {
      Fail(node, fmt::format("{} must be finite, got {}", field, value));
    }
    if (std::isfinite(value) && std::abs(value) > scene_bounds::kMaxMagnitude) {
      Fail(node, fmt::format("{} = {} is absurd (|value| above {:g})", field, value,
                             scene_bounds::kMaxMagnitude));
    }
    return value;
  }

  // The value if it lies in the range, else an error naming the field and the range.
  double InRange(const YAML::Node& node, const std::string& field, double value,
                 const scene_bounds::Range& range) const {
    if (!(value >= range.min && value <= range.max)) {
      Fail(node, fmt::format("{} = {} is out of range [{:g}, {:g}] {}", field, value, range.min,
                             range.max, range.unit));
    }
    return value;
  }
  double Bounded(const YAML::Node& map, const std::string& where, const std::string& field,
                 double fallback, const scene_bounds::Range& range) const {
    return InRange(map[field], where + "." + field, Number(map, where, field, fallback), range);
  }
  Eigen::Vector3d BoundedVec3(const YAML::Node& map, const std::string& where,
                              const std::string& field, const Eigen::Vector3d& fallback,
                              const scene_bounds::Range& range) const {
    const Eigen::Vector3d v = Vec3(map, where, field, fallback);
    for (int i = 0; i < 3; ++i) InRange(map[field], where + "." + field, v[i], range);
    return v;
  }

  double Number(const YAML::Node& map, const std::string& where, const std::string& field,
                double fallback) const {
    const YAML::Node n = map[field];
    if (!n.IsDefined() || n.IsNull()) return fallback;
    return Number(n, where + "." + field);
  }

  double Positive(const YAML::Node& map, const std::string& where, const std::string& field,
                  double fallback) const {
    const double v = Number(map, where, field, fallback);
    if (!(v > 0) || std::isinf(v)) {
      Fail(map[field], fmt::format("{}.{} must be positive and finite, got {}", where, field, v));
    }
    return v;
  }

  double NonNegative(const YAML::Node& map, const std::string& where, const std::string& field,
                     double fallback) const {
    const double v = Number(map, where, field, fallback);
    if (!(v >= 0) || std::isinf(v)) {
      Fail(map[field],
           fmt::format("{}.{} must be non-negative and finite, got {}", where, field, v));
    }
    return v;
  }

  Eigen::VectorXd Vector(const YAML::Node& node, const std::string& field, int size) const {
    if (!node.IsSequence() || static_cast<int>(node.size()) != size) {
      Fail(node, fmt::format("field '{}' must be a list of {} numbers", field, size));
    }
    Eigen::VectorXd v(size);
    for (int i = 0; i < size; ++i) v[i] = Number(node[i], field);
    if (!v.allFinite()) Fail(node, fmt::format("field '{}' must be finite", field));
    return v;
  }

  Eigen::Vector3d Vec3(const YAML::Node& map, const std::string& where, const std::string& field,
                       const Eigen::Vector3d& fallback) const {
    const YAML::Node n = map[field];
    if (!n.IsDefined() || n.IsNull()) return fallback;
    return Vector(n, where + "." + field, 3);
  }

  std::string String(const YAML::Node& map, const std::string& field,
                     const std::string& fallback) const {
    const YAML::Node n = map[field];
    if (!n.IsDefined() || n.IsNull()) return fallback;
    if (!n.IsScalar()) Fail(n, fmt::format("field '{}' must be a string", field));
    // Names and paths are shown, logged and written to JSON: printable text only.
    if (Printable(n.Scalar(), std::string::npos) != n.Scalar()) {
      Fail(n, fmt::format("field '{}' must be printable text, got \"{}\"", field,
                          Printable(n.Scalar())));
    }
    return n.Scalar();
  }

  bool Bool(const YAML::Node& map, const std::string& field, bool fallback) const {
    const YAML::Node n = map[field];
    if (!n.IsDefined() || n.IsNull()) return fallback;
    try {
      return n.as<bool>();
    } catch (const YAML::Exception&) {
      Fail(n, fmt::format("field '{}' must be true or false", field));
    }
  }

  // A file named in the scene: absolute, relative to the scene file's folder, or else relative
  // to the asset directory.
  std::string ResolvePath(const std::string& file) const {
    namespace fs = std::filesystem;
    const fs::path path(file);
    if (path.is_absolute()) return path.string();
    const fs::path beside = fs::path(source).parent_path() / path;
    return fs::exists(beside) ? beside.string() : (fs::path(AssetDirectory()) / path).string();
  }

  // `map[field]`, a positive stiffness or .inf (rigid); `fallback` when absent.
  double Stiffness(const YAML::Node& map, const std::string& where, const std::string& field,
                   double fallback) const {
    const YAML::Node k = map[field];
    if (!k.IsDefined() || k.IsNull()) return fallback;
    const double value = Number(k, where + "." + field, /*allow_inf=*/true);
    if (!(value > 0)) {
      Fail(k, fmt::format("{}.{} must be positive (.inf for rigid), got {}", where, field, value));
    }
    return value;
  }

  // Pose from `position` and one of `rpy_deg` (roll-pitch-yaw, degrees, X_WB = Rz·Ry·Rx) or
  // `quaternion` [w, x, y, z].
  Eigen::Isometry3d Pose(const YAML::Node& map, const std::string& where) const {
    Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
    X.translation() =
        BoundedVec3(map, where, "position", Eigen::Vector3d::Zero(), scene_bounds::kPosition);
    const YAML::Node rpy = map["rpy_deg"];
    const YAML::Node quat = map["quaternion"];
    if (rpy.IsDefined() && quat.IsDefined()) {
      Fail(quat, where + ": give either rpy_deg or quaternion, not both");
    }
    if (rpy.IsDefined()) {
      const Eigen::Vector3d a = Vector(rpy, where + ".rpy_deg", 3) * M_PI / 180.0;
      X.linear() = (Eigen::AngleAxisd(a.z(), Eigen::Vector3d::UnitZ()) *
                    Eigen::AngleAxisd(a.y(), Eigen::Vector3d::UnitY()) *
                    Eigen::AngleAxisd(a.x(), Eigen::Vector3d::UnitX()))
                       .toRotationMatrix();
    } else if (quat.IsDefined()) {
      const Eigen::VectorXd q = Vector(quat, where + ".quaternion", 4);
      if (q.norm() < 1e-9) Fail(quat, where + ".quaternion must not be zero");
      X.linear() = Eigen::Quaterniond(q[0], q[1], q[2], q[3]).normalized().toRotationMatrix();
    }
    return X;
  }
};

}  // namespace contactlab::scene_yaml
