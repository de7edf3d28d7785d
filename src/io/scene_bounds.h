// The values a scene may hold: bounds a physicist would accept, checked at load so that an
// absurd number (a typo such as 1e308, or a corrupted file) is an error naming its field,
// never a crash or a silently wrong run (assets/scenes/README.md, Bounds).
#pragma once

namespace contactlab::scene_bounds {

struct Range {
  double min, max;
  const char* unit;
};

// Any number in a scene file (hydroelastic moduli reach 2e11 Pa for steel).
inline constexpr double kMaxMagnitude = 1e12;
inline constexpr Range kPosition{-1e6, 1e6, "m"};  // also joint positions (m or rad)
inline constexpr Range kSpeed{-1e4, 1e4, "m/s or rad/s"};
inline constexpr Range kLength{1e-6, 1e4, "m"};  // sizes, radii, lengths
inline constexpr Range kMass{1e-9, 1e9, "kg"};
inline constexpr Range kDensity{1e-3, 1e6, "kg/m³"};
inline constexpr Range kTimeStep{1e-7, 1.0, "s"};
inline constexpr Range kDuration{1e-7, 1e7, "s"};
inline constexpr Range kAcceleration{-1e4, 1e4, "m/s²"};
inline constexpr Range kFrequency{0.0, 1e4, "Hz"};
inline constexpr Range kRestitution{0.0, 1.0, "(Newton's ε)"};
inline constexpr Range kAngularFrequency{0.0, 2 * 3.14159265358979323846 * 1e4, "rad/s"};
// Bodies a scene may have, counted before any is built (generators and robots included).
inline constexpr int kMaxBodies = 1000;

}  // namespace contactlab::scene_bounds
