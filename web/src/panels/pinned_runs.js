// Compare runs: the Simulate tab's "Compare runs" panel. "Pin this run"
// keeps a copy of the run on show (its telemetry, its outcome in words, its
// scenario); the runs after it then show each pinned run too: its series in
// every chart (plots.js, through the signal pinsChanged) and its base and
// wheel trails ghosted in the view (ghost_trails.js). Each pinned run is
// named by how its scenario differs from the one running now ("run 1:
// wheel_radius = 0.25"), can be hidden or removed, and "Export runs CSV"
// writes every pinned run and the current one as one table. Pinned runs are
// kept with the work in this browser (pinned_store.js) and shown again when
// the page opens; if the storage refuses them (disabled, full) a banner says
// so and they stay while the page is open. At most MAX_PINS runs are pinned;
// a run's copy keeps at most PIN_BYTES of rows (coarser beyond, and it says
// so). state.pinned lists them for the browser tests.
import { version } from '../../../package.json';
import { csvComments, exportName } from '../common/export_names.js';
import { download } from '../common/files.js';
import { GhostTrails } from '../view/ghost_trails.js';
import { releaseAfterPointerUse } from '../common/keyboard_focus.js';
import { describeOutcome } from '../runs/outcome.js';
import { MAX_PINS, PIN_BYTES, PIN_COLOURS, differences, pinLabel, runsCsvParts } from '../runs/pinned_data.js';
import { PinStore } from '../runs/pinned_store.js';
import { quantities } from '../plots/plot_quantities.js';
import { Telemetry } from '../runs/telemetry.js';
import './pinned_runs.css';

const ms = (seconds) => `${Math.round(seconds * 1000)} ms`;

export class PinnedRuns {
  /** stage: the view (its scene holds the ghosts); store: a promise of the PinStore (IndexedDB). */
  constructor({ state, signals, stage, banners, store = PinStore.open() }, $ = (id) => document.getElementById(id)) {
    Object.assign(this, { state, signals, banners, $ });
    this.runs = [];  // { n, label, colour, shown, kept, scenario, model, outcome, telemetry, quantities }
    this.ghosts = new GhostTrails(stage);
    this.list = $('pin-list');
    $('pin-run').addEventListener('click', () => this.pin());
    $('pins-csv').addEventListener('click', () => this.exportCsv());
    // A button pressed with the mouse gives the keys back to driving (Space would press it again).
    for (const id of ['pin-run', 'pins-csv']) $(id).addEventListener('pointerup', () => $(id).blur());
    signals.scenarioLoaded.add(() => this.changed());  // the labels say how each differs from the new run
    // The runs kept in this browser come back first; a pin made meanwhile waits for them (its number follows theirs).
    this.store = store;
    this.ready = store
      .then((s) => s.all())
      .then((records) => {
        for (const record of records) this.runs.push(runOf(record));
        if (records.length) this.note(`${records.length === 1 ? 'A pinned run' : `${records.length} pinned runs`} kept with your work.`);
        this.changed();
      })
      .catch((error) => this.storageFailed(error));
    this.changed();
  }

  /** Pins the run on show as it is now (every row from t = 0, its outcome at its newest row). */
  pin() {
    const { state } = this;
    const telemetry = state.telemetry;
    // The start's row alone (t = 0) is no run yet.
    if (!state.model || !(telemetry?.rows > 1)) return this.note('There is no run to pin yet: play one first.');
    const copy = telemetry.copy(Math.floor(PIN_BYTES / (8 * telemetry.width)));
    const last = telemetry.rows - 1;
    const stopped = state.outcome ? { outcome: state.outcome, message: state.error } : null;
    const { model } = state;
    const pinned = {
      scenario: structuredClone(state.scenario),
      model: { name: model.name, preset: model.preset, robot: model.robot, dt: model.dt, duration: model.duration, wheels: model.wheels.map((w) => w.name) },
      outcome: describeOutcome(state, last, stopped).text,
      telemetry: copy,
    };
    this.ready.then(() => this.add(pinned, copy.stride !== telemetry.stride));
  }

