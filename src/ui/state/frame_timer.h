// Frame-time measurement of the render thread: the period between frame starts (what the user
// sees, including the driver's swap / vsync wait) and the CPU time spent in contactlab's own code
// per frame (frame start to just before the buffer swap; CPU, not wall-clock, time: under a
// software renderer the render thread also waits there for the rasterizer's threads).
#pragma once

#include <array>
#include <chrono>
#include <cstddef>

namespace contactlab {

class FrameTimer {
 public:
  using Clock = std::chrono::steady_clock;

  void BeginFrame();  // at the top of the frame
  // Just before glfwSwapBuffers: the render thread's CPU time since the frame began [ms].
  void EndWork(double work_cpu_ms);

  struct Stats {
    double mean_frame_ms = 0, max_frame_ms = 0;  // frame period over the window
    double mean_work_ms = 0, max_work_ms = 0;    // our code's CPU time per frame
    double fps = 0;
    size_t frames = 0;  // since construction
  };
  // Over the last kWindow frames.
  Stats stats() const;

  static constexpr size_t kWindow = 120;

 private:
  Clock::time_point frame_start_{};
  bool started_ = false;
  std::array<double, kWindow> period_ms_{}, work_ms_{};
  size_t periods_ = 0, works_ = 0;  // samples recorded
};

// CPU time of the calling thread [ms]: what EndWork takes, as a difference of two readings.
double ThreadCpuMs();

}  // namespace contactlab
