// `node tools/roverlab.mjs run` reads the files a scenario names beside it as
// the native `roverlab run` does (scenario/folder_files.h; tools/run_worker.mjs
// hands them to the WASM core): a heightmap image gives the native run's
// summary, state_hash for state_hash; a name with '..', a symbolic link out
// of the folder and a missing file are refused with the native tool's issues.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { root } from './support.mjs';

const cli = path.join(root, 'build/native/roverlab');
const tool = path.join(root, 'tools/roverlab.mjs');
let tmp;

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'roverlab-files-'));
  mkdirSync(path.join(tmp, 'inside'));
  copyFileSync(path.join(root, 'tests/data/grey8.png'), path.join(tmp, 'inside', 'bumps.png'));
  copyFileSync(path.join(root, 'tests/data/grey8.png'), path.join(tmp, 'outside.png'));
  symlinkSync(path.join(tmp, 'outside.png'), path.join(tmp, 'inside', 'link.png'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The wheel rig driving over a 4 × 3 heightmap image named `file`, in tmp/inside. */
function scenarioWith(file) {
  const s = JSON.parse(readFileSync(path.join(root, 'terrains/flat-wheel-rig.json'), 'utf8'));
  s.terrain.heightmaps = [{ file, origin: [0.2, -0.3], cell: 0.2, height_scale: 0.0002 }];
  s.simulation = { duration: 1 };
  const name = path.join(tmp, 'inside', `${file.replace(/\W/g, '_')}.json`);
  writeFileSync(name, JSON.stringify(s));
  return name;
}

const both = (file) => ({
  native: spawnSync(cli, ['run', file], { encoding: 'utf8', timeout: 60_000 }),
  node: spawnSync(process.execPath, [tool, 'run', file], { encoding: 'utf8', timeout: 60_000 }),
});
const timeless = (summary) => Object.fromEntries(Object.entries(summary).filter(([k]) => !['wall_s', 'steps_per_s', 'real_time_factor'].includes(k)));

describe('files beside the scenario, read by the Node tool', { timeout: 60_000 }, () => {
  test('a heightmap image: the native run, bit for bit', () => {
    const { native, node } = both(scenarioWith('bumps.png'));
    expect(native.status, native.stderr).toBe(0);
    expect(node.status, node.stderr).toBe(0);
    const [a, b] = [JSON.parse(native.stdout), JSON.parse(node.stdout)];
    expect(b.state_hash).toBe(a.state_hash);
    expect(timeless(b)).toEqual(timeless(a));
    // The image mattered: without it the run ends elsewhere.
    const flat = spawnSync(cli, ['run', path.join(root, 'terrains/flat-wheel-rig.json'), '--duration', '1'], { encoding: 'utf8', timeout: 60_000 });
    expect(JSON.parse(flat.stdout).state_hash).not.toBe(a.state_hash);
  });

  test("'..', a symbolic link out of the folder and a missing file: the native tool's issues", () => {
    for (const file of ['../outside.png', 'link.png', 'missing.png']) {
      const { native, node } = both(scenarioWith(file));
      expect(native.status, file).toBe(1);
      expect(node.status, file).toBe(1);
      expect(JSON.parse(node.stdout).issues, file).toEqual(JSON.parse(native.stdout).issues);
      expect(JSON.parse(node.stdout).issues[0].path).toBe('terrain.heightmaps[0].file');
    }
  });
});