  add(pinned, coarser) {
    if (this.runs.length >= MAX_PINS) return this.note(`${MAX_PINS} runs are pinned, the most kept: remove one to pin another.`);
    const n = Math.max(0, ...this.runs.map((r) => r.n)) + 1;
    const colour = PIN_COLOURS.find((c) => !this.runs.some((r) => r.colour === c)) ?? PIN_COLOURS[n % PIN_COLOURS.length];
    const run = runOf({ ...pinned, n, colour, shown: true, columns: pinned.telemetry.columns, stride: pinned.telemetry.stride, data: pinned.telemetry.data });
    run.kept = false;  // until the storage holds it
    this.runs.push(run);
    this.changed();
    this.note(coarser ? `Pinned run ${n}, a long run: its copy keeps a row every ${ms(run.telemetry.interval)}.` : `Pinned run ${n}.`);
    this.save(run);
  }

  remove(n) {
    this.runs = this.runs.filter((r) => r.n !== n);
    this.changed();
    this.store.then((s) => s.delete(n)).catch((error) => this.storageFailed(error));
  }

  setShown(n, shown) {
    const run = this.runs.find((r) => r.n === n);
    run.shown = shown;
    this.changed();
    this.save(run);
  }

  /** Writes a run's record; a refusal (quota, storage off) is said once in a banner. */
  save(run) {
    run.kept = false;
    const write = (run.writes = (run.writes ?? 0) + 1);  // only the latest write marks the run kept
    this.publish();
    this.store
      .then((s) => s.put(recordOf(run)))
      .then(
        () => (run.kept = write === run.writes),
        (error) => this.storageFailed(error),
      )
      .then(() => this.publish());
  }

  storageFailed(error) {
    if (this.failed) return;
    this.failed = true;
    this.banners.show(
      `This browser's storage does not keep the pinned runs (${error?.name ?? 'Error'}: ${error?.message ?? error}); they stay while this page is open.`,
      'warning',
    );
  }

  /** A short note under the panel's buttons. */
  note(text) {
    const note = this.$('pin-note');
    note.textContent = text;
    note.hidden = !text;
  }

  /** Labels, the list, state.pinned, the ghosts and the charts, after any change of the runs or of the current scenario. */
  changed() {
    const { state } = this;
    const defaultOf = (preset, name) => state.presets.find((p) => p.preset === preset)?.params.find((p) => p.name === name)?.value;
    for (const run of this.runs) run.label = pinLabel(run.n, differences(run.scenario, state.scenario, defaultOf));
    this.$('pin-run').disabled = this.runs.length >= MAX_PINS;
    this.$('pin-run').title =
      this.runs.length >= MAX_PINS
        ? `${MAX_PINS} runs are pinned, the most kept: remove one to pin another`
        : "Keep this run's telemetry and outcome to compare with the runs after it: its series in every chart, its trails in the view";
    this.$('pins-csv').disabled = !this.runs.length;
    this.renderList();
    this.publish();
    this.ghosts.set(this.runs);
    this.signals.pinsChanged.dispatch(this.runs);
  }

  /** state.pinned: the runs as plain data (kept: the browser's storage holds the run as it is now). */
  publish() {
    this.state.pinned = this.runs.map((r) => ({
      n: r.n,
      label: r.label,
      colour: r.colour,
      shown: r.shown,
      rows: r.telemetry.rows,
      interval: r.telemetry.interval,
      until: r.telemetry.rows ? r.telemetry.value(r.telemetry.rows - 1, 0) : 0,
      outcome: r.outcome,
      kept: r.kept,
    }));
  }

