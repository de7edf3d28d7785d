#include "app/headless/task_monitor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "app/headless/held_object_monitor.h"
#include "app/teleop/peg_alignment.h"

namespace contactlab {

namespace {

// Deepest overlap of any point contact that carries force, and how fast things still move.
// Hydroelastic faces are left out: their penetration is the one their pressure field implies
// (docs/contact-model.md §5), a compliant body's deformation rather than an overlap of the
// nominally rigid shapes this reports.
class GenericMonitor : public TaskMonitor {
 public:
  void Observe(const World& world) override {
    for (const ContactResult& c : world.contacts()) {
      if (c.hydroelastic_patch >= 0) continue;
      if (c.normal_force_W.squaredNorm() > 0 && -c.signed_distance_m > max_penetration_) {
        max_penetration_ = -c.signed_distance_m;
        const auto& bodies = world.scene().bodies;
        deepest_pair_ = bodies[c.body_a].body.name + "/" + bodies[c.body_b].body.name;
        deepest_time_ = world.time();
      }
    }
    final_kinetic_energy_ = world.KineticEnergy();
    max_speed_ = 0;
    for (size_t i = 0; i < world.scene().bodies.size(); ++i) {
      max_speed_ = std::max(max_speed_, world.BodyVelocity(static_cast<int>(i)).tail<3>().norm());
    }
  }
  void Report(JsonWriter* json) const override {
    json->Number("max_penetration", max_penetration_)
        .String("deepest_pair", deepest_pair_)
        .Number("deepest_time", deepest_time_)
        .Number("final_kinetic_energy", final_kinetic_energy_)
        .Number("final_max_speed", max_speed_);
  }

 private:
  double max_penetration_ = 0, final_kinetic_energy_ = 0, max_speed_ = 0;
  std::string deepest_pair_;
  double deepest_time_ = 0;
};

double FirstRadius(const World& world, int body) {
  for (int g = 0; g < world.num_geometries(); ++g) {
    if (world.geometry_body(g) == body) return world.geometry(g).shape.radius_m;
  }
  return 0;
}

// Falling sphere (docs/contact-model.md §7): touchdown, slide, then roll at 5/7 U0.
class FallingSphereMonitor : public GenericMonitor {
 public:
  explicit FallingSphereMonitor(const World& world, int sphere)
      : sphere_(sphere), radius_(FirstRadius(world, sphere)) {
    initial_speed_ = world.BodyVelocity(sphere).tail<3>().head<2>().norm();
  }
  void Observe(const World& world) override {
    GenericMonitor::Observe(world);
    const Eigen::Matrix<double, 6, 1> V = world.BodyVelocity(sphere_);
    const Eigen::Vector3d w = V.head<3>(), v = V.tail<3>();
    // Velocity of the sphere's lowest point: its slip on the ground.
    const Eigen::Vector3d slip = v + w.cross(Eigen::Vector3d(0, 0, -radius_));
    const double slip_speed = slip.head<2>().norm();
    const bool touching = world.NetNormalForce(sphere_).norm() > 0;
    if (touching && touchdown_time_ < 0) touchdown_time_ = world.time() - world.last_stats().dt_s;
    if (touchdown_time_ >= 0 && roll_time_ < 0 && slip_speed < kRollingSlip) {
      roll_time_ = world.time();
    }
    final_speed_ = v.head<2>().norm();
    final_slip_ = slip_speed;
  }
  void Report(JsonWriter* json) const override {
    GenericMonitor::Report(json);
    json->Number("initial_speed", initial_speed_)
        .Number("touchdown_time", touchdown_time_)
        .Number("roll_time", roll_time_)
        .Number("slide_duration", roll_time_ >= 0 ? roll_time_ - touchdown_time_ : -1)
        .Number("final_speed", final_speed_)
        .Number("final_slip_speed", final_slip_)
        .Number("rigid_final_speed", 5.0 / 7.0 * initial_speed_)
        .Bool("rolling", roll_time_ >= 0);
  }
  static constexpr double kRollingSlip = 2e-3;  // m/s: slip below this counts as rolling

