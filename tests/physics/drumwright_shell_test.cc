// The rigid model (docs/contact-model.md §8, Drumwright & Shell 2009) stepping scenes, against
// rigid-body answers: Newton's restitution law on a dropped sphere, a resting box that never
// sinks, a box on an incline that sticks exactly below tan θ = μ and slides at
// g(sin θ − μ cos θ) above it, and the falling sphere's 5/7 U0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "physics_test_util.h"

namespace contactlab {
namespace {

constexpr double kG = 9.81;

SceneSpec RigidScene(const std::string& name, double dt_s) {
  SceneSpec scene = testing::LoadBuiltinScene(name);
  scene.contact_settings.approximation = ContactApproximation::kDrumwrightShell;
  scene.contact_settings.dt_s = dt_s;
  return scene;
}

// The falling sphere's ball (r = 2.5 cm) dropped from rest, its lowest point h above the ground,
// with restitution ε on both geometries.
SceneSpec DroppedSphere(double h, double epsilon) {
  SceneSpec scene = RigidScene("falling_sphere", 1e-3);
  const int sphere = scene.FindBody("sphere");
  scene.bodies[sphere].initial_pose.translation().z() = 0.025 + h;
  scene.bodies[sphere].initial_velocity.setZero();
  for (SceneBody& body : scene.bodies)
    for (GeometrySpec& g : body.geometries) g.contact.restitution = epsilon;
  return scene;
}

double Height(const World& world, int body) { return world.BodyPose(body).translation().z(); }

// The step that reaches the ground ends on it (its velocity the one that closes the gap it
// started with, −φ0/δt); from the next step on the sphere is at rest there: no bounce, no
// penetration.
TEST(DrumwrightShellModel, AnInelasticDropStopsInOneStepOnTheSurface) {
  World world(DroppedSphere(0.05, 0.0));
  const int sphere = world.scene().FindBody("sphere");
  int contact_step = -1;
  for (int step = 0; step < 1000; ++step) {
    const double gap = Height(world, sphere) - 0.025;
    ASSERT_TRUE(world.Step());
    const double height = Height(world, sphere) - 0.025, vz = world.BodyVelocity(sphere)[5];
    if (contact_step < 0 && world.last_stats().rigid.num_active > 0) {
      contact_step = step;
      EXPECT_NEAR(height, 0, 1e-12);
      EXPECT_NEAR(vz, -gap / 1e-3, 1e-9);
    } else if (contact_step >= 0) {
      ASSERT_NEAR(vz, 0, 1e-12) << "step " << step;
      ASSERT_NEAR(height, 0, 1e-12) << "step " << step;
    } else {
      ASSERT_GT(height, 0);
    }
  }
  ASSERT_GT(contact_step, 0);
}

// The rebound's peak over the drop height h = 0.2 m: ε² (energy), within 1 % for ε = 1; and the
// speed ratio over the impact, ε.
TEST(DrumwrightShellModel, RestitutionGivesNewtonsReboundSpeedAndHeight) {
  const double h = 0.2;
  for (const double epsilon : {1.0, 0.5}) {
    SCOPED_TRACE(epsilon);
    World world(DroppedSphere(h, epsilon));
    const int sphere = world.scene().FindBody("sphere");
    double before = 0, after = 0, peak = 0;
    bool bounced = false;
    for (int step = 0; step < 600; ++step) {
      const double vz = world.BodyVelocity(sphere)[5];
      ASSERT_TRUE(world.Step());
      if (!bounced && world.last_stats().rigid.num_active > 0) {
        bounced = true;
        before = -vz;  // the impact speed: the step's start, before this step's gravity
        after = world.BodyVelocity(sphere)[5];
      }
      if (bounced) peak = std::max(peak, Height(world, sphere) - 0.025);
    }
    ASSERT_TRUE(bounced);
    // Gravity acts on the free motion during the impact step: v_n = −(v0 + gδt) then ε·that.
    EXPECT_NEAR(after / (before + kG * 1e-3), epsilon, 1e-9);
    EXPECT_NEAR(peak, epsilon * epsilon * h, 0.01 * h);
  }
}

TEST(DrumwrightShellModel, AFallingSphereRollsAtFiveSeventhsOfU0) {
  const double u0 = 2.0;
  SceneSpec scene = RigidScene("falling_sphere", 5e-4);
  World world(scene);
  const int sphere = scene.FindBody("sphere");
  ASSERT_EQ(testing::RunFor(&world, 0.4), 0);
  const auto V = world.BodyVelocity(sphere);
  EXPECT_NEAR(V.tail<3>().head<2>().norm(), 5.0 / 7.0 * u0, 1e-3 * u0);
  EXPECT_NEAR(Height(world, sphere), 0.025, 1e-9);
}

// A 10 cm box set on the ground at rest (the incline's box on a level floor).
TEST(DrumwrightShellModel, ARestingBoxNeverSinks) {
  SceneSpec scene = RigidScene("incline", 1e-3);
  const int box = scene.FindBody("box");
  scene.bodies[scene.FindBody("ramp")].initial_pose.linear().setIdentity();
  scene.bodies[box].initial_pose.setIdentity();
  scene.bodies[box].initial_pose.translation().z() = 0.05;
  World world(scene);
  double lowest = 1;
  ASSERT_EQ(testing::RunFor(&world, 10.0,
                            [&](const World& w) {
                              for (const ContactResult& c : w.contacts())
                                lowest = std::min(lowest, c.signed_distance_end_m);
                            }),
            0);
  EXPECT_GE(lowest, -1e-9);
  EXPECT_NEAR(Height(world, box), 0.05, 1e-9);
  EXPECT_LT(world.BodyVelocity(box).norm(), 1e-9);
}

// The incline (θ = 20°, tan θ = 0.364): with μ = 0.5 the box sticks, its creep zero to
// rounding; with μ = 0.2 it slides at g(sin θ − μ cos θ) = 1.512 m/s².
TEST(DrumwrightShellModel, ABoxOnAnInclineSticksOrSlidesAtCoulombsAcceleration) {
  const double theta = 20.0 * M_PI / 180;
  for (const double mu : {0.5, 0.2}) {
    SCOPED_TRACE(mu);
    SceneSpec scene = RigidScene("incline", 1e-3);
    scene.contact_settings.friction = mu;
    World world(scene);
    const int box = scene.FindBody("box");
    // The first 0.1 s settles the first contacts; then 1 s is measured.
    ASSERT_EQ(testing::RunFor(&world, 0.1), 0);
    const Eigen::Vector3d p0 = world.BodyPose(box).translation();
    const double v0 = world.BodyVelocity(box).tail<3>().norm();
    ASSERT_EQ(testing::RunFor(&world, 1.0), 0);
    const double travelled = (world.BodyPose(box).translation() - p0).norm();
    const double v1 = world.BodyVelocity(box).tail<3>().norm();
    if (mu > std::tan(theta)) {
      EXPECT_LT(travelled, 1e-12);
      EXPECT_LT(v1, 1e-12);
    } else {
      const double a = kG * (std::sin(theta) - mu * std::cos(theta));
      EXPECT_NEAR((v1 - v0) / 1.0, a, 0.01 * a);
    }
  }
}

// The spatula scene (δt = 10 ms) under the rigid model: the pads, set 5 mm into the handle for
// compliant contact, cannot hold it with point contact, and it falls 0.29 m onto the floor and
// lands on a rank-deficient set of its blade's and handle's contacts. It can never be faster
// than free fall from its height, sqrt(2 g 0.29) = 2.39 m/s; before the active set dropped the
// contacts phase 1 pulls, it left the floor at 25 m/s. It comes to rest.
TEST(DrumwrightShellModel, ASpatulaLandingOnManyContactsGainsNoEnergy) {
  SceneSpec scene = testing::LoadBuiltinScene("spatula_slip");
  scene.contact_settings.approximation = ContactApproximation::kDrumwrightShell;
  World world(scene);
  const int spatula = scene.FindBody("spatula");
  double fastest = 0;
  int most_contacts = 0;
  ASSERT_EQ(testing::RunFor(&world, 1.0,
                            [&](const World& w) {
                              fastest = std::max(fastest, w.BodyVelocity(spatula).tail<3>().norm());
                              most_contacts =
                                  std::max(most_contacts, w.last_stats().rigid.num_active);
                            }),
            0);
  EXPECT_GE(most_contacts, 7);  // more than its 6 degrees of freedom: rank-deficient
  EXPECT_LT(fastest, 2.5);
  EXPECT_LT(Height(world, spatula), 0.05);  // on the floor
  EXPECT_LT(world.BodyVelocity(spatula).norm(), 1e-3);
}

}  // namespace
}  // namespace contactlab
