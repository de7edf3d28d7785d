// Cost of a contact-surface query: timings at three resolutions (printed, for the report) and
// no heap allocation in a repeated query once the scratch and output have grown.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include "engine/hydroelastic/contact_surface.h"
#include "test_support/allocation_counter.h"
#include "test_support/poses.h"

namespace contactlab::hydroelastic {
namespace {

using contactlab::testing::Pose;
using contactlab::testing::Rot;
using V = Eigen::Vector3d;

// Timings live in bench/hydroelastic_bench.cc; here only the absence of allocation.
TEST(Performance, RepeatedQueryDoesNotAllocate) {
  if (!contactlab::testing::kAllocationCountingAvailable) {
    GTEST_SKIP() << "no allocation counting";
  }
  const V h(0.1, 0.1, 0.05);
  const auto ground = RigidGeometry::HalfSpace();
  const auto table = MakeRigidGeometry(Shape::Box(V(0.5, 0.5, 0.05)), 0.05);
  for (double edge : {0.02, 0.01, 0.005}) {
    const auto box = MakeCompliantGeometry(Shape::Box(h), 1e6, edge);
    const auto X_WA = Pose(V(0.01, 0.0, h.z() - 0.002), Rot(0.01, V(1, 1, 0)));
    ContactSurfaceScratch scratch;
    ContactSurface s;
    for (int which = 0; which < 2; ++which) {
      const RigidGeometry& rigid = which == 0 ? ground : table;
      const auto X_WB = which == 0 ? Pose(V::Zero()) : Pose(V(0, 0, -0.05));
      ComputeContactSurface(box, X_WA, rigid, X_WB, &scratch, &s);  // warm up: grow buffers
      const size_t faces = s.faces.size();
      {
        contactlab::testing::ScopedAllocationCount counter;
        for (int i = 0; i < 3; ++i) ComputeContactSurface(box, X_WA, rigid, X_WB, &scratch, &s);
        EXPECT_EQ(counter.count(), 0);
      }
      EXPECT_EQ(s.faces.size(), faces);
    }
  }
  // Compliant–compliant, same check.
  const auto a = MakeCompliantGeometry(Shape::Sphere(0.08), 1e6, 0.01);
  const auto b = MakeCompliantGeometry(Shape::Box(h), 1e6, 0.01);
  ContactSurfaceScratch scratch;
  ContactSurface s;
  const auto X_WA = Pose(V(0, 0, h.z() + 0.08 - 0.01)), X_WB = Pose(V::Zero());
  ComputeContactSurface(a, X_WA, b, X_WB, &scratch, &s);
  contactlab::testing::ScopedAllocationCount counter;
  for (int i = 0; i < 20; ++i) ComputeContactSurface(a, X_WA, b, X_WB, &scratch, &s);
  EXPECT_EQ(counter.count(), 0);
}

}  // namespace
}  // namespace contactlab::hydroelastic
