// The worker protocol (web/src/sim/sim_host.js) driven directly with the real WASM
// core in Node: load, frames, stepping, inputs, a rejected scenario, a blow-up, a
// scenario's controller program (its plot columns and log, a seek that runs it
// again to the same bits, a throw and a syntax error with their lines).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';

import * as programs from '../../web/src/controller/program.js';
import { createSimHost, needsPrograms } from '../../web/src/sim/sim_host.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const modulePath = path.join(root, 'web/src/wasm/roverlab_core.js');
const scenario = (name) => readFileSync(path.join(root, 'terrains', name), 'utf8');
let core;

beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run npm test to build it`);
  const { default: createRoverlabCore } = await import(modulePath);
  core = await createRoverlabCore();
});

/** A host with its outbox. */
function host() {
  const out = [];
  const handle = createSimHost(core, (message, transfer) => out.push({ message, transfer }), null, programs);
  return { handle, out, last: (type) => out.filter((o) => o.message.type === type).at(-1)?.message };
}

describe('sim host', () => {
  test('load answers the model and a first frame at t = 0', () => {
    const h = host();
    h.handle({ type: 'load', scenario: scenario('flat-wheel-rig.json') });
    const model = h.last('model').model;
    expect(model.preset).toBe('wheel-rig');
    expect(model.wheels).toHaveLength(1);
    const { frame } = h.last('frame');
    expect(frame).toBeInstanceOf(Float64Array);
    expect(frame.length).toBe(model.layout.size);
    expect(frame[0]).toBe(0);
    // The frame travels in a buffer of its own (transferable, not a view of WASM memory).
    expect(h.out.at(-1).transfer).toEqual([frame.buffer, h.last('frame').samples.buffer]);
  });

  test('ticks advance only while playing, at the requested speed', () => {
    const h = host();
    h.handle({ type: 'load', scenario: scenario('flat-wheel-rig.json') });
    h.handle({ type: 'tick', wallSeconds: 0.1 });
    expect(h.last('frame').frame[0]).toBe(0);  // paused
    h.handle({ type: 'play' });
    h.handle({ type: 'speed', speed: 2 });
    for (let i = 0; i < 30; i++) h.handle({ type: 'tick', wallSeconds: 1 / 60 });
    const t = h.last('frame').frame[0];
    expect(t).toBeGreaterThan(0.9);  // 30 frames × 1/60 s × 2, if stepping keeps up
    expect(t).toBeLessThanOrEqual(1.0 + 1e-9);
    h.handle({ type: 'pause' });
    h.handle({ type: 'tick', wallSeconds: 1 });
    expect(h.last('frame').frame[0]).toBe(t);
    // Telemetry rows came with the frames, one per 10 ms of simulated time.
    const model = h.last('model').model;
    const rows = h.out.filter((o) => o.message.type === 'frame').reduce((n, o) => n + o.message.samples.length, 0) / model.columns.length;
    expect(rows).toBe(Math.round(t / 0.01) + 1);  // the start's row (t = 0), then one per 10 ms
  });

  test('single step, reset, inputs', () => {
    const h = host();
    h.handle({ type: 'load', scenario: scenario('flat-articulated6.json') });
    h.handle({ type: 'step', steps: 1 });
    expect(h.last('frame').frame[0]).toBeCloseTo(4e-4, 12);
    expect(h.last('frame').frame[1]).toBe(1);
    h.handle({ type: 'wheels', left: 0, right: 0 });
    h.handle({ type: 'joint', name: 'fold_front', target: 0.5 });
    h.handle({ type: 'step', steps: 2500 });
    const model = h.last('model').model;
    const column = model.columns.indexOf('fold_front_rad');
    expect(h.last('frame').frame[model.layout.row + column]).toBeCloseTo(0.5, 1);  // the servo reached its target
    h.handle({ type: 'reset' });
    expect(h.last('frame').frame[0]).toBe(0);
  });

  test('body-box contacts travel in the frame, matching the telemetry row', () => {
    // The wheel-walker with its legs swung up lies on its body box.
    const s = JSON.parse(scenario('flat-wheel-walker.json'));
    s.control = { wheel_speed: 0, joints: { leg_1: 1.9, leg_2: 1.9, leg_3: -1.9, leg_4: -1.9 } };
    const h = host();
    h.handle({ type: 'load', scenario: JSON.stringify(s) });
    h.handle({ type: 'step', steps: 5000 });
    const { model } = h.last('model');
    const { frame } = h.last('frame');
    const { boxContacts, boxes, wheel, slot, row } = model.layout;
    expect(boxes).toBe(5);  // the body and four legs
    expect(boxContacts + wheel * boxes).toBe(row);
    const body = model.columns.indexOf('box_base_normal_N');
    expect(frame[boxContacts]).toBe(frame[row + model.columns.indexOf('box_base_contacts')]);
    expect(frame[boxContacts]).toBeGreaterThan(0);
    // The first slot: centre of pressure on the ground, normal force up, as large as the row's total.
    const p = boxContacts + 1;
    expect(Math.abs(frame[p + 2])).toBeLessThan(0.01);
    expect(frame[p + 5]).toBeGreaterThan(0);
    expect(Math.hypot(frame[p + 3], frame[p + 4], frame[p + 5])).toBeCloseTo(frame[row + body], 6);
    // Its depth, feature (the ground piece) and no slip, at the fields the layout names.
    const { slotFields } = model.layout;
    expect(slot).toBe(12);
    expect(frame[p + slotFields.depth]).toBeGreaterThan(0);
    expect(frame[p + slotFields.depth]).toBeLessThan(0.01);
    expect(frame[p + slotFields.feature]).toBe(0);
    expect(frame[p + slotFields.slip]).toBeNaN();
    expect(model.boxBodies).toHaveLength(boxes);
    expect(model.terrain.features[0]).toMatchObject({ kind: 'piece', first: 0 });
  });

  test('a rejected scenario answers its issues', () => {
    const h = host();
    const bad = JSON.parse(scenario('flat-wheel-rig.json'));
    bad.robot.params = { wheel_radius: -1 };
    h.handle({ type: 'load', scenario: JSON.stringify(bad) });
    expect(h.last('issues').issues).toEqual([
      { path: 'robot.params.wheel_radius', message: 'must be in [0.02, 2] m, got -1' },
    ]);
    h.handle({ type: 'tick', wallSeconds: 0.1 });  // nothing loaded: no frame, no exception
    expect(h.last('frame')).toBeUndefined();
  });

  test('a robot leaving the terrain stops the run with an error naming the outcome', () => {
    const h = host();
    const doc = JSON.parse(scenario('flat-wheel-rig.json'));
    doc.terrain.boxes[0].centre = [0.5, 0, -0.5];  // a 3 m slab the rig rolls off
    doc.terrain.boxes[0].size = [3, 6, 1];
    doc.control.wheel_speed = 10;
    h.handle({ type: 'load', scenario: JSON.stringify(doc) });
    h.handle({ type: 'step', steps: 25000 });
    const error = h.last('error');
    expect(error.outcome).toBe('left_terrain');
    expect(error.message).toMatch(/^left the terrain at t = /);
    h.handle({ type: 'play' });  // a stopped run does not play again
    h.handle({ type: 'tick', wallSeconds: 0.1 });
    expect(h.last('frame').stats.playing).toBe(false);
  });

  test('presets lists every preset with its parameters', () => {
    const h = host();
    h.handle({ type: 'presets' });
    const presets = h.last('presets').presets;
    expect(presets.map((p) => p.preset).sort()).toEqual(
      ['articulated6', 'planar-vehicle', 'rocker8', 'wheel-rig', 'wheel-walker'].sort(),
    );
    expect(presets[0].params.find((p) => p.name === 'wheel_radius').unit).toBe('m');
  });

  test('unknown messages are an error', () => {
    expect(() => host().handle({ type: 'fly' })).toThrow(/unknown message type 'fly'/);
  });

  test('at speed "max" the core steps between ticks, not only within them', async () => {
    const out = [];
    const handle = createSimHost(core, (message) => out.push(message), (fn) => setImmediate(fn), programs);
    const lastFrame = () => out.filter((m) => m.type === 'frame').at(-1);
    // A long duration: the run must not reach its end (where it stops) while stepping at max.
    const long = JSON.stringify({ ...JSON.parse(scenario('flat-articulated6.json')), simulation: { duration: 1000 } });
    handle({ type: 'load', scenario: long });
    handle({ type: 'speed', speed: Infinity });
    handle({ type: 'play' });
    handle({ type: 'tick', wallSeconds: 0.01 });
    const t1 = lastFrame().frame[0];
    // No tick for 0.2 s, then a pause: a tick while paused takes no steps, so
    // the world can have moved on only by stepping between ticks.
    await new Promise((resolve) => setTimeout(resolve, 200));
    handle({ type: 'pause' });
    handle({ type: 'tick', wallSeconds: 0.2 });
    const t2 = lastFrame().frame[0];
    expect(t2).toBeGreaterThan(t1 + 0.01);  // at least 25 steps of 0.4 ms
    expect(lastFrame().stats.steps).toBe(Math.round((t2 - t1) / 4e-4));  // reported with the next tick
    // Paused, the slices stop: nothing moves between ticks any more.
    await new Promise((resolve) => setTimeout(resolve, 50));
    handle({ type: 'tick', wallSeconds: 0.05 });
    expect(lastFrame().frame[0]).toBe(t2);
    // Playing again at max, the next tick reports the steps taken since the last one.
    handle({ type: 'play' });
    handle({ type: 'tick', wallSeconds: 0.01 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    handle({ type: 'tick', wallSeconds: 0.1 });
    const { frame, stats } = lastFrame();
    expect(stats.steps).toBeGreaterThan(0);
    expect(frame[0]).toBeGreaterThan(t2);
  });

  test('seek goes back to an earlier time; run on, the run is the same as before, bit for bit', () => {
    const h = host();
    h.handle({ type: 'load', scenario: scenario('climb-articulated6.json') });
    h.handle({ type: 'step', steps: 5000 });  // 2 s
    const straight = h.last('frame').frame;
    h.handle({ type: 'seek', time: 0.7 });
    expect(h.last('frame').frame[0]).toBeCloseTo(0.7, 9);
    h.handle({ type: 'step', steps: 5000 - 1750 });
    expect(h.last('frame').frame).toEqual(straight);
    // Forward is refused: the frame stays where the run is.
    h.handle({ type: 'seek', time: 5 });
    expect(h.last('frame').frame[0]).toBeCloseTo(2, 9);
  });

  test('a run stops at its scenario\'s duration, at every speed; Play with extend goes on past it', async () => {
    // The wheel rig with simulation.duration 0.3 s.
    const text = JSON.stringify({ ...JSON.parse(scenario('flat-wheel-rig.json')), simulation: { duration: 0.3 } });
    const h = host();
    h.handle({ type: 'load', scenario: text });
    h.handle({ type: 'play' });
    h.handle({ type: 'speed', speed: 10 });
    for (let i = 0; i < 20; i++) h.handle({ type: 'tick', wallSeconds: 0.05 });  // owes 10 s
    expect(h.last('frame').frame[0]).toBeCloseTo(0.3, 12);
    expect(h.last('finished')).toEqual({ type: 'finished', time: h.last('frame').frame[0] });
    expect(h.out.filter((o) => o.message.type === 'finished')).toHaveLength(1);
    // Play at the end does nothing; Play with extend runs on until paused.
    h.handle({ type: 'play' });
    h.handle({ type: 'tick', wallSeconds: 0.05 });
    expect(h.last('frame').frame[0]).toBeCloseTo(0.3, 12);
    h.handle({ type: 'play', extend: true });
    h.handle({ type: 'tick', wallSeconds: 0.05 });
    expect(h.last('frame').frame[0]).toBeGreaterThan(0.5);
    // A reset brings the end back: at speed "max" too the run stops there.
    const out = [];
    const handle = createSimHost(core, (message) => out.push(message), (fn) => setImmediate(fn), programs);
    handle({ type: 'load', scenario: text });
    handle({ type: 'speed', speed: Infinity });
    handle({ type: 'play' });
    handle({ type: 'tick', wallSeconds: 0.01 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    handle({ type: 'tick', wallSeconds: 0.3 });
    expect(out.filter((m) => m.type === 'frame').at(-1).frame[0]).toBeCloseTo(0.3, 12);
    expect(out.filter((m) => m.type === 'finished')).toHaveLength(1);
    // Telemetry: the start's row, then one per 10 ms up to the end, none lost or repeated.
    const rows = out.filter((m) => m.type === 'frame').flatMap((m) => [...m.samples]).length / h.last('model').model.columns.length;
    expect(rows).toBe(31);
  });

  test('control.program runs in the loop: plot columns and log lines with the frames; a seek runs it again to the same bits', () => {
    const program = `export default {
  period: 0.05,
  init(model) { console.log('wheels', model.wheels.length); },
  update(obs) {
    this.n = (this.n ?? 0) + 1;
    if (this.n === 12) console.warn('twelfth');
    return { wheel_speed: this.n < 20 ? 2 : 4, plot: { speed_rad_s: this.n < 20 ? 2 : 4, n: this.n } };
  },
};`;
    const text = JSON.stringify({ ...JSON.parse(scenario('flat-rocker8.json')), control: { program: { language: 'javascript', source: program } } });
    const h = host();
    h.handle({ type: 'load', scenario: text });
    expect(h.out[0].message).toEqual({ type: 'busy' });
    const { model } = h.last('model');
    const first = h.last('frame');
    // The first update ran at t = 0: its plot names are columns after the model's, the start's row holds them.
    expect(first.columns).toEqual([...model.columns, 'plot.speed_rad_s', 'plot.n']);
    const w = first.columns.length;
    expect(Array.from(first.samples.subarray(w - 2, w))).toEqual([2, 1]);
    expect(first.log).toEqual({ reset: true, lines: [{ t: 0, level: 'log', text: 'wheels 8' }] });
    const rows = [...first.samples];
    h.handle({ type: 'step', steps: 1600 });
    const end = h.last('frame');
    rows.push(...end.samples);
    expect(end.log.lines).toEqual([{ t: expect.closeTo(0.55, 9), level: 'warn', text: 'twelfth' }]);
    // Back to 0.4 s: the program's state is its own, so the host resets and runs again to there.
    h.handle({ type: 'seek', time: 0.4 });
    expect(h.last('frame').frame[0]).toBeCloseTo(0.4, 9);
    expect(h.last('frame').log).toEqual({ reset: true, lines: [{ t: 0, level: 'log', text: 'wheels 8' }] });
    h.handle({ type: 'step', steps: 600 });
    const again = h.last('frame');
    expect(again.frame).toEqual(end.frame);
    const kept = rows.slice(0, (Math.round(0.4 / 0.01) + 1) * w);
    expect([...kept, ...again.samples]).toEqual(rows);
  });

  test('a program that throws, or does not compile, stops the run with its line; a reset runs it again', () => {
    const base = JSON.parse(scenario('flat-rocker8.json'));
    const withProgram = (source) => JSON.stringify({ ...base, control: { program: { language: 'javascript', source } } });
    const h = host();
    h.handle({ type: 'load', scenario: withProgram('export default {\n  update(obs) {\n    if (obs.time_s > 0.2) throw new Error("no");\n  },\n};') });
    h.handle({ type: 'play' });
    h.handle({ type: 'step', steps: 2000 });
    expect(h.last('programError')).toEqual({ type: 'programError', message: 'line 3: update at t = 0.2 s: Error: no', line: 3, column: null, time: expect.closeTo(0.2, 9) });
    const stoppedAt = h.last('frame').frame[0];
    h.handle({ type: 'step', steps: 100 });
    expect(h.last('frame').frame[0]).toBe(stoppedAt);  // stopped
    h.handle({ type: 'reset' });
    h.handle({ type: 'step', steps: 100 });
    expect(h.last('frame').frame[0]).toBeGreaterThan(0);  // the program runs again from its start
    h.handle({ type: 'load', scenario: withProgram('export default {\n  update(obs) {\n    return {\n  },\n};') });
    expect(h.last('programError')).toMatchObject({ message: 'line 5, column 1: Unexpected token', line: 5, column: 1, time: 0 });
    h.handle({ type: 'step', steps: 100 });
    expect(h.last('frame').frame[0]).toBe(0);
  });

  test('a load with a program needs the program checker: the worker loads it first (needsPrograms); without it the load throws, the run unchanged', () => {
    const withProgram = JSON.stringify({ ...JSON.parse(scenario('flat-rocker8.json')), control: { program: { language: 'javascript', source: 'export default { update() {} };' } } });
    expect(needsPrograms({ type: 'load', scenario: withProgram })).toBe(true);
    expect(needsPrograms({ type: 'load', scenario: scenario('flat-rocker8.json') })).toBe(false);
    expect(needsPrograms({ type: 'tick', wallSeconds: 0.01 })).toBe(false);
    const out = [];
    const handle = createSimHost(core, (message) => out.push(message));
    handle({ type: 'load', scenario: scenario('flat-wheel-rig.json') });
    const frames = out.length;
    expect(() => handle({ type: 'load', scenario: withProgram })).toThrow(/controller\/program\.js not loaded/);
    expect(out.length).toBe(frames);
    handle({ type: 'step', steps: 10 });
    expect(out.at(-1).frame[0]).toBeCloseTo(10 * out.find((m) => m.type === 'model').model.dt, 12);  // the wheel rig runs on
  });
});
