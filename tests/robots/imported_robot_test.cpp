// A real imported robot in motion: Clearpath's Husky from its URDF
// (tests/data/robots/husky/husky.urdf through a scenario's robot.file), a
// 56.6 kg four-wheel skid steer with wheels of r = 0.1651 m on a 0.5708 m
// track and a 0.512 m wheelbase, checked against what its geometry and the
// tire model predict: straight driving at ω·r less the tires' slip, skid
// turns slower than the no-slip kinematics, a speed-held stop on a slope,
// and runs over a heightmap and a mesh.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "support/scenario_files.h"

using namespace roverlab;
using testing::runUntil;

namespace {

// The Husky's wheel radius and track (wheel joints at y = ±0.2854 m).
constexpr double kRadius = 0.1651, kTrack = 2 * 0.2854;

// The files beside husky.urdf, by the names the scenario and the URDF give.
const ScenarioFiles kHuskyFiles = [](const std::string& name,
                                     std::string& error) -> std::optional<std::string> {
  const std::string bytes = testing::dataFile("robots/husky/" + name);
  if (bytes.empty()) {
    error = "no such file";
    return std::nullopt;
  }
  return bytes;
};

const nlohmann::json kHusky = {{"file", "husky.urdf"}, {"pose", {{"position", {0, 0}}}}};

Simulation simulationOf(const nlohmann::json& scenario) {
  const Expected<Scenario> s = parseScenario(scenario.dump(), kHuskyFiles);
  INFO(s.message());
  REQUIRE(s.ok());
  Expected<Simulation> sim = makeSimulation(s.value());
  INFO(sim.message());
  REQUIRE(sim.ok());
  return std::move(sim).value();
}

// Asphalt as terrains/flat-rocker8.json has it. Its adhesion curve
// φ_max (1 − e^(−s/s0)) (1 + e^(−s/s1)) peaks at 1.18 near s = 0.27 and
// falls to 0.84 at s = 1.5.
const nlohmann::json kAsphalt = {{"phi_max", 0.8}, {"s0", 0.1}, {"s1", 0.5}, {"rolling", 0.018}};

// The Husky on flat ground (a 20 × 20 m box, top at z = 0) with side speed commands.
nlohmann::json flat(double left, double right) {
  return {
      {"format", "roverlab-scenario"},
      {"version", 1},
      {"name", "husky on flat ground"},
      {"terrain",
       {{"materials", {{"asphalt", kAsphalt}}},
        {"boxes", {{{"centre", {0, 0, -0.5}}, {"size", {20, 20, 1}}, {"material", "asphalt"}}}}}},
      {"robot", kHusky},
      {"control", {{"left_speed", left}, {"right_speed", right}}},
      {"simulation", {{"duration", 5}}}};
}

// The base's pose and motion in the ground plane.
struct Planar {
  Vec3 position;     // base frame origin (m)
  Vec3 forward;      // unit heading: the base's x axis in the ground plane
  double yaw;        // (rad)
  double speed;      // velocity along the heading (m/s)
  double lateral;    // velocity across it, to the left (m/s)
  double yawRate;    // (rad/s)
  double pitchRate;  // about the base's y axis (rad/s)
};

Planar planar(const Simulation& sim) {
  const MultibodyData& d = sim.data.bodies;
  const int base = sim.model.robot.base;
  Planar p;
  p.position = worldPoint(d, base, Vec3::Zero());
  const Vec3 x = worldRotation(d, base).col(0);
  p.forward = Vec3(x.x(), x.y(), 0).normalized();
  p.yaw = std::atan2(p.forward.y(), p.forward.x());
  const Vec3 v = worldPointVelocity(d, base, Vec3::Zero());
  p.speed = v.dot(p.forward);
  p.lateral = v.dot(Vec3::UnitZ().cross(p.forward));
  const Vec3 w = worldAngularVelocity(d, base);
  p.yawRate = w.z();
  p.pitchRate = w.dot(worldRotation(d, base).col(1));
  return p;
}

// One wheel's spin (rad/s) and what its tire reports: the slip s of
// [GKS2025] eq. 9 (|V_sk| over the larger of the centre's and the rim's
// speed) and the longitudinal slip (ω r − v) / (ω r) from the contact's slip
// velocity V_sk = V_O + ω × OP (|OP| = r), v the centre's speed along the
// heading.
struct WheelSlip {
  double spin = 0, slip = 0, longitudinal = 0;
  bool touching = false;
};

struct Sample {
  Planar base;
  WheelSlip wheels[4];
};

// The base and the wheels now, with their tires' results for this same
// state: a step evaluates the contact forces at its start, so one more step
// is taken to read them.
Sample sample(Simulation& sim) {
  Sample out;
  out.base = planar(sim);
  const Robot& robot = sim.model.robot;
  REQUIRE(robot.wheels.size() == 4);
  for (int w = 0; w < 4; ++w)
    out.wheels[w].spin = sim.state.bodies.v[robot.bodies.bodies[robot.wheels[w].body].vIndex];
  if (!advance(sim)) FAIL(sim.data.error);
  for (int w = 0; w < 4; ++w) {
    WheelSlip& ws = out.wheels[w];
    const WheelResult& r = sim.data.wheels[w];
    ws.touching = !r.forces.empty();
    for (const TireForces& f : r.forces) {
      ws.slip = std::max(ws.slip, f.slip);
      ws.longitudinal = -f.slipVelocity.dot(out.base.forward) / (ws.spin * kRadius);
    }
  }
  return out;
}

// Wheels at y ≥ 0 in the base frame (the left ones).
bool isLeft(const Simulation& sim, int w) {
  return sim.model.robot.bodies.bodies[sim.model.robot.wheels[w].body].tree.pos.y() > 0;
}

}  // namespace

