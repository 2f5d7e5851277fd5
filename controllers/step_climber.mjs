// Step climber for articulated6, in JavaScript: the built-in `step-climb`
// controller (core/control/step_climb.cpp, docs/step-climb.md) written
// against the program vocabulary (docs/controllers.md). It climbs [GKS2025]'s
// 0.65 m step (3.4 wheel radii) with the same state machine:
//
//   approach → lift-front → climb-middle → lift-rear → done, and recover
//
// (0 … 5, reported as the plot value `phase`; each phase entry is logged).
// It reads the section pitches, the fold and extension positions, the wheel
// centres and what each wheel touches (contact normals and points); it
// commands one speed per wheel pair (by actuator) and the fold and extension
// targets (by joint drive: extend_front moves the body section_front, whose
// position is obs.joints.section_front.position_m). Run it on the step
// without the built-in controller (it is done at 10.71 s, as the built-in):
//
//   node tools/roverlab.mjs run terrains/step-articulated6.json \
//        --controller controllers/step_climber.mjs --duration 20
//
// The heading is the normal of the middle axle (left minus right middle wheel
// centre) in the ground plane: it stays defined when the middle section
// stands upright at the step, where the base's yaw does not. The middle
// section's body box is articulated6's: 0.5 m long, 0.2 m high, its centre
// 0.05 m above the middle axle.

const FRONT = 0, MIDDLE = 1, REAR = 2;  // wheel groups and sections
const REAR_END = 1;  // fold and extension drives: 0 front, 1 rear

const PHASES = ['approach', 'lift-front', 'climb-middle', 'lift-rear', 'done', 'recover'];
const [APPROACH, LIFT_FRONT, CLIMB_MIDDLE, LIFT_REAR, DONE, RECOVER] = PHASES.keys();

// The settings of StepClimbParams (core/control/step_climb.h), same values and units.
const P = {
  period: 0.01,        // control period (s)
  driveSpeed: 3.0,     // wheel speed while approaching (rad/s)
  pushSpeed: 2.0,      // wheel speed while pressing against the step (rad/s)
  foldRate: 1.0,       // largest rate of change of a fold target (rad/s)
  extendRate: 0.15,    // largest rate of change of an extension target (m/s)
  liftFold: 1.5,       // fold of a section lifted over the edge (rad)
  pitchUpFold: 0.9,    // rear fold that pitches the middle up in lift-front (rad)
  maxLiftPitch: 0.6,   // middle pitch above which lift-front stops folding the rear (rad)
  maxClimbPitch: 1.4,  // middle pitch above which climb-middle stops pressing with the rear (rad)
  pressFold: 0.5,      // front fold target below level in climb-middle (rad)
  overEdgeFold: 0.2,   // front fold target below level once the middle is over the edge (rad)
  climbPitch: 1.0,     // middle pitch the rear fold holds in climb-middle (rad)
  pitchGain: 2.0,      // rear fold step per radian of pitch error per update (-)
  raisedHeight: 0.06,  // a wheel this far above the ground (below the top) is up (down) (m)
  wallNormal: 0.5,     // a contact normal pointing back by more than this is the face (-)
  topNormal: 0.8,      // a contact normal with z above this is a top surface (-)
  crestPitch: 1.5708,  // lift-rear: middle pitch the rear fold holds until the tip (rad)
  crestHeight: 0.02,   // the middle tips once its wheels are this close to the top height (m) ...
  tipRearPitch: 0.5,   // ... and the rear wheels press on the face, or the rear is flatter (rad)
  tipRate: 0.3,        // rate at which the rear fold tips the middle forward (rad/s)
  edgeSpeed: 1.0,      // front and middle wheel speed while the middle's box is below the top (rad/s)
  boxMargin: 0.003,    // front and middle wheels stop when the middle's box is this close to the step (m)
  tailClearance: 0.02, // the middle's box counts as above the top this far above it (m)
  phaseTimeout: 10.0,  // a phase longer than this starts a recovery (s)
  recoverTime: 3.0,    // duration of the back-off (s)
  maxRetries: 2,       // recoveries; after them a phase goes on without a time limit
};

// The middle section's body box in its frame: (x, z) corners (m).
const MIDDLE_CORNERS = [[-0.25, -0.05], [0.25, -0.05], [-0.25, 0.15], [0.25, 0.15]];

const GROUPS = ['front', 'middle', 'rear'];
const SIDES = ['left', 'right'];
const ENDS = ['front', 'rear'];

const both = (w) => w[0] && w[1];
const any = (w) => w[0] || w[1];
const mean = (w) => 0.5 * (w[0] + w[1]);
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
const approach = (from, to, step) => from + clamp(to - from, -step, step);