 private:
  int sphere_;
  double radius_, initial_speed_ = 0;
  double touchdown_time_ = -1, roll_time_ = -1, final_speed_ = 0, final_slip_ = 0;
};

// Conveyor belt (ICF paper §VI-A): the box's lift above its stiction height during slip.
class ConveyorMonitor : public GenericMonitor {
 public:
  ConveyorMonitor(int box, int belt) : box_(box), belt_(belt) {}
  void Observe(const World& world) override {
    GenericMonitor::Observe(world);
    const double slip =
        (world.BodyVelocity(box_).tail<3>() - world.BodyVelocity(belt_).tail<3>()).head<2>().norm();
    const double z = world.BodyPose(box_).translation().z();
    if (world.time() < kSettleTime) return;
    const double stick_slip = 10 * world.contact_settings().stiction_tolerance_m_per_s;
    if (slip < stick_slip) {
      stick_height_sum_ += z;
      ++stick_steps_;
    } else {
      // Running sums for the report's fit (bounded memory in runs of any length).
      ++slip_steps_;
      max_slip_ = std::max(max_slip_, slip);
      min_slip_height_ = std::min(min_slip_height_, z);
      max_slip_height_ = std::max(max_slip_height_, z);
      if (slip > kFitMinSlip) {
        fit_zv_ += z * slip;
        fit_v_ += slip;
        fit_vv_ += slip * slip;
      }
    }
  }
  void Report(JsonWriter* json) const override {
    GenericMonitor::Report(json);
    const double stick_height = stick_steps_ ? stick_height_sum_ / stick_steps_ : 0.0;
    const double max_lift = slip_steps_ ? std::max(std::abs(max_slip_height_ - stick_height),
                                                   std::abs(min_slip_height_ - stick_height))
                                        : 0.0;
    // Least squares through the origin of lift = z − stick_height against slip speed v:
    // Σ(z − s̄)v / Σv², with Σ(z − s̄)v = Σzv − s̄Σv.
    const double num = fit_zv_ - stick_height * fit_v_, den = fit_vv_;
    json->Number("stick_height", stick_height)
        .Integer("stick_steps", stick_steps_)
        .Integer("slip_steps", slip_steps_)
        .Number("max_slip_speed", max_slip_)
        .Number("max_lift_during_slip", max_lift)
        .Number("lift_per_slip_speed", den > 0 ? num / den : 0);  // s: compare μ(δt + τ_d), μ δt
  }
  static constexpr double kSettleTime = 0.25;  // s: skip the first contact transient
  static constexpr double kFitMinSlip = 0.02;  // m/s: the fit ignores transitions through 0

 private:
  int box_, belt_;
  double stick_height_sum_ = 0;
  long long stick_steps_ = 0, slip_steps_ = 0;
  double max_slip_ = 0, min_slip_height_ = INFINITY, max_slip_height_ = -INFINITY;
  double fit_zv_ = 0, fit_v_ = 0, fit_vv_ = 0;
};

// Incline with tan θ < μ: the box should stay (creep no faster than the stiction tolerance).
class InclineMonitor : public GenericMonitor {
 public:
  explicit InclineMonitor(int box) : box_(box) {}
  void Observe(const World& world) override {
    GenericMonitor::Observe(world);
    if (world.time() < 0.5 * world.scene().duration_s) return;
    speed_sum_ += world.BodyVelocity(box_).tail<3>().norm();
    max_speed_ = std::max(max_speed_, world.BodyVelocity(box_).tail<3>().norm());
    ++samples_;
  }
  void Report(JsonWriter* json) const override {
    GenericMonitor::Report(json);
    json->Number("creep_speed", samples_ ? speed_sum_ / samples_ : 0)
        .Number("max_creep_speed", max_speed_);
  }

