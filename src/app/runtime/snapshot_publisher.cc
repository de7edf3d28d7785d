#include "app/runtime/snapshot_publisher.h"

#include <spdlog/spdlog.h>

namespace contactlab {

namespace {
// More snapshots than this alive at once means a reader hoards them; still served, but logged.
constexpr size_t kPoolWarnSize = 16;
}  // namespace

std::shared_ptr<Snapshot> SnapshotPublisher::Free() {
  for (const std::shared_ptr<Snapshot>& slot : pool_) {
    // Only the pool holds it, and nobody else can acquire a new reference (it is not the
    // published one), so the count stays 1. That read is relaxed, but the copy's increment is
    // an acquire read-modify-write of the same count: it synchronizes with the last reader's
    // releasing decrement, so that reader's accesses happen before our refill.
    if (slot.use_count() == 1) return slot;
  }
  pool_.push_back(std::make_shared<Snapshot>());
  if (pool_.size() == kPoolWarnSize) {
    spdlog::warn("{}: {} snapshots alive at once; is a reader holding on to them?", owner_,
                 pool_.size());
  }
  return pool_.back();
}

void SnapshotPublisher::Publish(std::shared_ptr<Snapshot> filled) {
  std::shared_ptr<const Snapshot> previous(std::move(filled));
  {
    std::lock_guard lock(mu_);
    latest_.swap(previous);
  }
}  // the previous snapshot's reference is released here, outside the lock

std::shared_ptr<const Snapshot> SnapshotPublisher::Latest() const {
  std::lock_guard lock(mu_);
  return latest_;
}

}  // namespace contactlab
