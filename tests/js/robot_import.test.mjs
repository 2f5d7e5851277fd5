// A URDF imported in the app: the WASM core's importRobot reads the URDF and
// the mesh files given to it (as the app's robot_import.js passes them) into
// the same description the command-line tool prints for the file on disk
// (`roverlab robot husky.urdf`); the description then runs as robot.model;
// what cannot be read is refused at its path, naming the file. The app's
// side (robotFiles) unpacks a .zip and refuses one that unpacks too large
// before inflating it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { beforeAll, describe, expect, test } from 'vitest';

import { robotFiles } from '../../web/src/import/robot_import.js';
import { root } from './support.mjs';

const cli = path.join(root, 'build/native/roverlab');
const modulePath = path.join(root, 'web/src/wasm/roverlab_core.js');
const robots = path.join(root, 'tests/data/robots');
let core;

beforeAll(async () => {
  for (const f of [modulePath, cli]) if (!existsSync(f)) throw new Error(`${f} is missing: run npm test to build it`);
  const { default: createRoverlabCore } = await import(modulePath);
  core = await createRoverlabCore();
});

/** A robot folder's files as the app passes them: { 'meshes/x.stl': Uint8Array }, the URDF's text. */
function folder(name) {
  const dir = path.join(robots, name);
  const files = {};
  for (const f of readdirSync(path.join(dir, 'meshes'))) files[`meshes/${f}`] = new Uint8Array(readFileSync(path.join(dir, 'meshes', f)));
  return { urdf: readFileSync(path.join(dir, `${name}.urdf`), 'utf8'), files };
}

describe('importRobot (WASM) reads a URDF with its meshes', () => {
  test.each(['husky', 'leo_rover'])('%s: the description the command-line tool prints for the file', (name) => {
    const { urdf, files } = folder(name);
    const read = core.importRobot(urdf, files);
    expect(read.ok, JSON.stringify(read.issues)).toBe(true);
    const printed = spawnSync(cli, ['robot', path.join(robots, name, `${name}.urdf`)], { encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(printed.status, printed.stderr).toBe(0);
    expect(read.model).toEqual(JSON.parse(printed.stdout));
    // Every warning names its line.
    for (const w of read.warnings) expect(w.message).toMatch(/^lines? \d+/);
    // The description runs inline as robot.model.
    const scenario = { ...JSON.parse(readFileSync(path.join(root, 'terrains/flat-rocker8.json'), 'utf8')), robot: { model: read.model, pose: { position: [0, 0] } } };
    const run = core.runScenario(JSON.stringify(scenario), 0.2);
    expect(run.ok, JSON.stringify(run.issues)).toBe(true);
    expect(run.summary.robot).toBe(read.model.name);
  });

  test('meshes given without their folders are found by their file names', () => {
    const { urdf, files } = folder('husky');
    const flat = Object.fromEntries(Object.entries(files).map(([k, v]) => [k.split('/').pop(), v]));
    const read = core.importRobot(urdf, flat);
    expect(read.ok).toBe(true);
    expect(read.model).toEqual(core.importRobot(urdf, folder('husky').files).model);
  });

  test('what cannot be read is refused at its path, naming the file', () => {
    const { urdf, files } = folder('husky');
    const missing = core.importRobot(urdf, {});
    expect(missing.ok).toBe(false);
    expect(missing.issues[0].path).toMatch(/^robot\.urdf/);
    expect(missing.issues[0].message).toMatch(/meshes\/top_plate\.stl/);
    expect(missing.issues[0].message).toMatch(/not among the files given/);
    const [[mesh, bytes]] = Object.entries(files);
    const twice = core.importRobot(urdf, { [`a/${mesh.split('/').pop()}`]: bytes, [`b/${mesh.split('/').pop()}`]: bytes });
    expect(twice.ok).toBe(false);
    expect(twice.issues[0].message).toMatch(/2 files given are named/);
    expect(core.importRobot(urdf, { [mesh]: 'text' }).issues[0].path).toBe(`files.${mesh}`);
    expect(core.importRobot(42, {}).issues[0]).toEqual({ path: 'robot.urdf', message: 'must be the URDF\'s text (a string), got number' });
    const broken = core.importRobot('<robot name="x"><link name="a"></robot>', {});
    expect(broken.ok).toBe(false);
    expect(broken.issues[0].path).toMatch(/^robot\.urdf/);
  });
});

describe('robotFiles (the app) unpacks what was given', () => {
  const file = (name, bytes) => ({ name, size: bytes.length, arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), webkitRelativePath: '' });

  test('a .zip: names relative to the URDF\'s folder', async () => {
    const { urdf, files } = folder('husky');
    const zip = zipSync({ 'pkg/husky/husky.urdf': new TextEncoder().encode(urdf), ...Object.fromEntries(Object.entries(files).map(([k, v]) => [`pkg/husky/${k}`, v])) });
    const given = await robotFiles([file('husky.zip', zip)]);
    expect(given.error).toBeUndefined();
    expect(given.urdf).toEqual({ name: 'husky.urdf', text: urdf });
    expect(Object.keys(given.files).sort()).toEqual(Object.keys(files).sort());
  });

  test('refused: no URDF, two URDFs, a zip that unpacks too large (before inflating it)', async () => {
    expect((await robotFiles([file('a.stl', new Uint8Array(10))])).error).toMatch(/no \.urdf file/);
    const u = new TextEncoder().encode('<robot/>');
    expect((await robotFiles([file('a.urdf', u), file('b.urdf', u)])).error).toMatch(/2 URDF files/);
    // A zip whose entry claims 200 MiB (its header edited, as a hostile file
    // would): refused by the sizes it declares, before anything is inflated.
    const bomb = zipSync({ 'big.stl': new Uint8Array(1024) });
    const view = new DataView(bomb.buffer);
    const claimed = 200 * 2 ** 20;
    for (let at = 0; at + 4 <= bomb.length; at++) {
      const signature = view.getUint32(at, true);
      if (signature === 0x04034b50) view.setUint32(at + 22, claimed, true);  // local header: uncompressed size
      if (signature === 0x02014b50) view.setUint32(at + 24, claimed, true);  // central directory: uncompressed size
    }
    const t0 = performance.now();
    expect((await robotFiles([file('bomb.zip', bomb)])).error).toMatch(/unpacks to more than 178 MiB/);
    expect(performance.now() - t0).toBeLessThan(1000);  // the bound for a hostile file
    expect((await robotFiles([file('x.zip', new Uint8Array([1, 2, 3]))])).error).toMatch(/not a \.zip that can be read/);
  });
});
