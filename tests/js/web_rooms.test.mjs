// The web app's rooms (web/src/*/, docs/architecture.md) and their rules: a
// module imports from its own room and from lower rooms only; only the
// simulation client posts to the worker; each DOM id of the page is touched
// by one module; each field of the app state is written by its one owner
// (STATE_OWNERS in app/app_state.js). A new room must be given its layer here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

import { STATE_OWNERS } from '../../web/src/app/app_state.js';
import { root } from './support.mjs';

/** Layer of each room of web/src/, lowest first. */
export const ROOMS = {
  common: 0,    // issues, files and export names, PNG files, keyboard focus, signals
  scenario: 1,  // the scenario catalogue, "based on" descriptions, rejected work
  share: 2,     // share links and their codecs, the address bar
  controller: 2,  // controller programs: compiled and run (the worker), which run by themselves, the Controller tab
  import: 2,    // heightmap and mesh files read into terrains, URDF files into robots
  sim: 3,       // the WASM core, the worker and its host, the page's client of it
  runs: 4,      // a run's data: telemetry, frames, outcome, pinned runs' data and storage
  plots: 5,     // the plot dock and its charts
  view: 5,      // the 3-D scene: terrain, robot, camera, view quality
  editor: 6,    // the terrain editor and its tab
  panels: 7,    // the side panel's tabs and the panels over the view
  study: 7,     // the Study tab: the study document and form, its worker pool and workers, its plots
  app: 8,       // the root: state, run, controls, status, recording, test hooks
};

const src = path.join(root, 'web/src');
const rooms = readdirSync(src).filter((n) => n !== 'wasm' && statSync(path.join(src, n)).isDirectory());
const modules = rooms.flatMap((room) =>
  readdirSync(path.join(src, room))
    .filter((n) => n.endsWith('.js'))
    .map((n) => ({ rel: `${room}/${n}`, room, text: readFileSync(path.join(src, room, n), 'utf8') })),
);

describe('web/src rooms', () => {
  test('every module lives in a room, and every room has a layer', () => {
    const loose = readdirSync(src).filter((n) => statSync(path.join(src, n)).isFile());
    expect(loose).toEqual([]);
    expect(rooms.sort()).toEqual(Object.keys(ROOMS).sort());
    expect(modules.length).toBeGreaterThan(60);
  });

  test('imports point to the same room or a lower one', () => {
    const broken = [];
    for (const { rel, room, text } of modules) {
      for (const [, spec] of text.matchAll(/(?:from|import)\s+'(\.{1,2}\/[^']+)'/g)) {
        const target = path.relative(src, path.resolve(src, room, spec)).split(path.sep)[0];
        if (target === room || target === 'wasm' || target.startsWith('..')) continue;
        if (!(target in ROOMS) || !(ROOMS[target] < ROOMS[room])) broken.push(`${rel} imports ${spec} (${target}, layer ${ROOMS[target]}) from layer ${ROOMS[room]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('only the simulation client posts to the worker', () => {
    // A worker that hands programs its realm posts through postMessage bound before sealGlobals.
    const posting = modules.filter(({ text }) => /\.postMessage(?:\(|\.bind\()/.test(text)).map((m) => m.rel);
    // The simulation's worker posts its answers back; the study pool has workers of its own (study/study_worker.js's protocol).
    expect(posting.sort()).toEqual(['sim/sim_client.js', 'sim/sim_worker.js', 'study/study_pool.js', 'study/study_worker.js']);
    const messages = /\{\s*type:\s*'(?:load|decode|importRobot|presets|play|pause|seek|step|reset|controller|speed|tick|joint|wheels)'/;
    const ends = ['sim/sim_client.js', 'sim/sim_host.js'];  // the protocol's two ends (the host answers in kind)
    const building = modules.filter(({ rel, text }) => !ends.includes(rel) && messages.test(text)).map((m) => m.rel);
    expect(building).toEqual([]);
  });

  test('each DOM id of the page is touched by one module', () => {
    const page = readFileSync(path.join(root, 'web/index.html'), 'utf8');
    const ids = new Set([...page.matchAll(/\bid="([\w-]+)"/g)].map((m) => m[1]));
    for (const { text } of modules) for (const [, id] of text.matchAll(/\.id = '([\w-]+)'/g)) ids.add(id);
    const touching = new Map();
    for (const { rel, text } of modules) {
      const named = [...text.matchAll(/(?:\$|getElementById)\(\s*'([\w-]+)'\s*\)/g), ...text.matchAll(/['`"]#([\w-]+)/g)].map((m) => m[1]);
      for (const id of new Set(named.filter((n) => ids.has(n)))) touching.set(id, [...(touching.get(id) ?? []), rel]);
    }
    expect(touching.size).toBeGreaterThan(50);
    const shared = [...touching].filter(([, by]) => by.length > 1).map(([id, by]) => `#${id}: ${by.join(', ')}`);
    expect(shared).toEqual([]);
  });

  test('each field of the app state is written by its owner only', () => {
    const stateText = readFileSync(path.join(src, 'app/app_state.js'), 'utf8');
    const fields = [...stateText.slice(stateText.indexOf('Object.seal')).matchAll(/^ {4}(\w+):/gm)].map((m) => m[1]);
    const owner = {};
    for (const [module, owned] of Object.entries(STATE_OWNERS)) for (const f of owned) owner[f] = owner[f] ? 'two owners' : module;
    expect(Object.keys(owner).sort()).toEqual([...fields].sort());
    expect(Object.values(owner)).not.toContain('two owners');
    const strays = [];
    for (const { rel, text } of modules) {
      for (const [, field] of text.matchAll(/\bstate\.(\w+)\s*(?:=(?!=)|\+=|-=|\+\+|--|\?\?=|\|\|=|&&=)/g))
        if (owner[field] !== rel) strays.push(`${rel} writes state.${field} (owner: ${owner[field] ?? 'none: not a field'})`);
    }
    expect(strays).toEqual([]);
  });
});

test('the app lists every scenario of terrains/ (the catalogue finds them from its room)', async () => {
  const { scenarios } = await import('../../web/src/scenario/scenarios.js');
  const files = readdirSync(path.join(root, 'terrains')).filter((n) => n.endsWith('.json'));
  expect(scenarios.map((s) => `${s.id}.json`).sort()).toEqual(files.sort());
});
