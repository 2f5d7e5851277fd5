// The parameter panel: the robot preset's parameters (mass, wheel radius,
// tire stiffness and damping, ...), the ground's adhesion curve and rolling
// resistance, the slip definition and the time step, each with its unit and
// valid range. A value outside its range is marked at the field and not
// applied; a valid change calls onChange(kind, key, value).
import { materialOf } from '../scenario/scenarios.js';

const MATERIAL = [
  { key: 'phi_max', label: 'φ_max (adhesion)', unit: '-', min: 0, max: 5 },
  { key: 's0', label: 's0 (initial slope)', unit: '-', min: 1e-6, max: 100 },
  { key: 's1', label: 's1 (extra grip decay)', unit: '-', min: 1e-9, max: 100 },
  { key: 'rolling', label: 'f (rolling resistance)', unit: '-', min: 0, max: 1 },
];

function field(container, { label, title, unit, value, min, max }, apply) {
  const row = document.createElement('label');
  row.className = 'param';
  row.title = title ?? '';
  const name = document.createElement('span');
  name.textContent = label;
  const input = document.createElement('input');
  input.type = 'number';
  input.value = String(value);
  input.step = 'any';
  input.dataset.name = label;
  const u = document.createElement('span');
  u.className = 'unit';
  u.textContent = unit;
  const message = document.createElement('span');
  message.className = 'message';
  row.append(name, input, u, message);
  input.addEventListener('change', () => {
    const v = Number(input.value);
    const ok = input.value.trim() !== '' && Number.isFinite(v) && v >= min && v <= max;
    row.classList.toggle('invalid', !ok);
    message.textContent = ok ? '' : `must be a number in [${min}, ${max}] ${unit}`;
    if (ok) apply(v);
  });
  container.append(row);
  return row;
}

function heading(container, text) {
  const h = document.createElement('h3');
  h.textContent = text;
  container.append(h);
}

/** Rebuilds the panel for a scenario (object) and its preset's parameter specs. */
export function renderParams(container, { scenario, specs, onChange }) {
  container.textContent = '';
  heading(container, scenario.robot.preset ? `Robot: ${scenario.robot.preset}` : `Robot: ${scenario.robot.model?.name ?? 'own'} (its description: no preset parameters)`);
  const overrides = scenario.robot.params ?? {};
  for (const p of specs) {
    field(
      container,
      { label: p.name, title: p.description, unit: p.unit, value: overrides[p.name] ?? p.value, min: p.min, max: p.max },
      (v) => onChange('param', p.name, v),
    );
  }
  heading(container, 'Ground (every material)');
  const material = materialOf(scenario);
  for (const m of MATERIAL)
    field(container, { ...m, value: material[m.key] }, (v) => onChange('material', m.key, v));
  heading(container, 'Simulation');
  const sim = scenario.simulation ?? {};
  field(container, { label: 'dt', title: 'fixed time step', unit: 's', value: sim.dt ?? 0.0004, min: 1e-6, max: 0.01 }, (v) =>
    onChange('simulation', 'dt', v),
  );
  const slip = document.createElement('label');
  slip.className = 'param';
  slip.innerHTML = '<span>slip definition</span>';
  const select = document.createElement('select');
  select.id = 'slip';
  for (const [value, text] of [
    ['relative', 'relative s [GKS2025]'],
    ['absolute', 'absolute S, m/s [SP2017]'],
  ]) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    select.append(o);
  }
  select.value = sim.slip ?? 'relative';
  select.addEventListener('change', () => onChange('simulation', 'slip', select.value));
  slip.append(select);
  container.append(slip);
}
