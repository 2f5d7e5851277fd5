// The Robot tab's data (web/src/panels/robot_tree.js) on robots the WASM core
// describes: rocker8's and articulated6's descriptions as the worker's model
// gives them (World.model().robotDescription), and the Leo rover read from its
// URDF by the core's importRobot (fixed joints and a mimic joint). The trees
// are checked against the descriptions, the live columns against the joints'
// values the core reports while it steps, and the tab's scenario edits by
// building them in the core: accepted ones change the robot, refused ones come
// back as issues at the paths the tab marks.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';

import {
  axisText,
  driveUnits,
  issueAt,
  jointTarget,
  liveColumn,
  modelPaths,
  modelValue,
  robotTree,
  sliderRange,
  sourceText,
  treeNodes,
  withJointTarget,
  withModelValue,
  withOwnDescription,
} from '../../web/src/panels/robot_tree.js';
import { loadWasmCore, root } from './support.mjs';

let core;
beforeAll(async () => {
  core = await loadWasmCore();
});

const scenarioFile = (id) => JSON.parse(readFileSync(path.join(root, 'terrains', `${id}.json`), 'utf8'));

/** The World of a scenario object, built by the core (its issues when it refuses it). */
function build(scenario) {
  const world = new core.World(JSON.stringify(scenario));
  return { world, ok: world.ok(), issues: world.ok() ? [] : world.issues() };
}

/** The value of telemetry column `column` in the world's current frame. */
const columnValue = (world, model, column) => world.frame()[model.layout.row + column];

/** The Leo rover's description, read from its URDF and STL meshes by the core. */
function leoRover() {
  const dir = path.join(root, 'tests/data/robots/leo_rover');
  const files = Object.fromEntries(readdirSync(path.join(dir, 'meshes')).map((n) => [`meshes/${n}`, new Uint8Array(readFileSync(path.join(dir, 'meshes', n)))]));
  const read = core.importRobot(readFileSync(path.join(dir, 'leo_rover.urdf'), 'utf8'), files);
  expect(read.ok).toBe(true);
  return read.model;
}

