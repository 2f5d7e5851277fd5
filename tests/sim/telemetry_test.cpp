// Telemetry's joint torque columns (sim/telemetry.h): one per joint, wheels
// included, each the joint force the step applied; a driven wheel's torque
// never exceeds its actuator's limit (wheels have no joint limits or springs,
// so the drive is all of it), and is not zero while the robot drives.
#include "sim/telemetry.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "sim/run.h"
#include "support/scenario_files.h"

using namespace roverlab;
using testing::simulationOf;

TEST_CASE("every joint has a torque or force column; a wheel's is its drive, within its limit",
          "[sim][telemetry]") {
  Simulation sim = simulationOf("climb-articulated6.json");
  const std::vector<std::string> columns = telemetryColumns(sim);
  const auto column = [&](const std::string& name) {
    for (size_t i = 0; i < columns.size(); ++i)
      if (columns[i] == name) return static_cast<int>(i);
    return -1;
  };
  CHECK(column("fold_front_torque_Nm") >= 0);
  CHECK(column("section_front_force_N") >= 0);
  CHECK(columns.back() == "climb_phase");  // the phase stays last
  std::vector<double> row;
  double largest = 0.0;
  runSteps(sim, stepsIn(3.0, sim.model.dt), stepsIn(0.01, sim.model.dt), [&](Simulation& s) {
    telemetryRow(s, row);
    REQUIRE(row.size() == columns.size());
    for (const Actuator& a : s.model.robot.actuators) {
      const std::string& body = s.model.robot.bodies.bodies[a.body].name;
      if (body.rfind("wheel", 0) != 0) continue;
      const double torque = row[column(body + "_torque_Nm")];
      // The drive is clamped to its limit exactly; 1e-9 relative for rounding.
      CHECK(std::abs(torque) <= a.limit * (1 + 1e-9));
      largest = std::max(largest, std::abs(torque));
    }
    return true;
  });
  CHECK(largest > 1.0);  // N·m: the wheels drive the robot to the step
}
