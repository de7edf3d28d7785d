// Application's runs (application.h): free running (Run, RunFrames, RunFor) and in lockstep
// with simulated time (RunSteppedFrames, Screenshot; ui/sim_stepping.h), each frame measured
// for the FrameStats they return (ui/gui_run_stats.h).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "io/png_file.h"
#include "ui/application.h"
#include "ui/application_impl.h"
#include "ui/sim_stepping.h"

namespace contactlab {

namespace {

using Clock = std::chrono::steady_clock;

// Screenshot mode: the simulated time each frame shows, at real-time factor 1.
constexpr double kScreenshotFramePeriod_s = 1.0 / 60.0;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

void Application::Impl::EnsureStarted() {
  if (!started || pacing.stepped()) runtime->Post(command::Resume{});
  started = true;
  pacing.UseWallClock();
}

void Application::Impl::EnterStepping() {
  if (pacing.stepped()) return;
  if (started) PauseSim(*runtime);  // running: pause, and wait until no step is under way
  started = true;                   // paused since construction otherwise
  pacing.UseSteppedClock(Clock::now());
}

void Application::Impl::StepSimTo(uint64_t step) {
  contactlab::StepSimTo(*runtime, step, [&] {
    for (std::string& e : runtime->TakeErrors()) AddError(e, &ui);
    return !ui.errors.empty();  // an error: shown, the frame goes on
  });
}

void Application::Impl::StepSimToFrame(const Snapshot& first, int k, double frame_period_s) {
  const ContactSettings& settings = first.contact_settings;
  const double factor = std::max(options.realtime_factor, 0.0);
  if (settings.integrator.scheme == TimeIntegration::Scheme::kErrorControlled) {
    contactlab::StepSimToTime(*runtime, first.time_s + k * frame_period_s * factor, [&] {
      for (std::string& e : runtime->TakeErrors()) AddError(e, &ui);
      return !ui.errors.empty();
    });
    return;
  }
  StepSimTo(first.step_index +
            StepsAfterFrames(k, StepsPerFrame(frame_period_s, factor, settings.dt_s)));
}

void Application::Impl::MeasuredFrame(GuiRunStats* stats) {
  const Clock::time_point start = Clock::now();
  Frame(nullptr);
  const double frame_ms = 1000.0 * Seconds(Clock::now() - start);
  stats->AddFrame(frame_ms, last_work_ms, last_work_cpu_ms, last_cost, *runtime->Latest(),
                  ui.render_quality.level());
}

FrameStats Application::Impl::Finish(const GuiRunStats& stats) const {
  return stats.Finish(Clock::now(), *runtime->Latest(), ui.errors.size(), ui.render_quality.level(),
                      QualityLabel(ui.render_quality.quality()));
}

int Application::Run() {
  impl_->EnsureStarted();
  while (!impl_->quit) impl_->Frame(nullptr);
  impl_->runtime->Stop();
  return 0;
}

FrameStats Application::RunFrames(int n) {
  Impl& a = *impl_;
  a.EnsureStarted();
  GuiRunStats stats(Clock::now(), a.runtime->Latest()->step_index);
  for (int frames = 0; frames < n && !a.quit; ++frames) a.MeasuredFrame(&stats);
  return a.Finish(stats);
}

FrameStats Application::RunFor(double seconds, FrameTrace* trace) {
  Impl& a = *impl_;
  a.EnsureStarted();
  const Clock::time_point start = Clock::now();
  GuiRunStats stats(start, a.runtime->Latest()->step_index, trace);
  a.finish_parts = trace != nullptr;
  while (Seconds(Clock::now() - start) < seconds && !a.quit) a.MeasuredFrame(&stats);
  a.finish_parts = false;
  return a.Finish(stats);
}

FrameStats Application::RunSteppedFrames(int n, double frame_period_s) {
  if (!(frame_period_s > 0) || !std::isfinite(frame_period_s)) {
    throw std::invalid_argument("RunSteppedFrames: the frame period must be > 0 s");
  }
  Impl& a = *impl_;
  a.EnterStepping();
  const std::shared_ptr<const Snapshot> first = a.runtime->Latest();
  GuiRunStats stats(Clock::now(), first->step_index);
  const auto period =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(frame_period_s));
  for (int frames = 0; frames < n && !a.quit; ++frames) {
    a.StepSimToFrame(*first, frames + 1, frame_period_s);
    a.pacing.Advance(period);
    a.MeasuredFrame(&stats);
  }
  return a.Finish(stats);
}

void Application::Screenshot(int frames, const std::string& png_path) {
  Impl& a = *impl_;
  if (!a.drawing.renderer()) {
    throw std::runtime_error("cannot take a screenshot: the renderer failed: " + a.drawing.error());
  }
  if (a.started) throw std::logic_error("Screenshot must be the first run of an Application");
  a.pacing.set_capped(false);  // the frames show simulated time; no need to spread them
  // Paused since construction, before the first step: from here on the application decides
  // every step.
  a.started = true;
  const std::shared_ptr<const Snapshot> first = a.runtime->Latest();
  Impl::FrameCapture capture;
  frames = std::max(frames, 1);
  for (int k = 1; k <= frames; ++k) {
    a.StepSimToFrame(*first, k, kScreenshotFramePeriod_s);
    // The last frame is framed on the bodies where they are then (fast ones may have left the
    // initial view), and shows the ghost (if any) at the same step.
    if (k == frames) {
      a.frame_next = true;
      if ((a.options.ghost || a.options.ghost_integrator) &&
          !WaitForGhost(*a.runtime, *a.runtime->Latest())) {
        AddError("the ghost did not catch up with the main run for the screenshot", &a.ui);
      }
    }
    a.Frame(k == frames ? &capture : nullptr);
    if (!a.ui.errors.empty()) throw std::runtime_error(a.ui.errors.back());
  }
  if (capture.pixels.empty() || capture.width <= 0 || capture.height <= 0) {
    throw std::runtime_error("cannot take a screenshot: no pixels were read back");
  }
  WritePng(png_path, capture.width, capture.height, capture.pixels);
  const std::shared_ptr<const Snapshot> last = a.runtime->Latest();
  spdlog::info("wrote {} ({}x{}, {} frames, t = {:.4f} s, {} steps)", png_path, capture.width,
               capture.height, frames, last->time_s, last->step_index);
}

}  // namespace contactlab
