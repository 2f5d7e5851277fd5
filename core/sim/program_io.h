// A controller program's observation and command as flat arrays of doubles
// with named columns: what the WASM core hands a JavaScript program and the
// Python package a Python one (docs/controllers.md). A column's name is its
// path in the program's nested `obs` object, its unit last:
// "base.pitch_rad", "wheels.wheel_1.spin_rad_s",
// "wheels.wheel_1.touches.0.nz", "joints.fold_front.position_rad".
#pragma once

#include <string>
#include <vector>

#include "sim/simulation.h"

namespace roverlab {

/// Wheel contacts a flat observation carries per wheel (more are rare: a
/// wheel on an edge touches two faces); absent ones read NaN.
constexpr int kObservedTouches = 2;

/// The observation's columns for this robot, in order.
std::vector<std::string> observationColumns(const Simulation& sim);

/// sim.observation as a row of observationColumns (resized to fit).
void observationRow(const Simulation& sim, std::vector<double>& row);

/// The command's columns: "wheel_speed", "left_speed", "right_speed" (rad/s),
/// then "actuators.NAME" per actuator, in its mode's unit.
std::vector<std::string> commandColumns(const Simulation& sim);

/// A command from a row of commandColumns (NaN: unset).
void commandFromRow(const Simulation& sim, const double* row, size_t size, Command& out);

}  // namespace roverlab
