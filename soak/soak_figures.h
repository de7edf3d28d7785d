// What a soak run measured, and whether it passed (soak_main.cc).
#pragma once

#include <cstdint>
#include <string>

namespace contactlab {

// Resident memory of this process [MB] (VmRSS).
double ResidentMemoryMB();

struct SoakFigures {
  std::string phase;
  double minutes = 0;
  uint64_t steps = 0;
  int scene_switches = 0;
  int failures = 0;               // failed steps (the runtime paused and said why)
  int unreported_failures = 0;    // paused without a message
  int errors_reported = 0;        // messages: failed steps and rejected changes
  int unreported_rejections = 0;  // invalid changes sent that no message answered
  int nan_snapshots = 0;          // snapshots with a non-finite pose
  // Memory: at the end of warm-up (5 minutes, or a third of a shorter run) and of the run;
  // the peaks during warm-up and after it.
  double warm_rss_mb = -1, end_rss_mb = 0, warm_peak_rss_mb = 0, later_peak_rss_mb = 0;

  // Called often with the seconds since the start.
  void Sample(double elapsed_s);
  // The peak after warm-up may exceed the warm-up's peak by at most max(20 MB, 20 %). Peaks,
  // not single samples: memory legitimately differs between the scenes and time steps the run
  // switches among (each scene's timeline, for one), but a leak raises the peak.
  bool MemoryFlat() const;
  bool Passed() const;
  std::string Line() const;
  std::string Json() const;
};

}  // namespace contactlab