TEST_CASE("the imported Husky compiles to its URDF's bodies and drives", "[imported]") {
  const Simulation sim = simulationOf(flat(0, 0));
  const Robot& robot = sim.model.robot;
  // base_link with the 10 links its fixed joints weld to it, then four wheels.
  REQUIRE(robot.bodies.bodies.size() == 5);
  double mass = 0;
  for (const Body& b : robot.bodies.bodies) mass += b.mass;
  CHECK(mass == Approx(46.034 + 4 * 2.637).epsilon(1e-12));
  REQUIRE(robot.wheels.size() == 4);
  for (const WheelModel& w : robot.wheels) CHECK(w.shape.radius == kRadius);
  CHECK(robot.leftDrive.size() == 2);
  CHECK(robot.rightDrive.size() == 2);
  for (int w = 0; w < 4; ++w)
    CHECK(std::abs(robot.bodies.bodies[robot.wheels[w].body].tree.pos.y()) == 0.2854);
}

TEST_CASE("the Husky drives straight at ω·r less its tires' slip", "[imported]") {
  // Both sides at ω = 3 rad/s. On flat ground the tires carry only what
  // accelerates the robot while the speed loops settle (a few per cent of
  // its weight), which the tread holds below its stiction speed: the
  // reported slips stay below 1e-3 from 1 s on (2e-4 in this run). So
  // v = ω r (1 − s) for each wheel, s its tire's longitudinal slip, to the
  // little the base's yaw and pitch rates move a wheel centre against it.
  //
  // The commanded ω is reached through the wheels' PI loops (gain 50 s⁻¹ ×
  // the wheel's 0.044 kg·m² plus its quarter of the robot at its radius,
  // m r²/4 = 0.39 kg·m², integral gain 10 s⁻¹ × gain, as the URDF reader
  // sets them): ζ ≈ 1.1, ω_n ≈ 22 rad/s. Hence: the mean speed over 1-3 s
  // (distance over time) within 1 % of ω r, and every sample from 2 s on
  // within 0.5 %; the tires' slip adds at most 1e-3.
  const double omega = 3.0;
  Simulation sim = simulationOf(flat(omega, omega));
  runUntil(sim, 1.0);
  const Planar start = planar(sim);
  double maxSlip = 0, maxLateral = 0, maxYawRate = 0;
  for (int k = 1; k <= 200; ++k) {
    runUntil(sim, 1.0 + 0.01 * k);
    const double t = sim.state.bodies.time;
    const Sample now = sample(sim);
    const Planar& p = now.base;
    INFO("t = " << t << " s, v = " << p.speed << " m/s");
    for (int w = 0; w < 4; ++w) {
      const WheelSlip& s = now.wheels[w];
      INFO("wheel " << w << ": spin " << s.spin << " rad/s, slip " << s.slip);
      REQUIRE(s.touching);
      maxSlip = std::max(maxSlip, s.slip);
      // The wheel centres move with the base but for its yaw rate times their
      // 0.2854 m lateral offset and its pitch rate times their 0.033 m height,
      // and the tire sees the base's pitch rate added to the spin; 1e-5 more
      // (5 µm/s) for the base's bounce and roll on its tires.
      const double bound =
          (std::abs(p.yawRate) * 0.2854 + std::abs(p.pitchRate) * (0.0328 + kRadius)) /
              std::abs(s.spin * kRadius) +
          1e-5;
      CHECK(std::abs((s.spin * kRadius - p.speed) / (s.spin * kRadius) - s.longitudinal) <= bound);
    }
    if (t >= 2.0 - 1e-9) CHECK(std::abs(p.speed - omega * kRadius) < 0.005 * omega * kRadius);
    maxLateral = std::max(maxLateral, std::abs(p.lateral));
    maxYawRate = std::max(maxYawRate, std::abs(p.yawRate));
  }
  const Planar end = planar(sim);
  CHECK(maxSlip < 1e-3);
  const Vec3 travel = end.position - start.position;
  CHECK(travel.dot(start.forward) / 2.0 == Approx(omega * kRadius).epsilon(0.01));
  // Straight: no sideways speed (< 1 mm/s), the yaw rate below 1 mrad/s,
  // the heading held to 1 mrad over the 1 m driven, and the path off the
  // start heading by under 5 mm (20 µm in this run).
  CHECK(maxLateral < 1e-3);
  CHECK(maxYawRate < 1e-3);
  CHECK(std::abs(end.yaw - start.yaw) < 1e-3);
  CHECK(std::abs(travel.dot(Vec3::UnitZ().cross(start.forward))) < 0.005);
  // The start itself turns the robot a little (1.8 mrad): its centre of
  // mass sits 69 mm right of the centre line (the URDF's inertial origin),
  // so the sides' loads, and their traction while accelerating, differ by
  // 1.6×.
  CHECK(std::abs(end.yaw) < 0.01);
}

