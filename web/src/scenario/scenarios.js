// The scenarios shipped in terrains/ and the edits the app makes to a
// scenario: switching the robot (a preset or a description), setting a preset
// parameter, a ground material property or a simulation setting. The page
// carries each file's name (and its control block, for the programs that come
// with the app) and the default scenario's text; another file's text is
// fetched the first time it is opened (a chunk of its own: the largest are
// hundreds of kB).
import { basedOn } from './based_on.js';
import defaultText from '../../../terrains/climb-articulated6.json?raw';

export const DEFAULT_ID = 'climb-articulated6';

const names = import.meta.glob('../../../terrains/*.json', { import: 'name', eager: true });
const controls = import.meta.glob('../../../terrains/*.json', { import: 'control', eager: true });
// The default's text is bundled (above and in the pattern below its file is named in full: the
// import and the glob take literals).
const defaultPath = `../../../terrains/${DEFAULT_ID}.json`;
const texts = {
  ...import.meta.glob(['../../../terrains/*.json', '!../../../terrains/climb-articulated6.json'], { query: '?raw', import: 'default' }),
  [defaultPath]: async () => defaultText,
};
const idOf = (path) => path.split('/').pop().replace(/\.json$/, '');

/**
 * [{ id, name, control, text, load }], sorted by id; the default first. text: the file's text once
 * loaded (null before); load(): resolves to it, fetching it the first time.
 */
export const scenarios = Object.entries(texts)
  .map(([path, fetchText]) => {
    const file = { id: idOf(path), name: names[path], control: controls[path], text: path === defaultPath ? defaultText : null };
    file.load = async () => (file.text ??= await fetchText());
    return file;
  })
  .sort((a, b) => (a.id === DEFAULT_ID ? -1 : b.id === DEFAULT_ID ? 1 : a.id.localeCompare(b.id)));

/** The file of terrains/ with this id, or undefined. */
export const scenarioFile = (id) => scenarios.find((s) => s.id === id);

/** The default scenario, parsed anew (a fresh object for each caller). */
export const defaultScenario = () => JSON.parse(defaultText);

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
