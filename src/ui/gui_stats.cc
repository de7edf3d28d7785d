// WriteGuiStats (gui_stats.h).
#include "ui/gui_stats.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

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

// The real-time factors of GuiRunSummary from the trace's snapshot samples.
void SummarizeRealtimeFactor(const FrameTrace& trace, GuiRunSummary* summary) {
  const std::vector<double>& t = trace.published_s;
  const size_t n = t.size();
  size_t first = 0;
  while (first < n && t[first] < GuiRunSummary::kWarmup_s) ++first;
  if (!(first + 1 < n && t[n - 1] > t[first])) return;
  summary->realtime_factor_mean =
      (trace.sim_time_s[n - 1] - trace.sim_time_s[first]) / (t[n - 1] - t[first]);
  size_t j = first;
  for (size_t i = first; i < n; ++i) {
    j = std::max(j, i);
    while (j < n && t[j] - t[i] < GuiRunSummary::kWindow_s) ++j;
    if (j >= n) break;
    const double rate = (trace.sim_time_s[j] - trace.sim_time_s[i]) / (t[j] - t[i]);
    if (!(rate >= summary->realtime_factor_min)) summary->realtime_factor_min = rate;
  }
}

// The run's settings, as the JSON's first fields.
void AddSettings(const ApplicationOptions& options, double duration_s, JsonWriter* json) {
  json->String("scene", options.scene.name)
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
  if (const char* lp = std::getenv("LP_NUM_THREADS")) json->String("LP_NUM_THREADS", lp);
}

// {mean, median, p99} of the samples (and max, with_max) as the object `key`.
void AddDistribution(const std::string& key, const std::vector<double>& v, bool with_max,
                     JsonWriter* json) {
  json->BeginObject(key)
      .Number("mean", Mean(v))
      .Number("median", Percentile(v, 0.5))
      .Number("p99", Percentile(v, 0.99));
  if (with_max) json->Number("max", Percentile(v, 1.0));
  json->EndObject();
}

std::string GuiStatsJson(const ApplicationOptions& options, double duration_s,
                         const FrameStats& stats, const FrameTrace& trace,
                         const GuiRunSummary& summary) {
  JsonWriter json;
  json.BeginObject();
  AddSettings(options, duration_s, &json);
  json.Integer("frames", stats.frames)
      .Number("fps", stats.wall_s > 0 ? stats.frames / stats.wall_s : 0);
  AddDistribution("frame_ms", trace.frame_ms, true, &json);
  AddDistribution("work_ms", trace.work_ms, false, &json);
  AddDistribution("work_cpu_ms", trace.work_cpu_ms, false, &json);
  json.BeginObject("frame_cost_ms");
  AddDistribution("scene", trace.scene_ms, false, &json);
  AddDistribution("panels", trace.panels_ms, false, &json);
  AddDistribution("swap", trace.swap_ms, false, &json);
  json.EndObject();
  json.BeginObject("final_quality")
      .String("label", trace.final_quality)
      .Integer("changes", summary.quality_changes)
      .Integer("frames", static_cast<long long>(summary.settled_frame_ms.size()))
      .Number("frame_ms_median", Percentile(summary.settled_frame_ms, 0.5))
      .Number("work_cpu_ms_mean", Mean(summary.settled_work_cpu_ms))
      .Number("work_cpu_ms_median", Percentile(summary.settled_work_cpu_ms, 0.5))
      .EndObject()
      .Integer("sim_steps", static_cast<long long>(stats.sim_steps))
      .Number("sim_time", stats.sim_time_s)
      .BeginObject("realtime_factor")
      .Number("mean_after_1s", summary.realtime_factor_mean)
      .Number("min_0.5s_window", summary.realtime_factor_min)
      .EndObject()
      .Integer("errors", static_cast<long long>(stats.errors))
      .Number("ghost_lag_s", stats.ghost_lag_s)
      .EndObject();
  return json.str();
}

}  // namespace

GuiRunSummary SummarizeGuiRun(const FrameTrace& trace) {
  GuiRunSummary summary;
  SummarizeRealtimeFactor(trace, &summary);
  const std::vector<int>& level = trace.quality_level;
  for (size_t i = 0; i < level.size(); ++i) {
    if (i > 0 && level[i] != level[i - 1]) ++summary.quality_changes;
    if (level[i] == level.back()) {
      summary.settled_frame_ms.push_back(trace.frame_ms[i]);
      summary.settled_work_cpu_ms.push_back(trace.work_cpu_ms[i]);
    }
  }
  return summary;
}

void WriteGuiStats(const std::string& path, const ApplicationOptions& options, double duration_s,
                   const FrameStats& stats, const FrameTrace& trace) {
  const GuiRunSummary summary = SummarizeGuiRun(trace);
  std::ofstream out(path);
  out << GuiStatsJson(options, duration_s, stats, trace, summary) << "\n";
  if (!out) throw std::runtime_error("cannot write " + path);
  spdlog::info(
      "{}: {} frames in {:.2f} s, frame {:.2f} ms (median {:.2f}, p99 {:.2f}; scene {:.2f}, "
      "panels {:.2f}, swap {:.2f} ms mean), our code {:.2f} ms CPU/frame; real-time factor "
      "{:.3f} (min over 0.5 s {:.3f})",
      path, stats.frames, stats.wall_s, Mean(trace.frame_ms), Percentile(trace.frame_ms, 0.5),
      Percentile(trace.frame_ms, 0.99), Mean(trace.scene_ms), Mean(trace.panels_ms),
      Mean(trace.swap_ms), Mean(trace.work_cpu_ms), summary.realtime_factor_mean,
      summary.realtime_factor_min);
}

}  // namespace contactlab
