// Real-time pacing of the simulation worker (web/src/sim/pacing.js).
import { describe, expect, test } from 'vitest';

import { smooth, stepBudget, stepsForTick } from '../../web/src/sim/pacing.js';

const dt = 4e-4;

describe('stepsForTick', () => {
  test('real time: one 60 Hz frame of wall time is 1/60 s of simulation', () => {
    let state = { debt: 0 };
    let total = 0;
    for (let i = 0; i < 600; i++) {
      const r = stepsForTick(state, { wallSeconds: 1 / 60, speed: 1, dt, maxSteps: 1000 });
      state = r.state;
      total += r.steps;
    }
    // 10 s of wall time: 25 000 steps, less at most the one step still owed.
    expect(total).toBeGreaterThanOrEqual(24999);
    expect(total).toBeLessThanOrEqual(25000);
  });

  test('speed scales the simulated time', () => {
    for (const speed of [0.1, 0.5, 2, 10]) {
      let state = { debt: 0 };
      let total = 0;
      for (let i = 0; i < 60; i++) {
        const r = stepsForTick(state, { wallSeconds: 1 / 60, speed, dt, maxSteps: 100000 });
        state = r.state;
        total += r.steps;
      }
      expect(Math.abs(total * dt - speed)).toBeLessThanOrEqual(dt);
    }
  });

  test('the cap bounds a slow frame and the debt does not pile up', () => {
    const r = stepsForTick({ debt: 0 }, { wallSeconds: 0.2, speed: 1, dt, maxSteps: 100 });
    expect(r.steps).toBe(100);
    // What the cap left unpaid is kept for at most one tick's worth, not forever.
    expect(r.state.debt).toBeLessThanOrEqual(0.2 + dt);
    let state = r.state;
    for (let i = 0; i < 50; i++) state = stepsForTick(state, { wallSeconds: 0.2, speed: 1, dt, maxSteps: 100 }).state;
    expect(state.debt).toBeLessThanOrEqual(0.2 + dt);
  });

  test('a tab back from the background catches up at most 2 s', () => {
    const r = stepsForTick({ debt: 0 }, { wallSeconds: 30, speed: 1, dt, maxSteps: 1e9 });
    expect(r.steps).toBe(Math.floor(2 / dt + 1e-9));
  });

  test('as fast as possible takes the whole budget', () => {
    expect(stepsForTick({ debt: 0.3 }, { wallSeconds: 1 / 60, speed: Infinity, dt, maxSteps: 777 })).toEqual({
      steps: 777,
      state: { debt: 0 },
    });
  });

  test('invalid arguments are refused', () => {
    expect(() => stepsForTick({ debt: 0 }, { wallSeconds: 1, speed: 1, dt: 0, maxSteps: 1 })).toThrow(/dt > 0/);
  });
});

test('stepBudget and smooth', () => {
  expect(stepBudget(0.04, 8)).toBe(200);
  expect(stepBudget(0, 8)).toBe(1);
  expect(stepBudget(1e-9, 8)).toBe(20000);
  expect(smooth(undefined, 5)).toBe(5);
  expect(smooth(10, 20, 0.1)).toBe(11);
});
