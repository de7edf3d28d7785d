// Contact-surface computation (issue 5 figures): a compliant box on a rigid half-space and on a
// rigid box mesh at three mesh resolutions, and a compliant sphere on a compliant box.
//   build/bench/hydroelastic_bench
#include <benchmark/benchmark.h>

#include "engine/hydroelastic/contact_surface.h"
#include "engine/hydroelastic/hydroelastic_geometry.h"

namespace contactlab::hydroelastic {
namespace {

Eigen::Isometry3d At(const Eigen::Vector3d& p) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = p;
  return X;
}

void BM_BoxOnRigid(benchmark::State& state) {
  const double edge_m = state.range(0) * 1e-3;
  const bool on_mesh = state.range(1) != 0;
  const Eigen::Vector3d h(0.1, 0.1, 0.05);
  const CompliantGeometry box = MakeCompliantGeometry(Shape::Box(h), 1e6, edge_m);
  const RigidGeometry rigid =
      on_mesh ? MakeRigidGeometry(Shape::Box({0.5, 0.5, 0.05}), 0.05) : RigidGeometry::HalfSpace();
  const Eigen::Isometry3d X_WA = At({0.01, 0, h.z() - 0.002});
  const Eigen::Isometry3d X_WB = on_mesh ? At({0, 0, -0.05}) : At({0, 0, 0});
  ContactSurfaceScratch scratch;
  ContactSurface s;
  for (auto _ : state) {
    ComputeContactSurface(box, X_WA, rigid, X_WB, &scratch, &s);
    benchmark::DoNotOptimize(s.faces.data());
  }
  state.counters["tets"] = box.mesh.num_tets();
  state.counters["faces"] = s.faces.size();
}
BENCHMARK(BM_BoxOnRigid)
    ->ArgsProduct({{20, 10, 5}, {0, 1}})
    ->ArgNames({"edge_mm", "rigid_mesh"})
    ->Unit(benchmark::kMillisecond);

void BM_SphereOnBoxBothCompliant(benchmark::State& state) {
  const Eigen::Vector3d h(0.1, 0.1, 0.05);
  const CompliantGeometry a = MakeCompliantGeometry(Shape::Sphere(0.08), 1e6, 0.01);
  const CompliantGeometry b = MakeCompliantGeometry(Shape::Box(h), 1e6, 0.01);
  const Eigen::Isometry3d X_WA = At({0, 0, h.z() + 0.08 - 0.01});
  ContactSurfaceScratch scratch;
  ContactSurface s;
  for (auto _ : state) {
    ComputeContactSurface(a, X_WA, b, At({0, 0, 0}), &scratch, &s);
    benchmark::DoNotOptimize(s.faces.data());
  }
  state.counters["faces"] = s.faces.size();
}
BENCHMARK(BM_SphereOnBoxBothCompliant)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace contactlab::hydroelastic
