// Error control's step-size rule (docs/contact-model.md §1.2): from a step's size and its error
// estimate, whether to accept it and the size of the next attempt. The constants are the usual
// ones of error-controlled integrators (Hairer, Nørsett & Wanner I, §II.4; Drake's
// IntegratorBase uses the same): a safety factor 0.9, growth at most 5× and shrinking at most
// to 0.1× per step, and a dead band that keeps the size when the change would be small.
#pragma once

namespace contactlab {

struct StepSizeLimits {
  double accuracy = 1e-3;  // ε: the error a step may have
  double dt_max_s = 1e-2;  // no step is larger
  double dt_min_s = 1e-7;  // the floor: a step this small is taken whatever its error
};

struct StepSizeDecision {
  bool accept = false;
  double next_dt_s = 0;   // the next step's size (after a rejection: the retry's)
  bool at_floor = false;  // accepted at dt_min with an error above ε
};

// The error estimate of step doubling is of order 2 in δt (the local error of a first-order
// step), so the ideal size is 0.9 δt (ε / e)^(1/2). A step is accepted when e ≤ ε; after an
// accepted step the size grows only by ≥ 1.2× (else it stays), after a rejected one it shrinks
// to ≤ 0.9×. A non-finite error rejects the step and shrinks 10×; a zero error grows 5×.
// dt_s at or below dt_min_s with e > ε is accepted at the floor.
StepSizeDecision DecideStepSize(double dt_s, double error, const StepSizeLimits& limits);

}  // namespace contactlab