TEST_CASE("the Husky's wheels reach a commanded speed in 0.1 s, overshooting it by under 15 %",
          "[imported]") {
  // From rest to ω = 3 rad/s on flat ground. Each wheel's loop drives its
  // quarter of the robot (m r²/4 = 0.39 kg·m² beside the wheel's own
  // 0.044), which its gains include: the spins are within 2 % of ω after
  // 0.09 s in this run. The integral term (10 s⁻¹ × gain, what holds a
  // braked robot on a slope) carries the spins past ω, to 3.41 rad/s
  // (+13.6 %), and the base past ω r by 18.5 %, before they settle; gains
  // from the wheel's inertia alone would overshoot by 37 % and take twice as
  // long.
  const double omega = 3.0;
  Simulation sim = simulationOf(flat(omega, omega));
  double peak = 0, peakSpeed = 0, reached = -1;
  for (int k = 1; k <= 200; ++k) {
    runUntil(sim, 0.01 * k);
    const Sample now = sample(sim);
    for (const WheelSlip& w : now.wheels) peak = std::max(peak, w.spin);
    peakSpeed = std::max(peakSpeed, now.base.speed);
    if (reached < 0 && std::all_of(std::begin(now.wheels), std::end(now.wheels),
                                   [&](const WheelSlip& w) { return w.spin > 0.98 * omega; }))
      reached = sim.state.bodies.time;
  }
  INFO("peak spin " << peak << " rad/s, within 2 % of ω at " << reached << " s; peak speed "
                    << peakSpeed << " m/s against ω r " << omega * kRadius);
  CHECK(reached > 0);
  CHECK(reached < 0.15);
  CHECK(peak < 1.15 * omega);
  CHECK(peakSpeed < 1.2 * omega * kRadius);
}

