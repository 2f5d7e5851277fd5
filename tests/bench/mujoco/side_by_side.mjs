// The runs of mujoco_bench.mjs, the same code in Node and in a Chromium page:
// Roverlab's WASM core and MuJoCo's WASM build side by side in one
// JavaScript engine (no Node APIs here).
//
// `core` is the instantiated Roverlab module, `mujoco` the loaded mujoco-js
// module, `stepScenario` the text of terrains/step-articulated6.json. A run is
// a fresh model: WARM steps untimed, then STEPS timed. First every case and
// engine runs untimed until two runs in a row agree within 5 % (at most 10:
// V8 tiers WebAssembly up from Liftoff to TurboFan while it runs, and swaps in
// the core's large functions only after several runs); then `rounds` rounds,
// each running every case and engine once, the engine order rotating.
import { articulated6Mjcf } from './articulated6.mjs';

export const DT = 4e-4;
export const WARM = Math.round(0.5 / DT);
export const STEPS = Math.round(5 / DT);
export const CASES = [0, 1000];
export const ENGINES = ['roverlab_wasm', 'mujoco_wasm_euler', 'mujoco_wasm_implicitfast'];

/** Resolves to { warmup: {'case / engine': rates}, runs: {extra: {engine: [{rate, x, z, size}]}} }. */
export function sideBySide({ core, mujoco, stepScenario, rounds, onRound = () => {} }) {
  mujoco.FS.mkdir('/working');
  mujoco.FS.mount(mujoco.MEMFS, { root: '.' }, '/working');

  const mujocoRun = (extraBoxes, integrator) => {
    mujoco.FS.writeFile('/working/a6.xml', articulated6Mjcf({ extraBoxes, integrator }));
    const model = mujoco.MjModel.loadFromXML('/working/a6.xml');
    const data = new mujoco.MjData(model);
    for (let i = 0; i < 6; i++) data.ctrl[i] = 5;  // the six wheel motors, rad/s
    for (let i = 0; i < WARM; i++) mujoco.mj_step(model, data);
    const t0 = performance.now();
    for (let i = 0; i < STEPS; i++) mujoco.mj_step(model, data);
    const rate = STEPS / ((performance.now() - t0) / 1000);
    const result = { rate, x: data.qpos[0], z: data.qpos[2], size: model.ngeom };
    data.delete();
    model.delete();
    return result;
  };

  const texts = {};
  const roverlabScenario = (extraBoxes) => {
    if (texts[extraBoxes]) return texts[extraBoxes];
    const s = JSON.parse(stepScenario);
    s.control = { wheel_speed: 5 };
    const side = Math.ceil(Math.sqrt(extraBoxes));
    for (let i = 0; i < extraBoxes; i++)
      s.terrain.boxes.push({ centre: [-10 + 0.6 * (i % side), 4 + 0.6 * Math.floor(i / side), 0.05], size: [0.5, 0.5, 0.1] });
    return (texts[extraBoxes] = JSON.stringify(s));
  };

  const roverlabRun = (extraBoxes) => {
    const world = new core.World(roverlabScenario(extraBoxes));
    if (!world.ok()) throw new Error(JSON.stringify(world.issues()));
    world.step(WARM);
    const t0 = performance.now();
    for (let done = 0; done < STEPS; ) done += world.step(Math.min(1000, STEPS - done));
    const rate = STEPS / ((performance.now() - t0) / 1000);
    const frame = world.frame();
    const m = world.model();
    const o = m.layout.poses + m.layout.pose * m.base;
    const result = { rate, x: frame[o], z: frame[o + 2], size: m.terrain.pieces.length };
    world.delete();
    return result;
  };

  const run = (engine, extra) =>
    engine === 'roverlab_wasm' ? roverlabRun(extra) : mujocoRun(extra, engine === 'mujoco_wasm_euler' ? 'Euler' : 'implicitfast');

  const warmup = {};
  for (const extra of CASES)
    for (const engine of ENGINES) {
      const rates = [run(engine, extra).rate];
      while (rates.length < 10) {
        rates.push(run(engine, extra).rate);
        if (Math.abs(rates.at(-1) / rates.at(-2) - 1) < 0.05) break;
      }
      warmup[`${extra ? `step + ${extra} boxes` : 'step'} / ${engine}`] = rates.map(Math.round);
    }
  const runs = Object.fromEntries(CASES.map((e) => [e, Object.fromEntries(ENGINES.map((g) => [g, []]))]));
  for (let r = 0; r < rounds; r++) {
    for (const extra of CASES)
      for (let k = 0; k < ENGINES.length; k++) {
        const engine = ENGINES[(k + r) % ENGINES.length];
        runs[extra][engine].push(run(engine, extra));
      }
    onRound(r);
  }
  return { warmup, runs };
}
