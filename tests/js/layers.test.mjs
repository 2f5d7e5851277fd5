// The core's folders form layers (docs/architecture.md): a file may include
// headers of its own folder and of folders in lower layers only. A new folder
// must be given its layer here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

import { root } from './support.mjs';

/** Layer of each folder of core/, lowest first. */
export const LAYERS = {
  common: 0,      // vectors, Issue, Expected
  geometry: 1,    // convex polytopes, GJK
  dynamics: 1,    // articulated bodies
  crawler: 1,     // [BSTU2019]'s link contact (planar, standalone)
  terrain: 2,     // terrain pieces, materials, broadphase, builders
  contact: 3,     // wheel and body contact, tire and tread models
  robots: 4,      // presets: bodies, wheels, drives
  world: 5,       // the step: model, state, forces, integration
  control: 6,     // controllers acting on the world (the registry of kinds)
  scenario: 7,    // the document: reading, overrides, terrain building
  kinematics: 8,  // [KJ2025]'s rover positioning along Track1 of a scenario
  sim: 8,         // a scenario running: simulation, telemetry, frames
  study: 9,       // many runs of a scenario: grid, rows, threshold search
  cli: 10,        // front ends
  bindings: 10,
};

const core = path.join(root, 'core');

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(h|cpp)$/.test(name) ? [full] : [];
  });
}

test('every folder of core/ has a layer', () => {
  const folders = readdirSync(core).filter((n) => statSync(path.join(core, n)).isDirectory());
  expect(folders.sort()).toEqual(Object.keys(LAYERS).sort());
});

test('includes point down the layers, never up or sideways', () => {
  const broken = [];
  let includes = 0;
  for (const file of sources(core)) {
    const rel = path.relative(core, file);
    const folder = rel.includes(path.sep) ? rel.split(path.sep)[0] : null;  // null: the umbrella roverlab.h
    for (const [, target] of readFileSync(file, 'utf8').matchAll(/^#include "([a-z_]+)\/[^"]+"/gm)) {
      includes += 1;
      if (folder === null || target === folder) continue;
      if (!(target in LAYERS) || !(LAYERS[target] < LAYERS[folder])) {
        broken.push(`${rel} includes ${target}/ (layer ${LAYERS[target]}) from layer ${LAYERS[folder]}`);
      }
    }
  }
  expect(includes).toBeGreaterThan(100);
  expect(broken).toEqual([]);
});

// The native and WASM builds round the C library's elementary functions
// differently; the core calls its own (common/elementary.h) so that both give
// the same bits. Eigen's AngleAxis calls the library's sine and cosine.
test('the core calls no elementary function of the C library', () => {
  const library = /\bstd::(sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|exp|exp2|expm1|log|log2|log10|log1p|pow|cbrt|hypot|erf|tgamma)\s*\(|\bAngleAxis[df]?\s*\(/;
  const calls = [];
  for (const file of sources(core)) {
    const rel = path.relative(core, file);
    if (rel.startsWith('common/elementary')) continue;
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (library.test(line.replace(/\/\/.*$/, ''))) calls.push(`${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  expect(calls).toEqual([]);
});
