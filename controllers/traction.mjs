// Slip-limiting traction control: every driven wheel aims at one target speed,
// and each wheel on its own gives way while it slips. Per wheel, every 2 ms:
//
//   - its command returns towards TARGET_SPEED at no more than RECOVERY_RATE;
//   - while its slip (obs.wheels.*.slip: the slip ratio s of [GKS2025] eq. 9)
//     exceeds SLIP_BOUND, the command is held within SLIP_BOUND of the speed at
//     which the wheel would roll without slipping, v / r0 (v: its centre's speed
//     along its path since the last update; r0: the free rolling radius): it is
//     lowered while the wheel spins faster than the ground passes (drive slip)
//     and raised, at most ALLOWANCE above the target, while the other wheels
//     drag it along (brake slip, the larger part of the slip peaks on the
//     rough field: a loaded wheel whose centre is swung forward by its rocker).
//
// The law holds while the wheel centre moves forward faster than V_MIN: near
// standstill the slip ratio is a ratio of mm/s speeds (a rover standing still
// on the rough field reads up to 1.9) and the wheel keeps its command.
// The speeds go to each wheel's own actuator (`actuators`); `plot` shows the
// largest slip and how many wheels are held. On the rough field, against the
// same speed held fixed (numbers in docs/controllers.md, "Examples"):
//
//   node tools/roverlab.mjs run terrains/rough-field-rocker8.json \
//        --controller controllers/traction.mjs --csv traction.csv
//   node tools/roverlab.mjs run terrains/rough-field-rocker8.json \
//        --set control.wheel_speed=2 --csv fixed.csv
//
// then compare the columns <wheel>_slip of the two files.

const TARGET_SPEED = 2.0;   // rad/s, every driven wheel (the rough field's control.wheel_speed)
const SLIP_BOUND = 0.02;    // slip ratio a wheel is held to once it exceeds it (-)
const RECOVERY_RATE = 4.0;  // rad/s², towards the target
const ALLOWANCE = 1.1;      // a dragged wheel may turn up to this factor of the target (-)
const ROLLING_RADIUS = 0.97;  // free rolling radius r0 / r of the tire model (docs/contact.md)
const V_MIN = 0.05;         // m/s: slower wheel centres are not held

export default {
  period: 0.002,

  init(model) {
    // The wheels with a speed actuator of their own (all of rocker8's and articulated6's).
    const actuators = new Set(model.actuators);
    this.wheels = model.wheels.filter((w) => actuators.has(w.name)).map((w) => ({ name: w.name, r0: ROLLING_RADIUS * w.radius_m }));
    this.max = model.max_wheel_speed_rad_s;
    this.target = Math.min(TARGET_SPEED, this.max);
    this.ceiling = Math.min(this.max, ALLOWANCE * this.target);
    this.started = false;
    this.out = { actuators: {}, plot: { max_slip: 0, held_wheels: 0 } };
    for (const w of this.wheels) {
      this.out.actuators[w.name] = this.target;
      Object.assign(w, { command: this.target, x: 0, y: 0, z: 0 });
    }
  },

  update(obs) {
    const a = this.out.actuators;
    if (!this.started) {
      this.started = true;
      for (const w of this.wheels) {
        const o = obs.wheels[w.name];
        w.x = o.x_m, w.y = o.y_m, w.z = o.z_m;
      }
    }
    const hx = Math.cos(obs.base.yaw_rad), hy = Math.sin(obs.base.yaw_rad);
    const step = RECOVERY_RATE * this.period;
    let maxSlip = 0, held = 0;
    for (const w of this.wheels) {
      const o = obs.wheels[w.name];
      // The centre's speed along its path, forward positive.
      const forward = (o.x_m - w.x) * hx + (o.y_m - w.y) * hy;
      const v = (Math.sign(forward) * Math.hypot(forward, o.z_m - w.z)) / this.period;
      w.x = o.x_m, w.y = o.y_m, w.z = o.z_m;
      let command = w.command + Math.max(-step, Math.min(step, this.target - w.command));
      if (o.slip > SLIP_BOUND && o.contacts > 0 && v > V_MIN) {
        const rolling = v / w.r0;
        command = Math.min(Math.max(command, rolling * (1 - SLIP_BOUND)), rolling / (1 - SLIP_BOUND));
        held += 1;
      }
      w.command = a[w.name] = Math.max(-this.max, Math.min(this.ceiling, command));
      maxSlip = Math.max(maxSlip, o.slip);
    }
    this.out.plot.max_slip = maxSlip;
    this.out.plot.held_wheels = held;
    return this.out;
  },
};
