// Real-time pacing of a fixed-step simulation: how many steps to take for a
// stretch of wall time, at a chosen speed, without ever taking so many that a
// slow frame freezes the page.
//
// State: { debt } (simulated seconds owed). Each tick adds wall × speed to
// the debt and pays it in whole steps of dt, at most `maxSteps` per tick; what
// the cap leaves unpaid beyond one tick's worth is dropped, so after a stall
// the simulation falls behind instead of racing to catch up.

/** Steps for one tick; returns { steps, state }. `speed` Infinity = as fast as the budget allows. */
export function stepsForTick(state, { wallSeconds, speed, dt, maxSteps }) {
  if (!(dt > 0) || !(maxSteps >= 1)) throw new Error('stepsForTick: dt > 0 and maxSteps ≥ 1 are required');
  const wall = Math.min(Math.max(wallSeconds, 0), 2);  // a backgrounded tab comes back at most 2 s late
  if (speed === Infinity) return { steps: maxSteps, state: { debt: 0 } };
  const owed = state.debt + wall * Math.max(speed, 0);
  const steps = Math.min(Math.floor(owed / dt + 1e-9), maxSteps);
  const debt = Math.min(owed - steps * dt, wall * Math.max(speed, 0) + dt);
  return { steps, state: { debt: Math.max(debt, 0) } };
}

/** Step budget per tick so that stepping takes at most `budgetMs` at the measured cost. */
export function stepBudget(msPerStep, budgetMs, { min = 1, max = 20000 } = {}) {
  if (!(msPerStep > 0)) return min;
  return Math.max(min, Math.min(max, Math.floor(budgetMs / msPerStep)));
}

/** Exponential moving average, for steps/s and real-time factor shown to the user. */
export function smooth(previous, value, weight = 0.1) {
  return previous === undefined || !Number.isFinite(previous) ? value : previous + weight * (value - previous);
}