 private:
  int box_;
  double speed_sum_ = 0, max_speed_ = 0;
  int samples_ = 0;
};

// Spring–cylinder (SAP paper §VI-B): energy band and period of the oscillation.
class SpringCylinderMonitor : public GenericMonitor {
 public:
  SpringCylinderMonitor(const World& world, int spring_body) : spring_body_(spring_body) {
    const SceneBody& sb = world.scene().bodies[spring_body];
    rest_ = sb.body.rest_position;
  }
  void Observe(const World& world) override {
    GenericMonitor::Observe(world);
    const int b = world.multibody_index(spring_body_);
    const double x = world.q()[world.multibody().position_start(b)] - rest_;
    const double energy = world.KineticEnergy() + world.PotentialEnergy();
    if (!initialized_) {
      energy_min_ = energy_max_ = energy;
      initialized_ = true;
    }
    energy_min_ = std::min(energy_min_, energy);
    energy_max_ = std::max(energy_max_, energy);
    energy_sum_ += energy;
    ++samples_;
    // Upward zero crossings, interpolated within the step.
    if (previous_x_ < 0 && x >= 0) {
      const double crossing = world.time() - world.last_stats().dt_s * x / (x - previous_x_);
      if (crossings_ == 0) first_crossing_ = crossing;
      last_crossing_ = crossing;
      ++crossings_;
    }
    previous_x_ = x;
  }
  void Report(JsonWriter* json) const override {
    GenericMonitor::Report(json);
    const double mean = samples_ ? energy_sum_ / samples_ : 0;
    double period = 0;
    if (crossings_ >= 2) period = (last_crossing_ - first_crossing_) / (crossings_ - 1);
    json->Number("energy_min", energy_min_)
        .Number("energy_max", energy_max_)
        .Number("energy_band", mean != 0 ? (energy_max_ - energy_min_) / std::abs(mean) : 0)
        .Number("period", period)
        .Integer("periods", crossings_ == 0 ? 0 : crossings_ - 1);
  }

 private:
  int spring_body_;
  double rest_ = 0, previous_x_ = 0;
  bool initialized_ = false;
  double energy_min_ = 0, energy_max_ = 0, energy_sum_ = 0;
  int samples_ = 0;
  long long crossings_ = 0;  // upward zero crossings: the first and last give the period
  double first_crossing_ = 0, last_crossing_ = 0;
};

// Sliding rod (Painlevé): the rod jams and jumps off the ground.
class SlidingRodMonitor : public GenericMonitor {
 public:
  explicit SlidingRodMonitor(int rod) : rod_(rod) {}
  void Observe(const World& world) override {
    GenericMonitor::Observe(world);
    const bool touching = world.NetNormalForce(rod_).norm() > 0;
    if (touching) {
      touched_ = true;
      if (airborne_start_ >= 0) {
        airborne_time_ += world.time() - airborne_start_;
        airborne_start_ = -1;
      }
    } else if (touched_ && airborne_start_ < 0) {
      airborne_start_ = world.time();
      ++jumps_;
    }
    peak_normal_force_ = std::max(peak_normal_force_, world.NetNormalForce(rod_).norm());
    final_speed_ = world.BodyVelocity(rod_).tail<3>().norm();
  }
  void Report(JsonWriter* json) const override {
    GenericMonitor::Report(json);
    json->Bool("jumped", jumps_ > 0)
        .Integer("jumps", jumps_)
        .Number("airborne_time", airborne_time_)
        .Number("peak_normal_force", peak_normal_force_)
        .Number("final_speed", final_speed_);
  }