// Lowest point of the middle's box below the middle axle when pitched nose-up by `pitch` (m, positive below).
function boxDrop(pitch) {
  let drop = -Infinity;
  for (const [x, z] of MIDDLE_CORNERS) drop = Math.max(drop, -(x * Math.sin(pitch) + z * Math.cos(pitch)));
  return drop;
}

// Clearance (m, negative: overlap) between the middle's box, its axle at (x, z)
// along the heading and pitched by `pitch`, and the quarter plane beyond the
// face and below the top: a separating-axis test over both shapes' edge normals.
const AXES = [1, 0, 0, 1, 0, 0, 0, 0];  // (x, z) of the four axes; the last two set per call
function middleClearance(x, z, pitch, faceX, top) {
  const c = Math.cos(pitch), s = Math.sin(pitch);
  AXES[4] = c, AXES[5] = s, AXES[6] = -s, AXES[7] = c;
  let clearance = -Infinity;
  for (let i = 0; i < 8; i += 2) {
    for (let sign = 1; sign >= -1; sign -= 2) {
      const ax = sign * AXES[i], az = sign * AXES[i + 1];
      if (ax > 1e-12 || az < -1e-12) continue;  // the quarter plane reaches infinity along +x and −z
      let low = Infinity;
      for (const [bx, bz] of MIDDLE_CORNERS) {
        low = Math.min(low, ax * (x + bx * c - bz * s) + az * (z + bx * s + bz * c));
      }
      clearance = Math.max(clearance, low - (ax * faceX + az * top));
    }
  }
  return clearance;
}

