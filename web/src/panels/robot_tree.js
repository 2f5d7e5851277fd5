// The Robot tab's data, without the page: a robot description
// (docs/robot-format.md) as a tree of links hanging on their joints, each
// joint with its range, drives, wheel and the telemetry column that gives its
// value while the run plays; the scenario edits the tab makes (a joint drive's
// initial target, a number of the scenario's own description, the robot on
// show as its own description); and where an issue of the core lands.

/** What a scenario's robot comes from, in words, by the model's `source`. */
export function sourceText(model, scenario) {
  if (model.source === 'preset') return `the preset ${model.preset}`;
  if (model.source === 'model') return 'its own description (robot.model)';
  if (model.source === 'file') return scenario?.robot?.file ? `the file ${scenario.robot.file} (robot.file)` : 'a file (robot.file)';
  return 'a URDF given inline (robot.urdf)';
}

/** The unit of a joint's value: 'm' for a prismatic joint, 'rad' for the others. */
export const jointUnit = (type) => (type === 'prismatic' ? 'm' : 'rad');

/** A drive's units by its mode and its joint's unit: { gain, limit } (gain null where the mode has none). */
export function driveUnits(mode, unit) {
  const prismatic = unit === 'm';
  const gain = mode === 'speed' ? (prismatic ? 'N·s/m' : 'N·m·s/rad') : mode === 'position' ? (prismatic ? 'N/m' : 'N·m/rad') : null;
  return { gain, limit: prismatic ? 'N' : 'N·m' };
}

/** An axis in words: 'x', '-y', … along a frame axis, else its components. */
export function axisText(axis = [1, 0, 0]) {
  const length = Math.hypot(...axis);
  for (let k = 0; k < 3; k++) {
    const others = axis.filter((_, i) => i !== k);
    if (others.every((v) => Math.abs(v) <= 1e-12 * length)) return `${axis[k] < 0 ? '-' : ''}${'xyz'[k]}`;
  }
  return `(${axis.map((v) => Number(v.toPrecision(4))).join(', ')})`;
}

/**
 * The telemetry column that gives a joint's value while the run plays (sim/telemetry.cpp):
 * `CHILD_rad` or `CHILD_m` for a moving joint, `CHILD_speed_rad_s` (the spin speed) for a
 * wheel's; null when the columns have none (a fixed joint, or a body whose name starts with
 * "base", which the telemetry leaves out). Returns { column (index), quantity, unit } or null.
 */
export function liveColumn(joint, isWheel, columns) {
  if (joint.type === 'fixed') return null;
  const [name, quantity, unit] = isWheel
    ? [`${joint.child}_speed_rad_s`, 'speed', 'rad/s']
    : [`${joint.child}_${jointUnit(joint.type)}`, 'position', jointUnit(joint.type)];
  const column = columns.indexOf(name);
  return column < 0 ? null : { column, quantity, unit };
}

/**
 * The description as a tree: { name, baseKind, mass (kg, all links), wheelCount, linkCount,
 * jointCount, root } where root and each node is
 *   { link: { index, name, mass (kg) },
 *     joint: null (the base) | { index, name, type, unit ('rad' | 'm'), axis, limit: { lower, upper } | null,
 *             mimic: { joint, multiplier, offset } | null, damping },
 *     wheel: null | { index, radius (m), width (m) },
 *     drives: [{ index, name, mode, gain, limit, gearRatio, units: { gain, limit } }],
 *     live: null | { column, quantity ('position' | 'speed'), unit },
 *     children: [node] },
 * children in the order of their joints. `columns`: the model's telemetry columns.
 */
