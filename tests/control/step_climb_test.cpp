// The step-climb controller on [GKS2025]'s 0.65 m step (terrains/climb-articulated6.json),
// and the sweep over step heights of docs/step-climb.md (tag [.sweep], hidden).
#include "control/step_climb.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

#include "support/scenario_files.h"

using namespace roverlab;
using testing::simulationOf;
using testing::wheelCentre;

namespace {

constexpr double kPi = 3.14159265358979323846;

// Pitch in the body's own vertical plane, so that a section past vertical
// reads more than 90° (the x axis' elevation, which the controller reads,
// stops at 90°): the angle of the body x axis above the horizontal heading
// perpendicular to the body y axis. For these symmetric runs it is bodyPitch.
double sweptPitch(const Simulation& sim, int body) {
  const Mat3 r = worldRotation(sim.data.bodies, body);
  const Vec3 x = r.col(0), y = r.col(1);
  const Vec3 heading = Vec3(y.y(), -y.x(), 0.0).normalized();
  return std::atan2(x.z(), x.dot(heading));
}

// Lateral tilt of a body (rad): the rise of its y axis; unlike bodyRoll it
// stays small when the body pitches past vertical.
double tilt(const Simulation& sim, int body) {
  return std::asin(std::clamp(worldRotation(sim.data.bodies, body)(2, 1), -1.0, 1.0));
}

struct ClimbRun {
  double onTop = -1;             ///< first time all six wheels were on the top (s), −1 if never
  double done = -1;              ///< time the controller reached "done" (s), −1 if never
  double peakPitch[3] = {};      ///< largest |pitch| per section: base (middle), front, rear (rad)
  double maxTilt = 0;            ///< largest |lateral tilt| of the middle section (rad)
  double foldRange[2] = {0, 0};  ///< lowest and highest fold angle (rad)
  double extendRange[2] = {0, 0};
  double maxSpeedCommand = 0;  ///< largest |wheel speed target| (rad/s)
  bool endOnTop = false;       ///< at the end all six wheels on the top and touching it
  double endMinZ = 0;          ///< lowest wheel centre at the end (m)
  double maxBodyLoad = 0;      ///< largest normal force on one body box from the terrain (N)
  double bodyContactTime = 0;  ///< time with any body box touching the terrain (s)
};

// All six wheel centres above the top + r/2 and touching something.
bool allOnTop(const Simulation& sim, double top, double r) {
  for (size_t w = 0; w < sim.model.robot.wheels.size(); ++w)
    if (wheelCentre(sim, static_cast<int>(w)).z() < top + 0.5 * r ||
        sim.data.wheels[w].contacts.empty())
      return false;
  return true;
}

ClimbRun runClimb(Simulation& sim, double top, double duration) {
  ClimbRun out;
  const double r = sim.model.robot.wheels[0].shape.radius;
  const long every = std::lround(0.01 / sim.model.dt);
  while (sim.state.bodies.time < duration - 1e-9) {
    if (!advance(sim)) FAIL(sim.data.error);
    if (sim.steps % every) continue;
    updateKinematics(sim);
    const double t = sim.state.bodies.time;
    for (size_t s = 0; s < 3 && s < sim.model.robot.sections.size(); ++s)
      out.peakPitch[s] =
          std::max(out.peakPitch[s], std::abs(sweptPitch(sim, sim.model.robot.sections[s])));
    out.maxTilt = std::max(out.maxTilt, std::abs(tilt(sim, sim.model.robot.base)));
    for (const char* joint : {"fold_front", "fold_rear", "extend_front", "extend_rear"}) {
      const Body& b = sim.model.robot.bodies
                          .bodies[sim.model.robot.actuators[sim.model.robot.joints.at(joint)].body];
      const double q = sim.state.bodies.q[b.qIndex];
      double* range = joint[0] == 'f' ? out.foldRange : out.extendRange;
      range[0] = std::min(range[0], q), range[1] = std::max(range[1], q);
    }
    for (int a : sim.model.robot.leftDrive)
      out.maxSpeedCommand = std::max(out.maxSpeedCommand, std::abs(sim.state.targets[a]));
    for (int a : sim.model.robot.rightDrive)
      out.maxSpeedCommand = std::max(out.maxSpeedCommand, std::abs(sim.state.targets[a]));
    bool touching = false;
    for (const BoxResult& b : sim.data.boxes) {
      out.maxBodyLoad = std::max(out.maxBodyLoad, b.normalLoad);
      touching = touching || !b.contacts.empty();
    }
    if (touching) out.bodyContactTime += 0.01;
    if (out.onTop < 0 && allOnTop(sim, top, r)) out.onTop = t;
    if (out.done < 0 && sim.controller &&
        sim.controller->phase() == static_cast<int>(ClimbPhase::Done))
      out.done = t;
  }
  updateKinematics(sim);
  out.endOnTop = allOnTop(sim, top, r);
  out.endMinZ = 1e300;
  for (size_t w = 0; w < sim.model.robot.wheels.size(); ++w)
    out.endMinZ = std::min(out.endMinZ, wheelCentre(sim, static_cast<int>(w)).z());
  return out;
}

// The step box of climb-articulated6.json with its top at `height` (bottom at −1 m).
std::vector<std::string> stepOf(double height) {
  char size[64], centre[64];
  std::snprintf(size, sizeof size, "terrain.boxes[1].size[2]=%.4f", height + 1.0);
  std::snprintf(centre, sizeof centre, "terrain.boxes[1].centre[2]=%.4f", (height - 1.0) / 2);
  return {size, centre};
}

}  // namespace

