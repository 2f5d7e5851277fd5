// Keyboard driving: throttle and skid steering for every preset (steering
// only where the robot is 3-D), and a key pair per joint drive that nudges
// its target within the joint's range. Returns the help text to show, and
// the keys as on-screen buttons (touch_drive.js).
const JOINT_KEYS = [
  ['q', 'a'],
  ['w', 's'],
  ['e', 'd'],
  ['r', 'f'],
  ['t', 'g'],
  ['y', 'h'],
];

export class Driver {
  /** client: the simulation worker's client (sim_client.js); targets: the scenario's control.joints (the drives' targets at the start). */
  constructor(model, client, targets = {}) {
    this.model = model;
    this.client = client;
    this.keys = new Set();
    this.targets = Object.fromEntries(model.joints.map((j) => [j.name, Number.isFinite(targets[j.name]) ? targets[j.name] : 0]));
    this.manual = false;
    this.speed = Math.min(model.maxWheelSpeed, 5);
  }

  help() {
    const lines = ['↑ / ↓  drive forward / back' + (this.model.planar ? '' : ',  ← / →  skid steer')];
    this.model.joints.forEach((j, i) => {
      const [up, down] = JOINT_KEYS[i] ?? [];
      if (up) lines.push(`${up.toUpperCase()} / ${down.toUpperCase()}  ${j.name} + / −`);
    });
    lines.push('Space play/pause · . step · Backspace reset');
    return lines.join('\n');
  }

  /** The driving keys as buttons: the arrows (the steering ones only where the
   * robot steers) and each joint's pair, { key, label, title }. */
  buttons() {
    const arrows = [
      { key: 'ArrowUp', label: '▲', title: 'drive forward' },
      { key: 'ArrowDown', label: '▼', title: 'drive back' },
    ];
    if (!this.model.planar)
      arrows.push({ key: 'ArrowLeft', label: '◀', title: 'skid steer left' }, { key: 'ArrowRight', label: '▶', title: 'skid steer right' });
    const joints = this.model.joints.slice(0, JOINT_KEYS.length).map((j, i) => ({
      name: j.name,
      plus: { key: JOINT_KEYS[i][0], label: '+', title: `${j.name} + (${JOINT_KEYS[i][0].toUpperCase()})` },
      minus: { key: JOINT_KEYS[i][1], label: '−', title: `${j.name} − (${JOINT_KEYS[i][1].toUpperCase()})` },
    }));
    return { arrows, joints };
  }

  /** Handles a key; returns true when it was a driving or joint key. */
  key(event, down) {
    const k = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'].includes(k)) {
      if (down) this.keys.add(k);
      else this.keys.delete(k);
      this.manual = true;
      this.sendWheels();
      return true;
    }
    const index = JOINT_KEYS.findIndex((pair) => pair.includes(k));
    const joint = this.model.joints[index];
    if (!joint || !down) return Boolean(joint);
    const step = joint.prismatic ? 0.02 : 0.1;
    const sign = JOINT_KEYS[index][0] === k ? 1 : -1;
    const lower = joint.lower ?? -Infinity;
    const upper = joint.upper ?? Infinity;
    this.targets[joint.name] = Math.min(upper, Math.max(lower, this.targets[joint.name] + sign * step));
    this.client.setJoint(joint.name, this.targets[joint.name]);
    return true;
  }

  sendWheels() {
    const throttle = (this.keys.has('ArrowUp') ? 1 : 0) - (this.keys.has('ArrowDown') ? 1 : 0);
    const steer = this.model.planar ? 0 : (this.keys.has('ArrowLeft') ? 1 : 0) - (this.keys.has('ArrowRight') ? 1 : 0);
    const v = this.speed;
    // Turning left: the left side slower (or backwards when standing).
    const left = throttle ? v * throttle * (steer > 0 ? 0.3 : 1) : -steer * v;
    const right = throttle ? v * throttle * (steer < 0 ? 0.3 : 1) : steer * v;
    this.client.setWheels(left, right);
  }
}
