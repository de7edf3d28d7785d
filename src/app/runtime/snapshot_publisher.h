// Hands snapshots from the one thread that steps a world to any number of readers
// (docs/architecture.md, Threads): a pool of snapshots refilled in place once no reader holds
// them (no allocation once warm), and the newest one, swapped under a lock held for a pointer
// swap only. Used by the sim thread and by the ghost's thread.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "app/runtime/snapshot.h"

namespace contactlab {

class SnapshotPublisher {
 public:
  explicit SnapshotPublisher(std::string owner) : owner_(std::move(owner)) {}

  // Producer thread: a snapshot no reader holds, to fill and then Publish.
  std::shared_ptr<Snapshot> Free();
  void Publish(std::shared_ptr<Snapshot> filled);
  // Any thread: the newest published snapshot (null before the first).
  std::shared_ptr<const Snapshot> Latest() const;

 private:
  std::string owner_;  // names the pool in its warning
  std::vector<std::shared_ptr<Snapshot>> pool_;
  // Equivalent to std::atomic<std::shared_ptr<const Snapshot>>, which libstdc++ 12 implements
  // with an internal lock bit that load() releases with relaxed order, so its read of the
  // pointer is not ordered before the writer's next swap (ThreadSanitizer reports it). Here the
  // critical sections are a reference-count increment (Latest) and a pointer swap (Publish);
  // the old snapshot's reference is dropped outside the lock.
  mutable std::mutex mu_;
  std::shared_ptr<const Snapshot> latest_;
};

}  // namespace contactlab
