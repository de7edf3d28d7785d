// WriteGuiStats (gui_stats.h).
#include "ui/gui_stats.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "app/headless/json_writer.h"
#include "engine/world/scene_spec.h"

namespace contactlab {
namespace {

// The q-quantile (q in (0, 1]) by the nearest-rank method: the smallest sample with at least
// q of the samples at or below it. 0 for no samples.
double Percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1;
  return v[std::min(i, v.size() - 1)];
}

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

}  // namespace

void WriteGuiStats(const std::string& path, const ApplicationOptions& options, double duration_s,
                   const FrameStats& stats, const FrameTrace& trace) {
  // The real-time factor after the first second: over the whole rest, and the smallest over
  // any 0.5 s window (sliding, between snapshot samples).
  constexpr double kWarmup_s = 1.0, kWindow_s = 0.5;
  size_t first = 0;
  while (first < trace.published_s.size() && trace.published_s[first] < kWarmup_s) ++first;
  double mean_rtf = NAN, min_rtf = NAN;
  const size_t n = trace.published_s.size();
  if (first + 1 < n && trace.published_s[n - 1] > trace.published_s[first]) {
    mean_rtf = (trace.sim_time_s[n - 1] - trace.sim_time_s[first]) /
               (trace.published_s[n - 1] - trace.published_s[first]);
    size_t j = first;
    for (size_t i = first; i < n; ++i) {
      j = std::max(j, i);
      while (j < n && trace.published_s[j] - trace.published_s[i] < kWindow_s) ++j;
      if (j >= n) break;
      const double rate = (trace.sim_time_s[j] - trace.sim_time_s[i]) /
                          (trace.published_s[j] - trace.published_s[i]);
      if (!(rate >= min_rtf)) min_rtf = rate;
    }
  }
  // The frames drawn at the final render quality (all of them with a fixed quality): what the
  // frame rate settled to.
  std::vector<double> settled_frame_ms, settled_work_cpu_ms;
  int quality_changes = 0;
  for (size_t i = 0; i < trace.quality_level.size(); ++i) {
    if (i > 0 && trace.quality_level[i] != trace.quality_level[i - 1]) ++quality_changes;
    if (trace.quality_level[i] == trace.quality_level.back()) {
      settled_frame_ms.push_back(trace.frame_ms[i]);
      settled_work_cpu_ms.push_back(trace.work_cpu_ms[i]);
    }
  }
  JsonWriter json;
  json.BeginObject()
      .String("scene", options.scene.name)
      .String("model", ContactApproximationName(options.scene.contact_settings.approximation))
      .Number("dt", options.scene.contact_settings.dt_s)
      .Integer("bodies", static_cast<long long>(options.scene.bodies.size()))
      .Number("duration", duration_s)
      .Integer("width", options.width)
      .Integer("height", options.height)
      .Number("max_fps", options.max_fps)
      .Integer("msaa", options.msaa_samples)
      .Bool("auto_quality", options.auto_quality)
      .Number("target_realtime_factor", options.realtime_factor);
  if (const char* lp = std::getenv("LP_NUM_THREADS")) json.String("LP_NUM_THREADS", lp);
  json.Integer("frames", stats.frames)
      .Number("fps", stats.wall_s > 0 ? stats.frames / stats.wall_s : 0)
      .BeginObject("frame_ms")
      .Number("mean", Mean(trace.frame_ms))
      .Number("median", Percentile(trace.frame_ms, 0.5))
      .Number("p99", Percentile(trace.frame_ms, 0.99))
      .Number("max", Percentile(trace.frame_ms, 1.0))
      .EndObject()
      .BeginObject("work_ms")
      .Number("mean", Mean(trace.work_ms))
      .Number("median", Percentile(trace.work_ms, 0.5))
      .Number("p99", Percentile(trace.work_ms, 0.99))
      .EndObject()
      .BeginObject("work_cpu_ms")
      .Number("mean", Mean(trace.work_cpu_ms))
      .Number("median", Percentile(trace.work_cpu_ms, 0.5))
      .Number("p99", Percentile(trace.work_cpu_ms, 0.99))
      .EndObject()
      .BeginObject("final_quality")
      .String("label", trace.final_quality)
      .Integer("changes", quality_changes)
      .Integer("frames", static_cast<long long>(settled_frame_ms.size()))
      .Number("frame_ms_median", Percentile(settled_frame_ms, 0.5))
      .Number("work_cpu_ms_mean", Mean(settled_work_cpu_ms))
      .Number("work_cpu_ms_median", Percentile(settled_work_cpu_ms, 0.5))
      .EndObject()
      .Integer("sim_steps", static_cast<long long>(stats.sim_steps))
      .Number("sim_time", stats.sim_time_s)
      .BeginObject("realtime_factor")
      .Number("mean_after_1s", mean_rtf)
      .Number("min_0.5s_window", min_rtf)
      .EndObject()
      .Integer("errors", static_cast<long long>(stats.errors))
      .Number("ghost_lag_s", stats.ghost_lag_s)
      .EndObject();
  std::ofstream out(path);
  out << json.str() << "\n";
  if (!out) throw std::runtime_error("cannot write " + path);
  spdlog::info(
      "{}: {} frames in {:.2f} s, frame {:.2f} ms (median {:.2f}, p99 {:.2f}), our code "
      "{:.2f} ms CPU/frame; real-time factor {:.3f} (min over 0.5 s {:.3f})",
      path, stats.frames, stats.wall_s, Mean(trace.frame_ms), Percentile(trace.frame_ms, 0.5),
      Percentile(trace.frame_ms, 0.99), Mean(trace.work_cpu_ms), mean_rtf, min_rtf);
}

}  // namespace contactlab
