#include "app/runtime/hydroelastic_worker.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <exception>

namespace contactlab {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

HydroelasticWorker::HydroelasticWorker(std::function<void()> on_built,
                                       std::function<void(std::string)> error)
    : on_built_(std::move(on_built)), error_(std::move(error)) {}

HydroelasticWorker::~HydroelasticWorker() {
  if (build_.valid()) build_.wait();
}

void HydroelasticWorker::Request(int geometry, const HydroelasticChange& change, const World& world,
                                 uint64_t scene_generation) {
  if (!change.modulus_Pa && !change.resolution_m) return;
  std::optional<std::vector<int>> geometries = Geometries(geometry, change, world);
  if (!geometries) return;
  if (!waiting_.empty() && waiting_.back().geometries == *geometries &&
      waiting_.back().scene_generation == scene_generation) {
    HydroelasticChange& last = waiting_.back().change;
    if (change.modulus_Pa) last.modulus_Pa = change.modulus_Pa;
    if (change.resolution_m) last.resolution_m = change.resolution_m;
  } else {
    waiting_.push_back({scene_generation, std::move(*geometries), change});
  }
  StartNext(world, scene_generation);
}

std::optional<std::vector<int>> HydroelasticWorker::Geometries(int geometry,
                                                               const HydroelasticChange& change,
                                                               const World& world) const {
  std::vector<int> geometries;
  const int ng = world.num_geometries();
  if (geometry == -1) {
    for (int g = 0; g < ng; ++g) {
      if (world.hydroelastic_representation(g).compliant) geometries.push_back(g);
    }
    if (geometries.empty()) {
      error_("hydroelastic change rejected: the scene has no hydroelastic_compliant geometry");
      return std::nullopt;
    }
  } else if (geometry < 0 || geometry >= ng) {
    error_(fmt::format("hydroelastic change rejected: geometry {} out of range (the scene has {})",
                       geometry, ng));
    return std::nullopt;
  } else {
    geometries.push_back(geometry);
  }
  try {
    for (int g : geometries) {
      const GeometrySpec& spec = world.geometry(g);
      ValidateHydroelasticChange(spec.name, spec.shape, spec.hydroelastic.model, change,
                                 spec.hydroelastic.volume_mesh != nullptr);
    }
  } catch (const std::exception& e) {
    error_(fmt::format("hydroelastic change rejected: {}", e.what()));
    return std::nullopt;
  }
  return geometries;
}

void HydroelasticWorker::StartNext(const World& world, uint64_t scene_generation) {
  if (build_.valid()) return;  // one build at a time; the next starts when it is in
  while (!waiting_.empty() && waiting_.front().scene_generation != scene_generation) {
    waiting_.pop_front();  // for a scene that has since been replaced
  }
  if (waiting_.empty()) return;
  Job job = std::move(waiting_.front());
  waiting_.pop_front();
  std::vector<Input> inputs;
  for (int g : job.geometries) {
    inputs.push_back({g, world.geometry(g), world.hydroelastic_representation(g)});
  }
  try {
    build_ =
        std::async(std::launch::async, [this, job = std::move(job), inputs = std::move(inputs)] {
          Built built = Build(job, inputs);
          built_.store(true, std::memory_order_release);
          on_built_();
          return built;
        });
  } catch (const std::exception& e) {  // no thread available
    error_(fmt::format("hydroelastic change failed: {}", e.what()));
  }
}

// The worker thread's job; it catches everything.
HydroelasticWorker::Built HydroelasticWorker::Build(const Job& job,
                                                    const std::vector<Input>& inputs) {
  Built built;
  built.scene_generation = job.scene_generation;
  const Clock::time_point start = Clock::now();
  try {
    for (const Input& in : inputs) {
      built.geometries.emplace_back(
          in.geometry,
          BuildHydroelasticRepresentation(in.spec.name, in.spec.shape, in.spec.hydroelastic,
                                          job.change, &in.current));
    }
  } catch (const std::exception& e) {
    built.geometries.clear();
    built.error = fmt::format("hydroelastic change failed: {}", e.what());
  }
  built.build_ms = std::chrono::duration<double>(Clock::now() - start).count() * 1e3;
  return built;
}

bool HydroelasticWorker::Finish(World* world, uint64_t scene_generation) {
  if (!build_.valid()) return false;
  // Called once built_ is raised, this waits only for the worker's return; lowered after it
  // (the worker raises it before returning), so that it never outlives the build it announced.
  Built built = build_.get();
  built_.store(false, std::memory_order_relaxed);
  if (built.scene_generation != scene_generation) {
    // Built for a scene that has since been replaced: dropped.
  } else if (!built.error.empty()) {
    error_(std::move(built.error));
  } else {
    SwapIn(std::move(built), world);
  }
  StartNext(*world, scene_generation);
  return true;
}

// The scene (the model, shared with snapshots) stays as it is: the representation in force is a
// World input, which every snapshot reports. Same scene_generation: the UI keeps its state.
void HydroelasticWorker::SwapIn(Built built, World* world) {
  for (auto& [g, representation] : built.geometries) {
    try {
      world->SetHydroelasticGeometry(g, std::move(representation));  // a pointer swap
    } catch (const std::exception& e) {  // built from this geometry: cannot happen, but
      error_(fmt::format("hydroelastic change failed: {}", e.what()));  // never kill the loop
      continue;
    }
    const HydroelasticRepresentation& r = world->hydroelastic_representation(g);
    spdlog::info(
        "sim runtime: geometry '{}' now hydroelastic E_h = {:.3g} Pa, resolution {:.3g} m, {} "
        "tets / {} triangles (built in {:.0f} ms)",
        world->geometry(g).name, r.modulus_Pa, r.resolution_m, r.num_tets(), r.num_triangles(),
        built.build_ms);
  }
}

}  // namespace contactlab
