// Numbers on the plots: "nice" tick steps (1, 2 or 5 × 10^k), tick labels
// with one SI prefix per axis (0, 0.5k, 1k, 1.5k rather than 1,500.000), and
// short values for the legends. Pure functions (tests/js/plots.test.mjs).

const PREFIXES = [
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
  [1, ''],
  [1e-3, 'm'],
  [1e-6, 'µ'],
];

/** The SI factor and prefix for numbers as large as `largest` (absolute). */
function prefixFor(largest) {
  if (!(largest > 0) || !Number.isFinite(largest)) return [1, ''];
  if (largest >= 1e3) return PREFIXES.find(([f]) => largest >= f);
  if (largest >= 1e-2) return [1, ''];
  return largest >= 1e-5 ? [1e-3, 'm'] : [1e-6, 'µ'];
}

const trimZero = (s) => (/^-0(\.0*)?$/.test(s) ? s.slice(1) : s);

/** A step of 1, 2 or 5 × 10^k, at least span / count (count: the most ticks wanted). */
export function niceStep(span, count) {
  const raw = Math.abs(span) / Math.max(1, count);
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/** Tick values from min to max at a nice step, at most about `count` of them. */
export function ticks(min, max, count) {
  const step = niceStep(max - min, count);
  const out = [];
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

/** Labels of an axis's ticks: one SI prefix for all, as many decimals as the step needs. */
export function formatTicks(values) {
  const finite = values.filter((v) => v !== null && Number.isFinite(v));
  if (!finite.length) return values.map(() => '');
  const largest = Math.max(...finite.map(Math.abs));
  const [factor, prefix] = prefixFor(largest);
  let step = Infinity;
  for (let i = 1; i < finite.length; i++) step = Math.min(step, Math.abs(finite[i] - finite[i - 1]));
  if (!Number.isFinite(step) || step === 0) step = largest || 1;
  // As many decimals as the step needs to show (2.5 needs one, 0.25 two).
  let decimals = 0;
  const scaled = step / factor;
  while (decimals < 6 && Math.abs(Math.round(scaled * 10 ** decimals) - scaled * 10 ** decimals) > 1e-6 * 10 ** decimals * scaled) decimals++;
  return values.map((v) => {
    if (v === null || !Number.isFinite(v)) return '';
    const text = trimZero((v / factor).toFixed(decimals).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, ''));
    return text === '0' ? text : text + prefix;
  });
}

/** A value for a legend: about 4 significant digits, an SI prefix from 10 000 up, below 0.001 as 1.23e-4. */
export function formatValue(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞';
  const a = Math.abs(v);
  if (a >= 1e4) {
    const [factor, prefix] = prefixFor(a);
    return trimZero((v / factor).toPrecision(4).replace(/\.?0+$/, '')) + prefix;
  }
  if (a === 0 || Number.isInteger(v)) return String(v);
  if (a < 1e-3) return v.toExponential(2);
  return String(Number(v.toPrecision(4)));
}
