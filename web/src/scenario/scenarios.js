// The scenarios shipped in terrains/ (bundled at build time) and the edits the
// app makes to a scenario: switching the robot (a preset or a description),
// setting a preset parameter, a ground material property or a simulation
// setting.
import { basedOn } from './based_on.js';

export const DEFAULT_ID = 'climb-articulated6';

const files = import.meta.glob('../../../terrains/*.json', { query: '?raw', import: 'default', eager: true });

/** [{ id, name, text }], sorted by id; the default first. */
export const scenarios = Object.entries(files)
  .map(([path, text]) => ({ id: path.split('/').pop().replace(/\.json$/, ''), name: JSON.parse(text).name, text }))
  .sort((a, b) => (a.id === DEFAULT_ID ? -1 : b.id === DEFAULT_ID ? 1 : a.id.localeCompare(b.id)));

/** The default scenario, parsed anew (a fresh object for each caller). */
export const defaultScenario = () => JSON.parse(scenarios.find((s) => s.id === DEFAULT_ID).text);

const clone = (x) => structuredClone(x);

/** The same scenario with another robot preset (its parameters at their defaults, placed on the
 * ground); its name and description say so, and what it is based on. */
export function withPreset(scenario, preset) {
  return withRobot(scenario, { preset }, preset, 'its parameters at their defaults');
}

/**
 * The same scenario with another robot, `source` being its robot fields
 * ({ preset } or { model }: a description, docs/robot-format.md), named `name`,
 * placed on the ground where the robot stood; `what` says in the description
 * what the robot is. A named controller is kept only for the same preset (it
 * was made for that robot); joint targets and scripts name the old robot's
 * joints, so they go.
 */
export function withRobot(scenario, source, name, what) {
  const s = clone(scenario);
  const base = basedOn(scenario.name);
  const controller = s.control?.controller;
  const dropped = controller && !(source.preset && scenario.robot?.preset === source.preset) ? controller : null;
  if (dropped) delete s.control.controller;
  const made = scenario.robot?.preset ?? scenario.robot?.model?.name ?? 'another robot';
  s.name = `${name} on “${base}”`;
  s.description =
    `Based on “${base}”: the ${name} robot, ${what}, on that scenario's terrain, ` +
    `with its ${dropped ? `simulation settings (without its ${dropped} controller, made for ${made}: drive it with the keys)` : 'control and simulation settings'}.`;
  const position = s.robot?.pose?.position ?? [0, 0];
  s.robot = { ...source, pose: { position: position.slice(0, 2), yaw: s.robot?.pose?.yaw ?? 0 } };
  if (s.control) {
    delete s.control.joints;
    delete s.control.script;
  }
  return s;
}

/** The scenario's robot's name: its preset's, or its description's. */
export const robotName = (scenario) => scenario.robot?.preset ?? scenario.robot?.model?.name ?? 'robot';

export function withParam(scenario, name, value) {
  const s = clone(scenario);
  s.robot.params = { ...(s.robot.params ?? {}), [name]: value };
  return s;
}

/** Sets a property of every ground material (they all change together in the panel). */
export function withMaterial(scenario, key, value) {
  const s = clone(scenario);
  s.terrain.materials = s.terrain.materials ?? {};
  if (!Object.keys(s.terrain.materials).length) s.terrain.materials.default = {};
  for (const m of Object.values(s.terrain.materials)) m[key] = value;
  return s;
}

export function withSimulation(scenario, key, value) {
  const s = clone(scenario);
  s.simulation = { ...(s.simulation ?? {}), [key]: value };
  return s;
}

/** The material values shown in the panel: the first material's, or the defaults (asphalt). */
export function materialOf(scenario) {
  const first = Object.values(scenario.terrain?.materials ?? {})[0] ?? {};
  return { phi_max: 0.8, s0: 0.1, s1: 0.5, rolling: 0.018, ...first };
}