TEST_CASE("the Husky's skid turn is slower than the no-slip kinematics", "[imported]") {
  // Left −ω, right +ω: without slip the base would yaw at 2 ω r / track =
  // 1.74 rad/s (counterclockwise, positive). A skid steer's wheels must
  // slide sideways to turn (wheelbase 0.512 m against a 0.571 m track), so
  // they also slip along their rims and the yaw rate is lower. For a rigid
  // base the two sides' centre speeds along the heading differ by yaw rate ×
  // track, and each is ω r (1 − s) with s its tire's longitudinal slip:
  //   yaw rate / (2 ω r / track) = ((1 − s_right) + (1 − s_left)) / 2,
  // the two sides' mean slips over the window measuring the ratio.
  //
  // The real Husky's centre of mass is 69 mm right of the centre line, so
  // its right wheels carry 1.6× the left's load. In this run (2-3 s) the
  // right wheels grip near the adhesion curve's peak (slip s ≈ 0.2 in all,
  // 0.09 along the rim; force ≈ 1.17 × load) while the left ones slide at
  // s ≈ 1.5: the ratio is ((1 − 0.09) + (1 − 1.50)) / 2 = 0.21, and the
  // stronger right side pushes the robot its way as it turns (0.35 m/s: a
  // circle of about 1 m radius, not a turn on the spot; the next test
  // centres the mass). So: the yaw rate's sign, the ratio in (0.2, 1), the
  // ratio from the measured slips to 1 %, and the travel the way the loaded
  // side's wheels turn, slower than they roll.
  const double omega = 3.0, kinematic = 2 * omega * kRadius / kTrack;
  for (const double sign : {1.0, -1.0}) {
    INFO((sign > 0 ? "left −ω, right +ω" : "left +ω, right −ω"));
    Simulation sim = simulationOf(flat(-sign * omega, sign * omega));
    runUntil(sim, 2.0);
    const Planar start = planar(sim);
    double slipLeft = 0, slipRight = 0, speed = 0;
    const int samples = 100;
    double yaw = start.yaw, turned = 0;
    for (int k = 1; k <= samples; ++k) {
      runUntil(sim, 2.0 + 0.01 * k);
      const Sample now = sample(sim);
      const Planar& p = now.base;
      turned += std::remainder(p.yaw - yaw, 2 * M_PI);
      yaw = p.yaw;
      speed += p.speed / samples;
      for (int w = 0; w < 4; ++w) {
        REQUIRE(now.wheels[w].touching);
        (isLeft(sim, w) ? slipLeft : slipRight) += now.wheels[w].longitudinal / (2 * samples);
      }
    }
    const double ratio = sign * turned / 1.0 / kinematic;
    INFO("yaw rate ratio " << ratio << ", slips left " << slipLeft << ", right " << slipRight
                           << ", forward speed " << speed << " m/s");
    CHECK(ratio > 0.2);
    CHECK(ratio < 1.0);
    CHECK(ratio == Approx(((1 - slipRight) + (1 - slipLeft)) / 2).epsilon(0.01));
    CHECK(slipRight < slipLeft);  // the loaded side grips
    CHECK(sign * speed > 0);      // and goes the way its wheels turn
    CHECK(sign * speed < omega * kRadius);
  }
}

TEST_CASE("the Husky with its centre of mass on the centre line turns where it stands",
          "[imported]") {
  // The same URDF with the chassis' inertial origin moved onto the centre
  // line (y = 0 instead of −0.085 m): the sides carry equal loads, neither
  // wins, and the base turns about itself at 0.55 of the kinematic
  // 1.74 rad/s (both sides slipping alike, s ≈ 0.45 along the rims). Its
  // wheels slide on the falling side of the adhesion curve, where grip drops
  // as slip grows (a negative damping), so the base wanders as the sides
  // trade grip, by growing amounts (1 cm over 1-3 s, 3.5 cm by 12 s; the
  // same at dt = 1e-4 s and with RK4: the model's, not the integrator's).
  // Over 1-3 s it stays within 2 cm of where it was (1.05 cm in this run)
  // while its wheels travel 0.74 m.
  std::string urdf = testing::dataFile("robots/husky/husky.urdf");
  const std::string from = R"(<origin xyz="-0.00065 -0.085 0.062" />)";
  const size_t at = urdf.find(from);
  REQUIRE(at != std::string::npos);
  urdf.replace(at, from.size(), R"(<origin xyz="-0.00065 0 0.062" />)");
  const double omega = 3.0, kinematic = 2 * omega * kRadius / kTrack;
  nlohmann::json scenario = flat(-omega, omega);
  scenario["robot"] = {{"urdf", urdf}, {"pose", {{"position", {0, 0}}}}};
  Simulation sim = simulationOf(scenario);
  runUntil(sim, 1.0);
  const Planar start = planar(sim);
  double yaw = start.yaw, turned = 0, wander = 0;
  for (int k = 1; k <= 200; ++k) {
    runUntil(sim, 1.0 + 0.01 * k);
    const Planar p = planar(sim);
    turned += std::remainder(p.yaw - yaw, 2 * M_PI);
    yaw = p.yaw;
    wander = std::max(wander, (p.position - start.position).head<2>().norm());
  }
  const double ratio = turned / 2.0 / kinematic;
  INFO("yaw rate ratio " << ratio << ", wander " << wander << " m");
  CHECK(ratio > 0.2);
  CHECK(ratio < 1.0);
  CHECK(wander < 0.02);
}