export default {
  period: P.period,

  init(model) {
    const wheelNames = new Set(model.wheels.map((w) => w.name));
    this.wheels = GROUPS.map((g) => SIDES.map((s) => `wheel_${g}_${s}`));
    const joint = (name) => model.joints.find((j) => j.name === name);
    const missing = [...this.wheels.flat().filter((n) => !wheelNames.has(n)),
      ...ENDS.flatMap((e) => [`fold_${e}`, `extend_${e}`]).filter((n) => !joint(n))];
    if (missing.length > 0) throw new Error(`this program drives articulated6 (missing ${missing.join(', ')})`);
    this.radius = model.wheels.find((w) => w.name === 'wheel_middle_left').radius_m;
    this.maxFold = joint('fold_front').upper;
    this.maxExtension = joint('extend_front').upper;
    this.maxSpeed = model.max_wheel_speed_rad_s;
    this.phase = APPROACH;
    this.phaseStart = 0;
    this.groundZ = 0;
    this.topZ = 0;
    this.faceX = Infinity;
    this.retries = 0;
    this.tipping = false;
    this.command = { speed: [0, 0, 0], fold: [0, 0], extend: [0, 0] };
    this.started = false;
    // The sensors, the goal and the command returned are filled in place at each
    // update, leaving next to nothing to the garbage collector: its pauses would
    // count against an update's 50 ms budget.
    const pairs = (v) => [[v, v], [v, v], [v, v]];
    this.s = {
      time: 0, roll: 0, pitch: [0, 0, 0], fold: [0, 0], extend: [0, 0], middleX: 0, middleZ: 0,
      wheelZ: pairs(0), wall: pairs(false), top: pairs(false), contact: pairs(false), faceAt: pairs(0),
    };
    this.g = { speed: [0, 0, 0], fold: [0, 0], extend: [0, 0] };
    this.out = {
      actuators: Object.fromEntries(this.wheels.flat().map((name) => [name, 0])),
      joints: { fold_front: 0, extend_front: 0, fold_rear: 0, extend_rear: 0 },
      plot: { phase: APPROACH },
    };
  },

  // What the C++ controller's ClimbSensors hold, from the observation (into this.s, reused).
  sense(obs) {
    const s = this.s;
    const L = obs.wheels.wheel_middle_left, R = obs.wheels.wheel_middle_right;
    const dx = L.x_m - R.x_m, dy = L.y_m - R.y_m, n = Math.hypot(dx, dy);
    const hx = dy / n, hy = -dx / n;  // the heading: the middle's lateral axis turned a quarter right
    s.time = obs.time_s;
    s.roll = obs.base.roll_rad;
    s.pitch[FRONT] = obs.sections.section_front.pitch_rad;
    s.pitch[MIDDLE] = obs.base.pitch_rad;
    s.pitch[REAR] = obs.sections.section_rear.pitch_rad;
    s.fold[0] = obs.joints.fold_front.position_rad;
    s.fold[1] = obs.joints.fold_rear.position_rad;
    s.extend[0] = obs.joints.section_front.position_m;
    s.extend[1] = obs.joints.section_rear.position_m;
    s.middleX = obs.base.x_m * hx + obs.base.y_m * hy;
    s.middleZ = obs.base.z_m;
    for (let g = 0; g < 3; ++g) {
      for (let k = 0; k < 2; ++k) {
        const w = obs.wheels[this.wheels[g][k]];
        s.wheelZ[g][k] = w.z_m;
        s.contact[g][k] = w.contacts > 0;
        s.wall[g][k] = s.top[g][k] = false;
        s.faceAt[g][k] = 0;
        for (const t of w.touches) {
          if (t.nx * hx + t.ny * hy < -P.wallNormal) {
            const at = t.x_m * hx + t.y_m * hy;
            s.faceAt[g][k] = s.wall[g][k] ? Math.min(s.faceAt[g][k], at) : at;
            s.wall[g][k] = true;
          }
          if (t.nz > P.topNormal) s.top[g][k] = true;
        }
      }
    }
    return s;
  },

  enter(phase, time) {
    this.phase = phase;
    this.phaseStart = time;
    this.tipping = false;
    console.log(`phase ${PHASES[phase]}`);
  },

  // True while the middle's box stays boxMargin clear of the step (always before the face and the top are known).
  boxClear(s) {
    if (this.faceX === Infinity || this.topZ <= 0) return true;
    return middleClearance(s.middleX, s.middleZ, s.pitch[MIDDLE], this.faceX, this.topZ - this.radius) > P.boxMargin;
  },

  // True while the middle's box hangs lower than tailClearance above the top.
  boxBelowTop(s) {
    return s.middleZ - boxDrop(s.pitch[MIDDLE]) < this.topZ - this.radius + P.tailClearance;
  },

  // The phase transitions: what the wheels touch decides when a phase is over.
  transition(s) {
    switch (this.phase) {
      case APPROACH:
        for (let g = 0; g < 3; ++g)
          for (let k = 0; k < 2; ++k) if (s.wall[g][k]) this.faceX = Math.min(this.faceX, s.faceAt[g][k]);
        if (both(s.contact[MIDDLE]) && !any(s.wall[MIDDLE])) this.groundZ = mean(s.wheelZ[MIDDLE]);
        if (any(s.wall[FRONT]) || any(s.wall[MIDDLE])) this.enter(LIFT_FRONT, s.time);
        break;
      case LIFT_FRONT:
        if (both(s.top[FRONT]) && mean(s.wheelZ[FRONT]) > this.groundZ + P.raisedHeight) {
          this.topZ = mean(s.wheelZ[FRONT]);
          this.enter(CLIMB_MIDDLE, s.time);
        }
        break;
      case CLIMB_MIDDLE:
        // The front wheels first stand on the top at its edge; further on they give its height.
        if (both(s.top[FRONT])) this.topZ = Math.max(this.topZ, mean(s.wheelZ[FRONT]));
        if (both(s.top[MIDDLE]) && mean(s.wheelZ[MIDDLE]) > this.topZ - P.raisedHeight) this.enter(LIFT_REAR, s.time);
        break;
      case LIFT_REAR:
        // The middle stands at the crest and the rear wheels press on the face (or lie too flat to push more).
        if (mean(s.wheelZ[MIDDLE]) > this.topZ - P.crestHeight && (any(s.wall[REAR]) || s.pitch[REAR] < P.tipRearPitch)) {
          this.tipping = true;
        }
        // Upright: a robot gone over backwards may also end with its wheels up there.
        if (both(s.top[REAR]) && mean(s.wheelZ[REAR]) > this.topZ - P.raisedHeight && Math.abs(s.roll) < 0.5 * Math.PI) {
          this.enter(DONE, s.time);
        }
        break;
      case RECOVER:
        if (s.time - this.phaseStart > P.recoverTime) this.enter(APPROACH, s.time);
        return;
      case DONE:
        return;
    }
    // A phase that makes no progress: back off and start again, a limited number of times.
    if (s.time - this.phaseStart > P.phaseTimeout && this.retries < P.maxRetries) {
      this.retries += 1;
      this.enter(RECOVER, s.time);
    }
  },

  // The targets one phase wants, before rate limiting.
  goal(s) {
    const g = this.g;
    g.speed.fill(0), g.fold.fill(0), g.extend.fill(0);
    const c = this.command;
    const extended = this.maxExtension;
    switch (this.phase) {
      case APPROACH:
        g.speed.fill(P.driveSpeed);
        g.extend[0] = g.extend[1] = extended;
        break;
      case LIFT_FRONT: {
        // Feel for the edge: raise the front while its wheels press on the face; once
        // they are free above it, lower it so that they reach over the top.
        const folded = c.fold[FRONT];
        const raised = mean(s.wheelZ[FRONT]) > this.groundZ + P.raisedHeight;
        if (any(s.wall[FRONT]) || (!any(s.contact[FRONT]) && !raised)) g.fold[FRONT] = P.liftFold;
        else if (!any(s.contact[FRONT])) g.fold[FRONT] = 0;
        else g.fold[FRONT] = folded;
        // With the front raised, the rear fold tips the middle nose-up to lift it further.
        g.fold[REAR_END] = folded > 0.8 * P.liftFold && s.pitch[MIDDLE] < P.maxLiftPitch ? P.pitchUpFold : c.fold[REAR_END];
        g.extend[0] = g.extend[1] = extended;
        g.speed[FRONT] = P.pushSpeed;
        // The middle must not climb the face before the front is on top.
        const follow = any(s.wall[MIDDLE]) ? 0 : P.pushSpeed;
        g.speed[MIDDLE] = g.speed[REAR] = follow;
        break;
      }
      case CLIMB_MIDDLE:
        g.extend[0] = g.extend[1] = extended;
        g.speed.fill(P.pushSpeed);
        if (mean(s.wheelZ[MIDDLE]) < this.topZ - this.radius) {
          // The front section leans down onto the top like a leg: its fold drive pushes the
          // middle up the face. The rear fold holds the middle's pitch near climbPitch; the
          // middle waits while the front is off the top, the rear stops past maxClimbPitch.
          g.fold[FRONT] = -s.pitch[MIDDLE] - P.pressFold;
          g.fold[REAR_END] = c.fold[REAR_END] + P.pitchGain * (P.climbPitch - s.pitch[MIDDLE]);
          if (!any(s.contact[FRONT])) g.speed[MIDDLE] = g.speed[REAR] = 0;
          if (s.pitch[MIDDLE] > P.maxClimbPitch) g.speed[REAR] = 0;
        } else {
          // Over the edge: the front leans on the top a little less, the rear follows as it hangs,
          // and the front and middle wheels stop before the middle's box runs into the step.
          g.fold[FRONT] = -s.pitch[MIDDLE] - P.overEdgeFold;
          g.fold[REAR_END] = s.fold[REAR_END];
          if (!this.boxClear(s)) g.speed[FRONT] = g.speed[MIDDLE] = 0;
        }
        break;
      case LIFT_REAR:
        g.fold[FRONT] = -s.pitch[MIDDLE];
        g.extend[0] = extended;
        g.extend[REAR_END] = c.extend[REAR_END];
        g.speed.fill(P.pushSpeed);
        // The mirror of lift-front: raise the rear while its wheels press on the face,
        // straighten it once they are free, let it follow the ground otherwise.
        if (any(s.wall[REAR])) g.fold[REAR_END] = P.liftFold;
        else if (!any(s.contact[REAR])) g.fold[REAR_END] = 0;
        else g.fold[REAR_END] = s.fold[REAR_END];
        // While the middle's box hangs below the top, the rear fold first holds the middle
        // upright (crestPitch), then tips it forward over its wheels (tipRate), pressing the
        // rear wheels into the face so that they climb it; the front and middle wheels roll
        // slowly, and only while the box stays clear of the step.
        if (this.boxBelowTop(s)) {
          const clear = this.boxClear(s);
          g.speed[FRONT] = g.speed[MIDDLE] = clear ? P.edgeSpeed : 0;
          g.fold[REAR_END] = this.tipping
            ? c.fold[REAR_END] - P.tipRate * P.period
            : c.fold[REAR_END] + P.pitchGain * (P.crestPitch - s.pitch[MIDDLE]);
        }
        break;
      case DONE:
        break;
      case RECOVER:
        g.speed.fill(-P.pushSpeed);
        g.fold[FRONT] = P.liftFold;
        break;
    }
    return g;
  },

  update(obs) {
    const s = this.sense(obs);
    const c = this.command;
    if (!this.started) {
      // Start from the robot's current configuration, not from a jump of the drives.
      this.started = true;
      c.fold[0] = s.fold[0], c.fold[1] = s.fold[1];
      c.extend[0] = s.extend[0], c.extend[1] = s.extend[1];
      this.groundZ = mean(s.wheelZ[MIDDLE]);
    }
    this.transition(s);
    const g = this.goal(s);
    for (let k = 0; k < 3; ++k) c.speed[k] = clamp(g.speed[k], -this.maxSpeed, this.maxSpeed);
    for (let e = 0; e < 2; ++e) {
      c.fold[e] = approach(c.fold[e], clamp(g.fold[e], -this.maxFold, this.maxFold), P.foldRate * P.period);
      c.extend[e] = approach(c.extend[e], clamp(g.extend[e], 0, this.maxExtension), P.extendRate * P.period);
    }
    const out = this.out;
    for (let k = 0; k < 3; ++k) out.actuators[this.wheels[k][0]] = out.actuators[this.wheels[k][1]] = c.speed[k];
    out.joints.fold_front = c.fold[0];
    out.joints.extend_front = c.extend[0];
    out.joints.fold_rear = c.fold[1];
    out.joints.extend_rear = c.extend[1];
    out.plot.phase = this.phase;
    return out;
  },
};