describe('rocker8 as the worker describes it', () => {
  test('its tree: the base, four rockers on revolute joints about y, two wheels under each', () => {
    const { world, ok } = build(scenarioFile('flat-rocker8'));
    expect(ok).toBe(true);
    const model = world.model();
    expect(model.source).toBe('preset');
    expect(sourceText(model)).toBe('the preset rocker8');
    const d = model.robotDescription;
    const tree = robotTree(d, model.columns);
    expect(tree.name).toBe('rocker8');
    expect(tree.wheelCount).toBe(8);
    expect(tree.linkCount).toBe(d.links.length);
    // The total mass is the model's (the core sums its bodies; no link is merged away here).
    expect(tree.mass).toBeCloseTo(model.mass, 9);
    expect(tree.root.link.name).toBe('base');
    expect(tree.root.joint).toBe(null);
    expect(tree.root.children.map((n) => n.link.name)).toEqual(['rocker_1', 'rocker_2', 'rocker_3', 'rocker_4']);
    // Every link once, under the parent its joint names.
    const nodes = treeNodes(tree);
    expect(nodes.map((n) => n.link.name).sort()).toEqual(d.links.map((l) => l.name).sort());
    for (const n of nodes.slice(1)) expect(d.joints[n.joint.index].child).toBe(n.link.name);
    for (const rocker of tree.root.children) {
      expect(rocker.joint).toMatchObject({ type: 'revolute', unit: 'rad', limit: { lower: -0.7, upper: 0.7 }, mimic: null });
      expect(axisText(rocker.joint.axis)).toBe('y');
      expect(rocker.wheel).toBe(null);
      expect(rocker.live).toEqual({ column: model.columns.indexOf(`${rocker.link.name}_rad`), quantity: 'position', unit: 'rad' });
      expect(rocker.live.column).toBeGreaterThan(0);
      expect(rocker.children).toHaveLength(2);
      for (const wheel of rocker.children) {
        expect(wheel.joint).toMatchObject({ type: 'continuous', limit: null });
        expect(wheel.wheel).toMatchObject({ radius: 0.25, width: 0.2 });
        expect(wheel.live).toMatchObject({ quantity: 'speed', unit: 'rad/s', column: model.columns.indexOf(`${wheel.link.name}_speed_rad_s`) });
        expect(wheel.drives).toEqual([
          { index: d.actuators.findIndex((a) => a.joint === wheel.joint.name), name: wheel.joint.name, mode: 'speed', gain: 300, limit: 150, gearRatio: 1, units: { gain: 'N·m·s/rad', limit: 'N·m' } },
        ]);
      }
    }
    // rocker8 has no named joint drives: the tab has no slider for it.
    expect(model.joints).toEqual([]);
  });

  test('as its own description: a wheel radius changed runs with that radius; a negative mass comes back at its field', () => {
    const scenario = scenarioFile('flat-rocker8');
    const { world } = build(scenario);
    const own = withOwnDescription(scenario, world.model().robotDescription);
    expect(own.robot.preset).toBeUndefined();
    expect(own.robot.pose).toEqual(scenario.robot.pose);
    expect(own.control).toEqual(scenario.control);
    const ownBuilt = build(own);
    expect(ownBuilt.ok).toBe(true);
    expect(ownBuilt.world.model().source).toBe('model');
    expect(sourceText(ownBuilt.world.model())).toBe('its own description (robot.model)');

    const wider = withModelValue(own, modelPaths.radius(0), 0.3);
    expect(modelValue(wider.robot.model, modelPaths.radius(0))).toBe(0.3);
    expect(own.robot.model.wheels[0].radius).toBe(0.25);  // the scenario edited is not changed
    const built = build(wider);
    expect(built.ok).toBe(true);
    expect(built.world.model().wheels[0].radius).toBe(0.3);
    expect(built.world.model().wheels[1].radius).toBe(0.25);

    const rocker = own.robot.model.links.findIndex((l) => l.name === 'rocker_1');
    const refused = build(withModelValue(own, modelPaths.mass(rocker), -1));
    expect(refused.ok).toBe(false);
    const issue = issueAt(refused.issues, `robot.model.${modelPaths.mass(rocker)}`);
    expect(issue?.message).toMatch(/kg, got -1/);
    expect(issueAt(refused.issues, `robot.model.${modelPaths.mass(0)}`)).toBe(null);
    expect(issueAt(refused.issues, `robot.model.${modelPaths.radius(0)}`)).toBe(null);

    const actuator = own.robot.model.actuators.findIndex((a) => a.name === 'wheel_1');
    const gain = withModelValue(own, modelPaths.gain(actuator), 400);
    expect(gain.robot.model.actuators[actuator].gain).toBe(400);
    expect(build(withModelValue(gain, modelPaths.limit(actuator), 200)).ok).toBe(true);
    expect(() => withModelValue(own, 'links[99].mass', 1)).toThrow(/not in this scenario's description/);
    expect(() => withModelValue(scenario, modelPaths.mass(0), 1)).toThrow();  // a preset has no robot.model
  });
});

describe('articulated6: named joint drives', () => {
  test('its drives: position servos on the folds (N·m/rad) and the extensions (N/m), with their sliders', () => {
    const { world } = build(scenarioFile('step-articulated6'));
    const model = world.model();
    const tree = robotTree(model.robotDescription, model.columns);
    const byJoint = Object.fromEntries(treeNodes(tree).filter((n) => n.joint).map((n) => [n.joint.name, n]));
    expect(byJoint.fold_front.joint).toMatchObject({ type: 'revolute', limit: { lower: -Math.PI / 2, upper: Math.PI / 2 } });
    expect(axisText(byJoint.fold_front.joint.axis)).toBe('-y');
    expect(byJoint.fold_front.drives).toMatchObject([{ name: 'fold_front', mode: 'position', gain: 5000, limit: 800, units: { gain: 'N·m/rad', limit: 'N·m' } }]);
    expect(byJoint.section_front.joint).toMatchObject({ type: 'prismatic', unit: 'm', limit: { lower: 0, upper: 0.18 } });
    expect(axisText(byJoint.section_front.joint.axis)).toBe('x');
    expect(byJoint.section_front.drives).toMatchObject([{ name: 'extend_front', mode: 'position', units: { gain: 'N/m', limit: 'N' } }]);
    expect(byJoint.section_front.live).toEqual({ column: model.columns.indexOf('section_front_m'), quantity: 'position', unit: 'm' });
    // The section hangs on the fold: base → fold_front → section_front → its wheels.
    expect(byJoint.fold_front.children.map((n) => n.joint.name)).toEqual(['section_front']);
    expect(byJoint.section_front.children.map((n) => n.joint.name)).toEqual(['wheel_front_left', 'wheel_front_right']);

    const names = model.joints.map((j) => j.name).sort();
    expect(names).toEqual(['extend_front', 'extend_rear', 'fold_front', 'fold_rear']);
    const extend = model.joints.find((j) => j.name === 'extend_front');
    expect(sliderRange(extend)).toEqual({ min: 0, max: 0.18, step: 0.18 / 200 });
    expect(sliderRange({ name: 'free', prismatic: false })).toEqual({ min: -Math.PI, max: Math.PI, step: Math.PI / 100 });
  });

  test('a target set by the slider edit is where the core drives the joint, read from its live column', () => {
    const scenario = scenarioFile('step-articulated6');
    expect(jointTarget(scenario, 'fold_front')).toBe(0);
    const posed = withJointTarget(withJointTarget(scenario, 'fold_front', 0.6), 'extend_front', 0.1);
    expect(posed.control).toEqual({ ...scenario.control, joints: { fold_front: 0.6, extend_front: 0.1 } });
    expect(scenario.control.joints).toBeUndefined();  // the scenario edited is not changed
    expect(jointTarget(posed, 'fold_front')).toBe(0.6);
    const { world, ok } = build(posed);
    expect(ok).toBe(true);
    const model = world.model();
    const byJoint = Object.fromEntries(treeNodes(robotTree(model.robotDescription, model.columns)).filter((n) => n.joint).map((n) => [n.joint.name, n]));
    world.step(Math.round(0.5 / model.dt));
    // The servos hold the targets against the sections' weight: the fold (5000 N·m/rad) sags by
    // at most ~0.05 rad under a section's ~150 N·m, the extension (20 000 N/m) by well under 1 cm.
    expect(columnValue(world, model, byJoint.fold_front.live.column)).toBeCloseTo(0.6, 1);
    expect(Math.abs(columnValue(world, model, byJoint.section_front.live.column) - 0.1)).toBeLessThan(0.01);
    expect(columnValue(world, model, byJoint.fold_rear.live.column)).toBeCloseTo(0, 1);
    // An unknown drive comes back at the path the slider's row takes.
    const refused = build(withJointTarget(scenario, 'no_such_drive', 0.1));
    expect(issueAt(refused.issues, 'control.joints.no_such_drive')?.message).toMatch(/unknown joint drive/);
  });
});

describe('the Leo rover from its URDF', () => {
  test('fixed joints in the tree, the right rocker following the left one, torque drives without a gain', () => {
    const leo = leoRover();
    const tree = robotTree(leo);
    expect(tree.root.link.name).toBe('base_footprint');
    expect(tree.wheelCount).toBe(4);
    const [body] = tree.root.children;
    expect(body.link.name).toBe('base_link');
    expect(body.joint).toMatchObject({ name: 'base_joint', type: 'fixed', limit: null });
    const rockers = body.children.filter((n) => n.joint.type === 'revolute');
    expect(rockers.map((n) => n.joint.name)).toEqual(['rocker_L_joint', 'rocker_R_joint']);
    expect(rockers[0].joint.mimic).toBe(null);
    expect(rockers[1].joint.mimic).toEqual({ joint: 'rocker_L_joint', multiplier: 1, offset: 0 });
    expect(rockers[1].drives).toMatchObject([{ mode: 'torque', units: { gain: null, limit: 'N·m' } }]);
    expect(rockers[0].children.map((n) => n.link.name)).toEqual(['wheel_FL_link', 'wheel_RL_link']);
    expect(treeNodes(tree)).toHaveLength(leo.links.length);
    // Without the model's columns no joint has a live value.
    expect(treeNodes(tree).filter((n) => n.live)).toEqual([]);
  });

  test('on the slope its rockers turn, the follower by the mimic law, both read from their live columns', () => {
    const scenario = withOwnDescription(scenarioFile('slope-rocker8'), leoRover());
    const { world, ok } = build(scenario);
    expect(ok).toBe(true);
    const model = world.model();
    const [left, right] = treeNodes(robotTree(model.robotDescription, model.columns)).filter((n) => n.joint?.type === 'revolute');
    expect(model.columns[left.live.column]).toBe('rocker_L_link_rad');
    expect(model.columns[right.live.column]).toBe('rocker_R_link_rad');
    world.step(Math.round(1 / model.dt));
    const q = columnValue(world, model, left.live.column);
    expect(Math.abs(q)).toBeGreaterThan(0.01);  // the slope turns the rockers
    // The core holds the mimic exactly (docs/dynamics.md): equal to rounding.
    expect(columnValue(world, model, right.live.column)).toBeCloseTo(right.joint.mimic.multiplier * q + right.joint.mimic.offset, 9);
  });
});

test('the pieces in words: axes, units, live columns', () => {
  expect(axisText([0, 0, 2])).toBe('z');
  expect(axisText([-1, 0, 0])).toBe('-x');
  expect(axisText([0.6, 0.8, 0])).toBe('(0.6, 0.8, 0)');
  expect(driveUnits('speed', 'm')).toEqual({ gain: 'N·s/m', limit: 'N' });
  expect(driveUnits('torque', 'rad')).toEqual({ gain: null, limit: 'N·m' });
  expect(liveColumn({ type: 'fixed', child: 'a' }, false, ['a_rad'])).toBe(null);
  expect(liveColumn({ type: 'prismatic', child: 'a' }, false, ['t', 'a_m'])).toEqual({ column: 1, quantity: 'position', unit: 'm' });
  expect(sourceText({ source: 'file' }, { robot: { file: 'my_rover.urdf' } })).toBe('the file my_rover.urdf (robot.file)');
  expect(sourceText({ source: 'urdf' })).toBe('a URDF given inline (robot.urdf)');
});