TEST_CASE("the Husky holds on a 10° slope with its wheels commanded to 0", "[imported]") {
  // The slope: a 12 × 6 × 1 m box pitched 10° (rising along +x), as a hull
  // of its corners, its top face through the origin. The robot stands on it
  // nose up. Each wheel's PI loop holds its wheel like a brake: the integral
  // term winds up to the torque gravity puts on it (m g sin 10° r / 4 ≈
  // 4 N·m a wheel on average) and the speed error then stays 0, and the
  // tread holds the tires
  // without creep below its stiction speed. After 1 s of settling (in which
  // it rolls back 3 cm while the integral winds up) the base moves less
  // than 1 mm in the next 2 s (36 µm in this run).
  const double pitch = 10 * M_PI / 180;
  const Mat3 tilt = Eigen::AngleAxisd(-pitch, Vec3::UnitY()).toRotationMatrix();  // x up
  nlohmann::json points = nlohmann::json::array();
  for (const double x : {-6.0, 6.0})
    for (const double y : {-3.0, 3.0})
      for (const double z : {-1.0, 0.0}) {
        const Vec3 p = tilt * Vec3(x, y, z);
        points.push_back({p.x(), p.y(), p.z()});
      }
  nlohmann::json scenario = flat(0, 0);
  scenario["terrain"].erase("boxes");
  scenario["terrain"]["hulls"] = {{{"points", points}, {"material", "asphalt"}}};
  scenario["robot"]["pose"]["pitch"] = pitch;
  Simulation sim = simulationOf(scenario);
  runUntil(sim, 1.0);
  const Vec3 settled = planar(sim).position;
  double creep = 0;
  for (int k = 1; k <= 20; ++k) {
    runUntil(sim, 1.0 + 0.1 * k);
    creep = std::max(creep, (planar(sim).position - settled).norm());
  }
  INFO("creep " << creep * 1e3 << " mm; pitch " << bodyPitch(sim, sim.model.robot.base));
  CHECK(creep < 1e-3);
  CHECK(bodyPitch(sim, sim.model.robot.base) == Approx(pitch).margin(0.01));
  for (const WheelResult& w : sim.data.wheels) CHECK(w.normalLoad > 0);
}

TEST_CASE("the Husky runs on a heightmap and on a mesh", "[imported]") {
  // terrains/ scenarios of each kind with their robot swapped for the Husky:
  // the rough field (heightmap, ±6 cm) at 2 rad/s and the rubble patch
  // (mesh, stones up to 16 cm) at 3 rad/s, for 3 s each. The runs stay
  // within their energy balance (advance stops a run that blows up), the
  // tires within their friction law, and the robot keeps upright and goes
  // forward (1.0 m and 1.3 m in these runs).
  for (const char* name : {"rough-field-rocker8.json", "rubble-articulated6.json"}) {
    INFO(name);
    nlohmann::json scenario =
        nlohmann::json::parse(testing::readText(testing::terrainsDir() / name));
    scenario["robot"] = kHusky;
    Simulation sim = simulationOf(scenario);
    updateKinematics(sim);
    const Vec3 start = planar(sim).position;
    runUntil(sim, 3.0);
    CHECK(sim.outcome == RunOutcome::Ok);
    CHECK(sim.data.law.frictionViolations == 0);
    const Planar end = planar(sim);
    CHECK_FALSE(bodyTilt(sim, sim.model.robot.base).upsideDown);
    CHECK(end.position.allFinite());
    CHECK(end.position.x() - start.x() > 0.5);
    CHECK(std::abs(end.position.z() - start.z()) < 0.3);
  }
}