 private:
  int rod_;
  bool touched_ = false;
  double airborne_start_ = -1, airborne_time_ = 0, peak_normal_force_ = 0, final_speed_ = 0;
  int jumps_ = 0;
};

// Peg-in-hole (issue 4; app/teleop/peg_alignment.h measures it). Inserted: at the end, the peg's
// lowest point is at least kInsertedDepth_m below the block's top and the peg's axis is inside
// the hole's footprint.
class PegInHoleMonitor : public GenericMonitor {
 public:
  explicit PegInHoleMonitor(const PegHole& hole) : hole_(hole) {}
  void Observe(const World& world) override {
    GenericMonitor::Observe(world);
    last_ = MeasurePegAlignment(hole_, world.BodyPose(hole_.peg));
    max_depth_ = std::max(max_depth_, last_.insertion_depth_m);
    if (last_.height_above_hole_m < kNearHole) {  // the insertion phase: near or in the hole
      ++insertion_steps_;
      insertion_contacts_ += world.last_stats().num_contacts;
      max_insertion_contacts_ = std::max(max_insertion_contacts_, world.last_stats().num_contacts);
    }
  }
  void Report(JsonWriter* json) const override {
    GenericMonitor::Report(json);
    const double peg_half_min = std::min(hole_.peg_half_m.x(), hole_.peg_half_m.y());
    json->Bool("inserted", last_.inserted)
        .Number("insertion_depth", last_.insertion_depth_m)
        .Number("max_insertion_depth", max_depth_)
        .Number("block_top", hole_.block_top_z_m)
        .Number("peg_bottom", last_.peg_bottom_z_m)
        .Number("lateral_offset", last_.lateral_offset_m)
        .Number("peg_tilt", last_.tilt_rad)
        .Number("hole_clearance", 2 * (hole_.hole_half_width_m - peg_half_min))
        .Number("insertion_contacts_mean",
                insertion_steps_ ? static_cast<double>(insertion_contacts_) / insertion_steps_ : 0)
        .Integer("insertion_contacts_max", max_insertion_contacts_);
  }
  static constexpr double kNearHole = 0.005;  // m: counts contacts from 5 mm above the hole

 private:
  PegHole hole_;
  PegAlignment last_;
  double max_depth_ = 0;
  long long insertion_steps_ = 0, insertion_contacts_ = 0;
  int max_insertion_contacts_ = 0;
};

// The monitor of the scene's own outcome.
std::unique_ptr<TaskMonitor> MakeSceneMonitor(const World& world) {
  const SceneSpec& scene = world.scene();
  const int sphere = scene.FindBody("sphere");
  const int box = scene.FindBody("box");
  if (scene.name == "falling_sphere" && sphere >= 0) {
    return std::make_unique<FallingSphereMonitor>(world, sphere);
  }
  if (scene.name == "conveyor" && box >= 0 && scene.FindBody("belt") >= 0) {
    return std::make_unique<ConveyorMonitor>(box, scene.FindBody("belt"));
  }
  if (const std::optional<PegHole> hole = FindPegHole(world)) {
    return std::make_unique<PegInHoleMonitor>(*hole);
  }
  if (scene.name == "incline" && box >= 0) return std::make_unique<InclineMonitor>(box);
  if (scene.name == "sliding_rod" && scene.FindBody("rod") >= 0) {
    return std::make_unique<SlidingRodMonitor>(scene.FindBody("rod"));
  }
  if (scene.name == "spring_cylinder") {
    for (size_t i = 0; i < scene.bodies.size(); ++i) {
      const SceneBody& b = scene.bodies[i];
      if (b.kind == SceneBody::Kind::kDynamic && b.body.joint == JointType::kPrismatic &&
          b.body.stiffness > 0) {
        return std::make_unique<SpringCylinderMonitor>(world, static_cast<int>(i));
      }
    }
  }
  return std::make_unique<GenericMonitor>();
}

}  // namespace

std::unique_ptr<TaskMonitor> MakeTaskMonitor(const World& world) {
  std::unique_ptr<TaskMonitor> monitor = MakeSceneMonitor(world);
  if (world.scene().held_object) {
    monitor = std::make_unique<HeldObjectMonitor>(world, std::move(monitor));
  }
  return monitor;
}

}  // namespace contactlab
