// Live hydroelastic changes (command::SetHydroelastic; docs/architecture.md §4, Threads):
// validated on arrival, built one job at a time on a worker thread (meshing can take a second,
// and the sim thread never waits for it), and swapped into the World between steps. A build
// for a scene that has since been replaced is dropped.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/world/world.h"

namespace contactlab {

class HydroelasticWorker {
 public:
  // `on_built` runs on the worker thread once a build is done: it wakes the sim thread, which
  // then calls Finish. `error` reports a rejected or failed change (on the sim thread).
  HydroelasticWorker(std::function<void()> on_built, std::function<void(std::string)> error);
  ~HydroelasticWorker();  // waits for the build under way, if any
  HydroelasticWorker(const HydroelasticWorker&) = delete;
  HydroelasticWorker& operator=(const HydroelasticWorker&) = delete;

  // Sim thread. Validates the change of `geometry` (World order; −1: every
  // hydroelastic_compliant geometry) of `world`, whose scene is number `scene_generation`, and
  // queues it; a build starts unless one is under way. A bad change is reported and dropped. A
  // change waiting for the same geometries takes the newer values instead of queueing another
  // build (a dragged slider posts a value per frame).
  void Request(int geometry, const HydroelasticChange& change, const World& world,
               uint64_t scene_generation);

  // Any thread: a build is done and waits for Finish.
  bool built() const { return built_.load(std::memory_order_acquire); }

  // Sim thread, between steps, once built(): swaps the build into `world` if it was built for
  // scene `scene_generation` (else drops it), then starts the next job of that scene. False if
  // no build was under way. (Called earlier, it waits for the build.)
  bool Finish(World* world, uint64_t scene_generation);

 private:
  struct Job {
    uint64_t scene_generation = 0;
    std::vector<int> geometries;
    HydroelasticChange change;
  };
  // What the worker builds from: copies of a geometry's spec and of its representation in force
  // (immutable, shared). The worker never touches the World, which the sim thread keeps
  // stepping.
  struct Input {
    int geometry;
    GeometrySpec spec;
    HydroelasticRepresentation current;
  };
  struct Built {
    uint64_t scene_generation = 0;
    std::vector<std::pair<int, HydroelasticRepresentation>> geometries;
    std::string error;  // empty on success
    double build_ms = 0;
  };
  // The geometries `geometry` names, or nullopt (reported) if the change is rejected.
  std::optional<std::vector<int>> Geometries(int geometry, const HydroelasticChange& change,
                                             const World& world) const;
  void StartNext(const World& world, uint64_t scene_generation);
  static Built Build(const Job& job, const std::vector<Input>& inputs);
  void SwapIn(Built built, World* world);

  std::function<void()> on_built_;
  std::function<void(std::string)> error_;
  std::deque<Job> waiting_;         // sim thread
  std::atomic<bool> built_{false};  // raised by the worker before on_built_
  std::future<Built> build_;        // the job being built (valid() while it runs); last:
                                    // destroyed first, waiting for the worker
};

}  // namespace contactlab
