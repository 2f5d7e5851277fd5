// A speed law for rocker8: fast on the level, slow while the ground under it
// is uneven. Two measures of unevenness, each scaled to 0 … 1 between a free
// band and a full value:
//
//   the rocker angles (joints.rocker_*.position_rad, relative to the body):
//     one wheel of a pair higher than the other, i.e. a bump or a slope edge
//     under the rover, seen before the body tilts;
//   the base pitch and roll: the body itself tilted.
//
// The larger of the two sets the speed, from LEVEL_SPEED (0) down to
// ROUGH_SPEED (1); the scenario's control.program.params may set both
// (level_speed_rad_s, rough_speed_rad_s: studies/rocker-speed-law-slope.json
// sweeps the second). The commanded speed follows that at most ACCELERATION up
// and DECELERATION down, from rest at the start. It commands `wheel_speed`
// and plots the speed and the two measures. For instance on the slope of
// [KJ2025] (the right row climbs 0.3 m), against fixed speeds (numbers in
// docs/controllers.md, "Examples"):
//
//   node tools/roverlab.mjs run terrains/slope-rocker8.json \
//        --controller controllers/rocker_speed.mjs --duration 8 --csv law.csv
//   node tools/roverlab.mjs run terrains/slope-rocker8.json \
//        --set control.wheel_speed=4 --duration 8 --csv fixed.csv

const LEVEL_SPEED = 4.0;   // rad/s on the level (rocker8's max_wheel_speed)
const ROUGH_SPEED = 1.0;   // rad/s once either measure is full
const ROCKER_FREE = 0.02;  // rad of rocker angle that does not slow the rover
const ROCKER_FULL = 0.25;  // rad of rocker angle at which it is down to ROUGH_SPEED
const TILT_FREE = 0.17;    // rad of pitch or roll that does not slow the rover (10°)
const TILT_FULL = 0.40;    // rad of pitch or roll at which it is down to ROUGH_SPEED (23°)
const ACCELERATION = 2.0;  // rad/s² at most, speeding up
const DECELERATION = 8.0;  // rad/s² at most, slowing down

const ramp = (value, free, full) => Math.min(1, Math.max(0, (value - free) / (full - free)));

export default {
  period: 0.01,

  init(model) {
    this.rockers = model.joints.filter((j) => /^rocker_/.test(j.name)).map((j) => j.name);
    // Rockers are passive joints: they are observed (obs.joints) but have no drive in model.joints.
    if (this.rockers.length === 0) this.rockers = model.observation.filter((c) => /^joints\.rocker_[^.]*\.position_rad$/.test(c)).map((c) => c.split('.')[1]);
    if (this.rockers.length === 0) throw new Error('this program drives rocker8 (no rocker_* joints observed)');
    const { level_speed_rad_s: level = LEVEL_SPEED, rough_speed_rad_s: rough = ROUGH_SPEED } = model.params;
    this.level = Math.min(level, model.max_wheel_speed_rad_s);
    this.rough = Math.min(rough, this.level);
    this.speed = 0;
    this.out = { wheel_speed: 0, plot: { speed_rad_s: 0, rocker_measure: 0, tilt_measure: 0 } };
  },

  update(obs) {
    let rocker = 0;
    for (const name of this.rockers) rocker = Math.max(rocker, Math.abs(obs.joints[name].position_rad));
    const tilt = Math.max(Math.abs(obs.base.pitch_rad), Math.abs(obs.base.roll_rad));
    const byRocker = ramp(rocker, ROCKER_FREE, ROCKER_FULL);
    const byTilt = ramp(tilt, TILT_FREE, TILT_FULL);
    const wanted = this.level - (this.level - this.rough) * Math.max(byRocker, byTilt);
    const up = ACCELERATION * this.period, down = DECELERATION * this.period;
    this.speed += Math.max(-down, Math.min(up, wanted - this.speed));
    this.out.wheel_speed = this.speed;
    this.out.plot.speed_rad_s = this.speed;
    this.out.plot.rocker_measure = byRocker;
    this.out.plot.tilt_measure = byTilt;
    return this.out;
  },
};