  renderList() {
    this.list.replaceChildren(
      ...this.runs.map((run) => {
        const item = document.createElement('li');
        item.dataset.run = String(run.n);
        const shown = document.createElement('input');
        shown.type = 'checkbox';
        shown.checked = run.shown;
        shown.title = 'Show this run in the charts and the view';
        shown.style.accentColor = run.colour;
        shown.addEventListener('input', () => this.setShown(run.n, shown.checked));
        releaseAfterPointerUse(shown);
        const swatch = document.createElement('i');
        swatch.style.background = run.colour;
        const text = document.createElement('span');
        text.className = 'pin-text';
        const until = run.telemetry.rows ? run.telemetry.value(run.telemetry.rows - 1, 0) : 0;
        text.append(run.label);
        const detail = document.createElement('small');
        detail.textContent = `0–${until.toFixed(2)} s${run.telemetry.stride > 1 ? `, every ${ms(run.telemetry.interval)}` : ''}: ${run.outcome || 'no outcome'}`;
        text.append(detail);
        text.title = `${run.label}\n${run.scenario?.name ?? run.model.name}, robot ${run.model.robot ?? run.model.preset}\n${detail.textContent}`;
        const remove = document.createElement('button');
        remove.className = 'pin-remove';
        remove.textContent = '×';
        remove.title = 'Remove this pinned run';
        remove.addEventListener('click', () => this.remove(run.n));
        item.append(shown, swatch, text, remove);
        return item;
      }),
    );
  }

  /** Every pinned run and the current one as one CSV: a `run` column first, "#" lines naming each run. */
  exportCsv(date = new Date()) {
    const { state } = this;
    const runs = this.runs.map((run) => ({ id: `run ${run.n}`, label: run.label, outcome: run.outcome, scenario: run.scenario, model: run.model, telemetry: run.telemetry }));
    if (state.model && state.telemetry?.rows) {
      const row = state.telemetry.rows - 1;
      const stopped = state.outcome ? { outcome: state.outcome, message: state.error } : null;
      runs.push({
        id: 'current',
        label: `current: ${state.scenario?.name ?? state.model.name}`,
        outcome: describeOutcome(state, row, stopped).text,
        scenario: state.scenario,
        model: state.model,
        telemetry: state.telemetry,
      });
    }
    if (!runs.length) return;
    // csvComments' lines about one run, each run's named by its id; the app, the export time and the numbers once.
    const once = /^(Roverlab |exported: |numbers: )/;
    const comments = [
      `Roverlab ${version} telemetry of ${runs.length} runs, one after another: the run column names each (${runs.map((r) => r.id).join(', ')})`,
      `exported: ${date.toISOString()}`,
      'numbers: 6 significant digits, integers as they are; an empty cell: a column that run does not have',
      ...runs.flatMap((r) => [
        `${r.label}; outcome: ${r.outcome || 'none'}`,
        ...csvComments({ scenario: r.scenario, model: r.model, telemetry: r.telemetry, version, date })
          .filter((line) => !once.test(line))
          .map((line) => `${r.id} ${line}`),
      ]),
    ];
    const name = exportName(state.scenario?.name ?? state.model?.name, date, 'csv', 'runs');
    download(name, new Blob(runsCsvParts(runs, comments), { type: 'text/csv' }), 'text/csv');
  }
}

/** A pinned run from its record ({ n, colour, shown, scenario, model, outcome, columns, stride, data }). */
function runOf(record) {
  const telemetry = Telemetry.of(record.columns, record.data, record.stride);
  return {
    n: record.n,
    label: `run ${record.n}`,
    colour: record.colour,
    shown: record.shown,
    scenario: record.scenario,
    model: record.model,
    outcome: record.outcome,
    kept: true,
    telemetry,
    quantities: quantities(record.columns, record.model.wheels),
  };
}

/** The record kept of a pinned run (its rows as a Float64Array of their size). */
function recordOf(run) {
  const { n, colour, shown, scenario, model, outcome, telemetry } = run;
  return { n, colour, shown, scenario, model, outcome, columns: telemetry.columns, stride: telemetry.stride, data: telemetry.data };
}
