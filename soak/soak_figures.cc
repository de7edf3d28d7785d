#include "soak/soak_figures.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace contactlab {

double ResidentMemoryMB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) {
      std::istringstream fields(line.substr(6));
      double kb = 0;
      fields >> kb;
      return kb / 1024.0;
    }
  }
  return 0.0;
}

void SoakFigures::Sample(double elapsed_s) {
  const double rss = ResidentMemoryMB();
  end_rss_mb = rss;
  const double warm_up_s = std::min(300.0, 60.0 * minutes / 3.0);
  if (elapsed_s < warm_up_s) {
    warm_peak_rss_mb = std::max(warm_peak_rss_mb, rss);
  } else {
    if (warm_rss_mb < 0) warm_rss_mb = rss;
    later_peak_rss_mb = std::max(later_peak_rss_mb, rss);
  }
}

bool SoakFigures::MemoryFlat() const {
  return later_peak_rss_mb - warm_peak_rss_mb <= std::max(20.0, 0.2 * warm_peak_rss_mb);
}

bool SoakFigures::Passed() const {
  return nan_snapshots == 0 && unreported_failures == 0 && unreported_rejections == 0 &&
         MemoryFlat();
}

std::string SoakFigures::Line() const {
  return fmt::format(
      "soak {}: {} — {:.1f} min, {} steps, {} scene switches, {} failed steps ({} unreported), "
      "{} messages, {} unanswered invalid changes, {} NaN snapshots; RSS {:.1f} MB after "
      "warm-up, {:.1f} MB at the end; peak {:.1f} MB during warm-up, {:.1f} MB after",
      phase, Passed() ? "passed" : "FAILED", minutes, steps, scene_switches, failures,
      unreported_failures, errors_reported, unreported_rejections, nan_snapshots, warm_rss_mb,
      end_rss_mb, warm_peak_rss_mb, later_peak_rss_mb);
}

std::string SoakFigures::Json() const {
  return fmt::format(
      "{{\"phase\": \"{}\", \"passed\": {}, \"minutes\": {}, \"steps\": {}, \"scene_switches\": "
      "{}, \"failures\": {}, \"unreported_failures\": {}, \"errors_reported\": {}, "
      "\"unreported_rejections\": {}, \"nan_snapshots\": {}, \"warm_rss_mb\": {:.1f}, "
      "\"end_rss_mb\": {:.1f}, \"warm_peak_rss_mb\": {:.1f}, \"later_peak_rss_mb\": {:.1f}}}",
      phase, Passed(), minutes, steps, scene_switches, failures, unreported_failures,
      errors_reported, unreported_rejections, nan_snapshots, warm_rss_mb, end_rss_mb,
      warm_peak_rss_mb, later_peak_rss_mb);
}

}  // namespace contactlab
