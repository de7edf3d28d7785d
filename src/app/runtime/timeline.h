// The sim thread's bounded history (docs/architecture.md, Timeline): for every step, the state
// it started from, its inputs and the contact settings in force. Any recorded step is then
// recomputed exactly by restoring its record and taking one World::Step (restoring a state and
// its step sizes replays the steps bit for bit: World::SetState, SetStepSizeState), which is
// how the UI is shown a past step, contacts and diagnostics included, and how a run branches
// from it. Storing the start state instead of whole snapshots keeps a step to
// (n_q + n_v + 6 per PD joint + 13) doubles. Steps vary in size under error control
// (docs/contact-model.md §1.2): times are the recorded ones, never a count times δt.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "app/runtime/page_allocator.h"
#include "app/runtime/step_inputs.h"
#include "engine/world/world.h"

namespace contactlab {

class Timeline {
 public:
  // Room for `duration_s` of steps of the world's current δt, or of δt_max / 10 under error
  // control (its steps in contact are that size and smaller; a smaller δt or error control
  // chosen later covers proportionally less time), but for no more records than fit in
  // `budget_bytes`: a large scene at a small δt keeps less time, never more memory. Allocated
  // here once.
  Timeline(const World& world, double duration_s, size_t budget_bytes);

  // Records the step `world` is about to take (call right before World::Step) as step
  // `step_index`, dropping the oldest record when full: with its state, its step-size state
  // (World::step_size_state) and its inputs. Allocation-free, except when the contact settings
  // changed since the last record (they are kept once per change).
  void Record(const World& world, uint64_t step_index);
  // Right after that World::Step: the newest record's step took last_stats().dt_s.
  void Taken(const World& world);

  int size() const { return count_; }  // records, 0 = oldest
  int capacity() const { return capacity_; }
  double typical_dt_s() const { return typical_dt_s_; }  // what the capacity was sized by
  uint64_t step_index(int i) const { return static_cast<uint64_t>(Slot(i)[kStepIndex]); }
  double time_s(int i) const { return Slot(i)[kTime]; }  // when record i's step starts
  double dt_s(int i) const { return Slot(i)[kDt]; }      // its size (0 until Taken)
  // The newest record starting at or before `time_s` (the oldest if none does); −1 if empty.
  int Find(double time_s) const;
  // Record i's state at its step's start, and the contact settings it stepped under.
  Eigen::Map<const Eigen::VectorXd> q(int i) const { return {Slot(i) + kHeader, nq_}; }
  const ContactSettings& settings(int i) const {
    return settings_[static_cast<size_t>(Slot(i)[kSettings]) - first_settings_];
  }

  // Puts record i's state, step sizes and inputs into `world`, and its contact settings unless
  // `keep_settings` (a branch with the user's new settings); World::Step then takes that step.
  void Restore(int i, World* world, bool keep_settings = false) const;
  // Record i's inputs (a branch replays those that followed it).
  void Inputs(int i, StepInputs* inputs) const;

  void TruncateAfter(int i);  // drops the records newer than i
  void Clear();
  size_t memory_bytes() const;  // allocated for the records and settings

 private:
  enum Field {
    kStepIndex = 0,
    kTime = 1,
    kSettings = 2,
    kLastDt = 3,  // World::StepSizeState at the step's start
    kNextDt = 4,
    kDt = 5,  // the step's size
    kHeader = 6
  };
  static constexpr int kPdFields = 6, kForceFields = 7;
  const double* Slot(int i) const {
    return &records_[static_cast<size_t>((first_ + i) % capacity_) * record_size_];
  }
  double* MutableSlot(int i) {
    return &records_[static_cast<size_t>((first_ + i) % capacity_) * record_size_];
  }

  int nq_, nv_, num_pd_;
  double typical_dt_s_;
  std::vector<int> pd_bodies_;  // scene bodies with a PD controller, in order
  size_t record_size_;
  int capacity_;
  int first_ = 0, count_ = 0;
  std::vector<double, PageAllocator<double>> records_;  // its own pages (page_allocator.h)
  void DropUnusedSettings();

  // The distinct settings of the records, in order; a record holds its settings' sequence
  // number, and settings_[0] is number first_settings_.
  std::deque<ContactSettings> settings_;
  uint64_t first_settings_ = 0;
  mutable StepInputs scratch_;  // Restore's inputs, reused (not part of the history)
};

}  // namespace contactlab
