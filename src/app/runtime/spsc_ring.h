// A lock-free single-producer single-consumer ring that never blocks the producer: when the
// consumer falls behind, the producer overwrites the oldest entries and the consumer counts
// them as dropped. Used for the per-step plot samples (sim thread → UI thread).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

namespace contactlab {

template <typename T>
class OverwritingSpscRing {
  static_assert(std::is_trivially_copyable_v<T>, "entries are copied word by word");

 public:
  // `capacity` is rounded up to a power of two.
  explicit OverwritingSpscRing(size_t capacity) {
    size_t c = 1;
    while (c < capacity) c <<= 1;
    capacity_ = c;
    slots_ = std::make_unique<Slot[]>(c);
  }
  OverwritingSpscRing(const OverwritingSpscRing&) = delete;
  OverwritingSpscRing& operator=(const OverwritingSpscRing&) = delete;

  size_t capacity() const { return capacity_; }

  // Producer thread only. Wait-free.
  void Push(const T& value) {
    const uint64_t n = head_.load(std::memory_order_relaxed);  // only this thread writes it
    Slot& slot = slots_[n & (capacity_ - 1)];
    // A per-slot sequence lock: odd while being written. The payload is stored in atomic words
    // (not plain memory) so that a consumer racing with an overwrite reads a torn value it can
    // detect and discard, instead of a data race. The release stores keep the odd sequence
    // number visible before any new payload word.
    slot.seq.store(2 * n + 1, std::memory_order_relaxed);
    uint64_t words[kWords] = {};
    std::memcpy(words, &value, sizeof(T));
    for (size_t i = 0; i < kWords; ++i) slot.words[i].store(words[i], std::memory_order_release);
    slot.seq.store(2 * n + 2, std::memory_order_release);
    head_.store(n + 1, std::memory_order_release);
  }

  // Consumer thread only. Appends every entry pushed since the last call that has not been
  // overwritten, oldest first; returns how many were lost to overwriting since the last call.
  uint64_t Drain(std::vector<T>* out) {
    const uint64_t head = head_.load(std::memory_order_acquire);
    uint64_t lost = 0;
    if (head - next_ > capacity_) {
      lost += head - next_ - capacity_;
      next_ = head - capacity_;
    }
    uint64_t words[kWords];
    for (; next_ < head; ++next_) {
      const Slot& slot = slots_[next_ & (capacity_ - 1)];
      const uint64_t expected = 2 * next_ + 2;
      if (slot.seq.load(std::memory_order_acquire) != expected) {
        ++lost;  // already being overwritten by a newer entry
        continue;
      }
      // Acquire loads: the re-check of the sequence number below cannot move before them, and
      // a word from a newer write makes that write's odd sequence number visible.
      for (size_t i = 0; i < kWords; ++i) words[i] = slot.words[i].load(std::memory_order_acquire);
      if (slot.seq.load(std::memory_order_relaxed) != expected) {
        ++lost;
        continue;
      }
      T value;
      std::memcpy(&value, words, sizeof(T));
      out->push_back(value);
    }
    dropped_.fetch_add(lost, std::memory_order_relaxed);
    return lost;
  }

  // Total entries lost to overwriting (any thread).
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  // Total entries pushed (any thread).
  uint64_t pushed() const { return head_.load(std::memory_order_relaxed); }

 private:
  static constexpr size_t kWords = (sizeof(T) + sizeof(uint64_t) - 1) / sizeof(uint64_t);
  struct Slot {
    std::atomic<uint64_t> seq{0};
    std::array<std::atomic<uint64_t>, kWords> words{};
  };

  size_t capacity_ = 0;
  std::unique_ptr<Slot[]> slots_;
  alignas(64) std::atomic<uint64_t> head_{0};  // entries pushed; written by the producer
  alignas(64) uint64_t next_ = 0;              // next entry to read; consumer only
  std::atomic<uint64_t> dropped_{0};
};

}  // namespace contactlab
