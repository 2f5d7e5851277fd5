// `planar-vehicle`: [SP2017]'s two-axle vehicle in the x–z plane. Each wheel
// hangs on a "candle" suspension: a hub sliding vertically in the body with a
// nonlinear spring (linear + cubic) between bump stops. Front, rear or
// all-wheel drive by the front_drive / rear_drive switches.
#include <cmath>

#include "common/elementary.h"
#include "common/size_optimized.h"
#include "robots/preset_kit.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN
namespace roverlab {
namespace {

std::vector<ParamSpec> params() {
  std::vector<ParamSpec> ps = {
      {"body_mass", 200.0, 1.0, 1e5, "kg", "body mass"},
      {"body_length", 2.0, 0.2, 10.0, "m", "body box length"},
      {"body_height", 0.4, 0.05, 5.0, "m", "body box height"},
      {"wheelbase", 1.4, 0.2, 10.0, "m", "front to rear axle"},
      {"axle_drop", 0.35, 0.0, 3.0, "m", "axle below the body frame at static load"},
      {"hub_mass", 5.0, 0.1, 1e3, "kg", "unsprung mass of each suspension slider"},
      {"suspension_stiffness", 2.0e4, 0.0, 1e8, "N/m", "linear spring rate k of each candle"},
      {"suspension_cubic", 2.0e6, 0.0, 1e10, "N/m³", "progressive term k3: F = k e + k3 e³"},
      {"suspension_damping", 1500.0, 0.0, 1e6, "N·s/m", "damping of each candle"},
      {"suspension_travel", 0.08, 0.005, 1.0, "m",
       "bump stops at ±travel from the static position"},
      {"front_drive", 1.0, 0.0, 1.0, "-", "1: front wheel driven, 0: free"},
      {"rear_drive", 1.0, 0.0, 1.0, "-", "1: rear wheel driven, 0: free"},
  };
  for (ParamSpec& s : wheelParams(0.3, 0.2, 10.0, 0.45, 1.0e5, 1.5e3, 200.0, 250.0, 8.0))
    ps.push_back(s);
  return ps;
}

// Spring compression e with k e + k3 e³ = load (Newton; the left side is monotonic).
double compression(double k, double k3, double load) {
  double e = k > 0 ? load / k : elementary::cbrt(load / k3);
  for (int i = 0; i < 50; ++i) e -= (k * e + k3 * e * e * e - load) / (k + 3 * k3 * e * e);
  return e;
}

void build(const ParamValues& p, RobotDescription& robot) {
  const double half = p("wheelbase") / 2, travel = p("suspension_travel");
  const double g = 9.81;
  // Static load of each candle: half the body's weight (the body is symmetric).
  const double k = p("suspension_stiffness"), k3 = p("suspension_cubic");
  const double preload = (k > 0 || k3 > 0) ? compression(k, k3, 0.5 * p("body_mass") * g) : 0.0;
  for (const double side : {1.0, -1.0}) {
    const std::string end = side > 0 ? "front" : "rear", hub = "hub_" + end;
    JointDescription& j = addLink(robot, hub, "base", JointKind::Prismatic, Vec3::UnitZ(),
                                  Vec3(side * half, 0, -p("axle_drop")), p("hub_mass"),
                                  Vec3(0.08, 0.08, 0.2), Vec3(0, 0, 0.1));
    j.spring = SpringDescription{k, -preload, k3};
    j.damping = p("suspension_damping");
    j.params = {ParamValues::path("suspension_stiffness"), ParamValues::path("suspension_damping")};
    j.limit = LimitDescription{-travel, travel, 1e6, 5e3, {}};  // fixed bump stops
    addWheel(robot, p, hub, "wheel_" + end, Vec3::Zero(), p(end + "_drive") > 0.5);
  }
}

}  // namespace

const PresetDef& planarVehiclePreset() {
  static const PresetDef def = {
      "planar-vehicle",
      "[SP2017]'s two-axle vehicle in the x–z plane with candle suspension; front, rear or "
      "all-wheel drive",
      params(),
      true,
      false,
      build,
      "body_mass",
      [](const ParamValues& p) -> Vec3 { return Vec3(p("body_length"), 0.6, p("body_height")); },
      [](const ParamValues&) -> Vec3 { return Vec3::Zero(); },
  };
  return def;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