TEST_CASE("step-climb brings all six wheels onto the 0.65 m step within 30 s", "[control][climb]") {
  // With body contact (the default): the section boxes collide with the step.
  Simulation sim = simulationOf("climb-articulated6.json");
  REQUIRE(sim.controller);
  REQUIRE(sim.model.bodyContact.enabled);
  const ClimbRun run = runClimb(sim, 0.65, 30.0);
  const double deg = 180 / kPi;
  INFO("on top at " << run.onTop << " s, done at " << run.done << " s; peak pitch middle "
                    << run.peakPitch[0] * deg << "°, front " << run.peakPitch[1] * deg << "°, rear "
                    << run.peakPitch[2] * deg << "°; max tilt " << run.maxTilt * deg
                    << "°; body contact " << run.bodyContactTime << " s, up to " << run.maxBodyLoad
                    << " N");
  CHECK(sim.controller->phase() == static_cast<int>(ClimbPhase::Done));
  CHECK(run.endOnTop);  // every wheel centre above 0.65 + r/2 and touching the top
  CHECK(run.onTop > 0);
  CHECK(run.onTop < 30.0);
  // No tipping: the middle section never leans sideways and never goes over
  // backwards (it stands a few degrees past vertical at the edge; going over
  // would read 120° and more).
  CHECK(run.maxTilt < 0.05);
  CHECK(run.peakPitch[0] < 0.5 * kPi + 0.1);
  // Drives within their ranges (the stiff limits allow millimetres / a few
  // hundredths of a radian of overshoot) and the wheel command within 5 rad/s.
  CHECK(run.foldRange[0] > -0.5 * kPi - 0.05);
  CHECK(run.foldRange[1] < 0.5 * kPi + 0.05);
  CHECK(run.extendRange[0] > -0.005);
  CHECK(run.extendRange[1] < 0.185);
  CHECK(run.maxSpeedCommand <= 5.0);
  // The paper's sections reach about 80° ([GKS2025], Fig. 11); ours are steep too.
  CHECK(run.peakPitch[1] > 1.0);
  // The boxes touch the step only in passing: the front section brushes the
  // edge as it comes down onto the top, the middle's tail the ground as it
  // pitches up and the edge as it tips forward; never more than about 2.5
  // times the robot's weight (1236 N; 3.1 kN measured: a box's corner
  // brushing the edge carries its face's whole spring, docs/contact.md) and
  // 2.6 s in all.
  CHECK(run.maxBodyLoad < 3.0 * 1236.0);
  CHECK(run.bodyContactTime < 4.0);
}

TEST_CASE("step-climb needs articulated6", "[control][climb]") {
  const Expected<std::string> text =
      applyOverrides(testing::readText(testing::terrainsDir() / "flat-rocker8.json"),
                     {"control.controller=\"step-climb\""});
  REQUIRE(text.ok());
  const Expected<Scenario> scenario = parseScenario(text.value());
  REQUIRE(scenario.ok());
  const Expected<Simulation> sim = makeSimulation(scenario.value());
  REQUIRE_FALSE(sim.ok());
  CHECK(sim.issues().front().path == "control.controller");
}

TEST_CASE("step height sweep with and without the controller", "[.sweep]") {
  std::printf(
      "| step (m) | step / r | step-climb: on top at (s) | peak pitch middle / front / rear (°) | "
      "max "
      "tilt (°) | plain 5 rad/s: on top at (s) |\n|---|---|---|---|---|---|\n");
  const double deg = 180 / kPi;
  double best[2] = {0, 0};
  for (int i = 0; i <= 14; ++i) {
    const double h = 0.10 + 0.05 * i;
    Simulation climb = simulationOf("climb-articulated6.json", stepOf(h));
    const ClimbRun c = runClimb(climb, h, 30.0);
    std::vector<std::string> plain = stepOf(h);
    plain.push_back("control={\"wheel_speed\": 5}");
    Simulation drive = simulationOf("climb-articulated6.json", plain);
    const ClimbRun d = runClimb(drive, h, 30.0);
    // With the controller the robot must end on top (it brakes there); plain
    // driving counts once all six wheels were on top (it drives on and may leave).
    const bool climbed = c.endOnTop, drove = d.onTop > 0;
    if (climbed) best[0] = h;
    if (drove) best[1] = h;
    char climbCell[32] = "no", driveCell[32] = "no";
    if (climbed) std::snprintf(climbCell, sizeof climbCell, "%.2f", c.onTop);
    if (drove) std::snprintf(driveCell, sizeof driveCell, "%.2f", d.onTop);
    std::printf("| %.2f | %.2f | %s | %.0f / %.0f / %.0f | %.2f | %s |\n", h, h / 0.19, climbCell,
                c.peakPitch[0] * deg, c.peakPitch[1] * deg, c.peakPitch[2] * deg, c.maxTilt * deg,
                driveCell);
  }
  std::printf("highest step climbed: step-climb %.2f m, plain driving %.2f m\n", best[0], best[1]);
  SUCCEED();
}
