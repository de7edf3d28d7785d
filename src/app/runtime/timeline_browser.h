// The timeline as the sim thread uses it (docs/architecture.md §4, Timeline): the run's
// Timeline, the recorded step shown in place of the head (if any), and a branch's replay of
// the recorded inputs that followed the step it branched from. It changes only the World it is
// given; pausing, the step index and publishing are the caller's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "app/runtime/snapshot.h"
#include "app/runtime/step_inputs.h"
#include "app/runtime/timeline.h"
#include "engine/world/world.h"

namespace contactlab {

class TimelineBrowser {
 public:
  // The records to show for a StepTimeline or ShowTime: none, or the head again.
  static constexpr int kNone = -1;
  static constexpr int kHead = -2;

  // A Timeline of `world` (Timeline's constructor: `duration_s` within `budget_bytes`).
  TimelineBrowser(const World& world, double duration_s, size_t budget_bytes);

  // A new scene, `world`: the old history is freed before the new one is allocated (one ring
  // at a time), and nothing is shown or replayed.
  void Reallocate(const World& world);
  // A reset: the history, the step shown and a branch's replay belonged to the old run.
  void Clear();

  // ---- Before every step.
  enum class Replayed { kNo, kYes, kLast };
  // If a branch's replay is under way, makes its next recorded inputs `world`'s; kLast: that
  // was its last step, and live input takes over from the next one.
  Replayed ReplayNext(World* world);
  // Records the step `world` is about to take (Timeline::Record).
  void Record(const World& world, uint64_t step_index) { timeline_->Record(world, step_index); }
  // After that step (Timeline::Taken): its size.
  void Taken(const World& world) { timeline_->Taken(world); }

  // ---- Showing a recorded step.
  int size() const { return timeline_->size(); }
  const Timeline& history() const { return *timeline_; }
  bool viewing() const { return view_ >= 0; }
  int view() const { return view_; }  // the record shown; −1: the head
  // The record to show for ShowTime(time_s): the one in progress then; kNone if the history is
  // empty or the time not finite.
  int RecordAt(double time_s) const;
  // The record `steps` away from the one shown (the newest if none is), clamped to the
  // history: kHead past the newest while a record is shown, kNone if there is nothing to do.
  int RecordAfter(int steps) const;
  // Shows `record`: restores its state and inputs into `world`, with its settings unless they
  // were edited while viewing, and takes its step again. False if that step failed.
  bool Show(int record, World* world);
  // The step index of the world after Show: the record's step, taken.
  uint64_t shown_step_index() const { return timeline_->step_index(view_) + 1; }
  // The user changed the settings while a record is shown: it is recomputed with them, and a
  // branch keeps them.
  void EditSettings() { settings_edited_ = true; }
  // Back to the head (the caller shows the newest record first, recomputed).
  void Leave();
  // Continues from the record shown with the settings in force: drops the newer history and
  // replays the inputs recorded after it from the next step on. False if none is shown.
  bool Branch(const World& world);

  void Fill(const World& world, TimelineView* view) const;
  void LogSize() const;  // a debug line: its steps, duration and memory

 private:
  double duration_s_;
  size_t budget_bytes_;
  std::unique_ptr<Timeline> timeline_;
  int view_ = -1;
  bool settings_edited_ = false;
  std::vector<StepInputs> replay_;  // a branch's: replayed from replay_next_
  size_t replay_next_ = 0;
};

}  // namespace contactlab