export function robotTree(description, columns = []) {
  const links = description.links ?? [];
  const joints = description.joints ?? [];
  const wheels = description.wheels ?? [];
  const actuators = description.actuators ?? [];
  const node = (linkIndex, jointIndex) => {
    const link = links[linkIndex];
    const n = { link: { index: linkIndex, name: link.name, mass: link.mass }, joint: null, wheel: null, drives: [], live: null, children: [] };
    if (jointIndex !== null) {
      const j = joints[jointIndex];
      const unit = jointUnit(j.type);
      n.joint = {
        index: jointIndex,
        name: j.name,
        type: j.type,
        unit,
        axis: j.axis ?? [1, 0, 0],
        limit: j.limit && j.type !== 'continuous' && j.type !== 'fixed' ? { lower: j.limit.lower, upper: j.limit.upper } : null,
        mimic: j.mimic ? { joint: j.mimic.joint, multiplier: j.mimic.multiplier ?? 1, offset: j.mimic.offset ?? 0 } : null,
        damping: j.damping ?? 0,
      };
      const w = wheels.findIndex((wheel) => wheel.joint === j.name);
      if (w >= 0) n.wheel = { index: w, radius: wheels[w].radius, width: wheels[w].width };
      actuators.forEach((a, index) => {
        if (a.joint === j.name)
          n.drives.push({ index, name: a.name, mode: a.mode, gain: a.gain ?? 0, limit: a.limit, gearRatio: a.gear_ratio ?? 1, units: driveUnits(a.mode, unit) });
      });
      n.live = liveColumn(j, w >= 0, columns);
    }
    joints.forEach((j, k) => {
      if (j.parent === link.name) {
        const child = links.findIndex((l) => l.name === j.child);
        if (child >= 0) n.children.push(node(child, k));
      }
    });
    return n;
  };
  const baseIndex = links.findIndex((l) => l.name === description.base?.link);
  return {
    name: description.name,
    baseKind: description.base?.kind ?? 'free',
    mass: links.reduce((sum, l) => sum + (l.mass ?? 0), 0),
    wheelCount: wheels.length,
    linkCount: links.length,
    jointCount: joints.length,
    root: baseIndex < 0 ? null : node(baseIndex, null),
  };
}

/** Every node of the tree, parents before children. */
export function treeNodes(tree) {
  const out = [];
  const visit = (n) => {
    out.push(n);
    n.children.forEach(visit);
  };
  if (tree.root) visit(tree.root);
  return out;
}

/** A joint drive's slider: { min, max, step } in its unit, the joint's range when limited,
 * else ±π rad or ±1 m (a value typed beyond that is kept). */
export function sliderRange(drive) {
  const span = drive.prismatic ? 1 : Math.PI;
  const min = drive.lower ?? -span;
  const max = drive.upper ?? span;
  return { min, max, step: (max - min) / 200 || 0.001 };
}

/** The initial target of the joint drive `name` in the scenario (rad or m; 0, the core's, when not given). */
export const jointTarget = (scenario, name) => scenario?.control?.joints?.[name] ?? 0;

/** The scenario with the initial target of the joint drive `name` set to `value` (rad or m). */
export function withJointTarget(scenario, name, value) {
  const s = structuredClone(scenario);
  s.control = { ...(s.control ?? {}), joints: { ...(s.control?.joints ?? {}), [name]: value } };
  return s;
}

/** The numbers of a description the tab edits: each link's mass, each wheel's radius and width,
 * each actuator's gain (speed and position drives) and limit. Paths are relative to robot.model. */
export const modelPaths = {
  mass: (link) => `links[${link}].mass`,
  radius: (wheel) => `wheels[${wheel}].radius`,
  width: (wheel) => `wheels[${wheel}].width`,
  gain: (actuator) => `actuators[${actuator}].gain`,
  limit: (actuator) => `actuators[${actuator}].limit`,
};

const PATH = /^(links|wheels|actuators)\[(\d+)\]\.(mass|radius|width|gain|limit)$/;

/** The number at `path` (one of modelPaths') of a description, or undefined. */
export function modelValue(description, path) {
  const m = PATH.exec(path);
  return m ? description?.[m[1]]?.[Number(m[2])]?.[m[3]] : undefined;
}

/** The scenario with the number at `path` (one of modelPaths') of its robot.model set to `value`;
 * throws on a path outside the description. */
export function withModelValue(scenario, path, value) {
  const m = PATH.exec(path);
  const item = m && scenario.robot?.model?.[m[1]]?.[Number(m[2])];
  if (!item) throw new Error(`robot.model.${path} is not in this scenario's description`);
  const s = structuredClone(scenario);
  s.robot.model[m[1]][Number(m[2])][m[3]] = value;
  return s;
}

/** The scenario with its robot given as `description` (robot.model) in place of a preset, a file
 * or a URDF, standing where it stood; everything else is kept. */
export function withOwnDescription(scenario, description) {
  const s = structuredClone(scenario);
  const { pose } = s.robot ?? {};
  s.robot = { model: structuredClone(description), ...(pose ? { pose } : {}) };
  return s;
}

/** The issue at a field: its path in the scenario (e.g. 'robot.model.links[2].mass'), or one below it. */
export const issueAt = (issues, path) => (issues ?? []).find((i) => i.path === path || i.path.startsWith(`${path}.`)) ?? null;
