// The renderer's named colours, sRGB 0–255: the contact point markers by state and the overlays
// drawn over the bodies (also what the GUI tests look for in screenshots).
#pragma once

#include "render/rgb8.h"

namespace contactlab {

inline constexpr Rgb8 kStickColor{40, 220, 70};    // sticking contact
inline constexpr Rgb8 kSlipColor{245, 130, 20};    // sliding contact
inline constexpr Rgb8 kMarginColor{70, 150, 245};  // in the margin, not touching
// Violet: next to the axes of a frame (x red) a red force arrow read as one more axis.
inline constexpr Rgb8 kNormalForceColor{170, 110, 255};
inline constexpr Rgb8 kFrictionForceColor{240, 220, 40};
inline constexpr Rgb8 kSlipVelocityColor{0, 215, 200};   // slip arrows: teal, no state's colour
inline constexpr Rgb8 kPatchEdgeColor{245, 245, 245};    // the patch wireframe, over viridis
inline constexpr Rgb8 kTeleopTcpColor{250, 250, 250};    // measured TCP (teleoperation)
inline constexpr Rgb8 kGhostColor{80, 200, 255};         // the ghost run's bodies (tinted)
inline constexpr Rgb8 kPerturbationColor{230, 60, 230};  // the mouse spring
inline constexpr Rgb8 kHoleOutlineColor{255, 235, 40};   // alignment: the hole's rim
inline constexpr Rgb8 kAlignedColor{60, 230, 90};        // the peg's axis lands in the hole
inline constexpr Rgb8 kMisalignedColor{255, 120, 40};    // ... or outside it
inline constexpr Rgb8 kStepErrorColor{235, 20, 40};      // error control: the error's bodies

}  // namespace contactlab
