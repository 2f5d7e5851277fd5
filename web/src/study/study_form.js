// The Study tab's form: the study document (study_document.js) as fields.
// Its name, the duration of each run, each parameter (a path offered from
// the scenario or typed by hand, with its unit, range and value in the
// scenario; a range from/to/steps or a list of values; for a box's height,
// whether the box keeps its bottom), the question asked of each run (the
// predicate), and grid or threshold search. Every change gives the new
// document to onEdit; a change of shape (a parameter added or removed, a
// path, the kind of search or test) draws the form again. The core's issues
// are marked at their fields (data-path: the issue's path).
import {
  PREDICATE_TESTS,
  addParameter,
  bottomLink,
  durationOf,
  newThreshold,
  numberOrNull,
  parameterForm,
  parametersOf,
  predicateForm,
  removeParameter,
  thresholdForm,
  withDuration,
  withParameter,
  withPredicate,
  withThreshold,
  defaultRange,
} from './study_document.js';
import { showValue } from './study_view.js';

/** Most parameters the form adds (a document may have more: they are shown all the same). */
export const MAX_FORM_PARAMETERS = 4;

export function el(tag, props = {}, ...children) {
  const { dataset, ...rest } = props;
  const e = Object.assign(document.createElement(tag), rest);
  Object.assign(e.dataset, dataset ?? {});
  e.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return e;
}

const numberInput = (value, path, props = {}) => el('input', { type: 'number', step: 'any', value: value ?? '', dataset: { path }, ...props });

/** "m, 0.02 … 2, now 0.19" for a suggestion. */
function hintOf(s) {
  if (!s) return 'a path typed by hand (as --set takes it)';
  const unit = s.unit && s.unit !== '-' ? s.unit : '';
  const range = Number.isFinite(s.min) && Number.isFinite(s.max) ? `${showValue(s.min)} … ${showValue(s.max)}` : Number.isFinite(s.min) ? `≥ ${showValue(s.min)}` : '';
  return [s.label, unit, range, s.value !== null && s.value !== undefined ? `now ${showValue(s.value)}` : ''].filter(Boolean).join(' · ');
}

export class StudyForm {
  /** @param container  the form's element; onEdit(study) hears of each change */
  constructor(container, onEdit) {
    this.container = container;
    this.onEdit = onEdit;
    this.study = null;
    this.suggestions = [];
    this.list = el('datalist', { id: 'study-paths' });
  }

  /** Draws the form for `study`; suggestions: the paths offered (parameterSuggestions). */
  show(study, suggestions) {
    this.study = study;
    this.suggestions = suggestions;
    this.list.replaceChildren(...suggestions.map((s) => el('option', { value: s.path, label: hintOf(s) })));
    const focused = this.container.contains(document.activeElement) ? document.activeElement.dataset.path : null;
    this.container.replaceChildren(this.list, this.header(), this.parameters(), this.question(), this.search());
    if (focused) this.container.querySelector(`[data-path="${CSS.escape(focused)}"]`)?.focus();
  }

  /** A change: the new document goes out; `redraw` draws the form again (its shape changed). */
  edit(study, redraw = false) {
    this.study = study;
    this.onEdit(study);
    if (redraw) this.show(study, this.suggestions);
  }

  suggestion(path) {
    return this.suggestions.find((s) => s.path === path) ?? null;
  }

  header() {
    const { study } = this;
    const name = el('input', { type: 'text', value: study.name ?? '', dataset: { path: 'name' }, className: 'study-name' });
    name.addEventListener('input', () => this.edit({ ...this.study, name: name.value }));
    const duration = numberInput(durationOf(study), 'scenario.simulation.duration', { min: 0, className: 'study-duration' });
    duration.addEventListener('input', () => this.edit(withDuration(this.study, numberOrNull(duration.value))));
    return el(
      'div',
      { className: 'study-header' },
      el('label', {}, 'name ', name),
      el('label', { title: "The base scenario's simulation.duration: every run lasts this long" }, 'each run lasts ', duration, ' s'),
    );
  }

  parameters() {
    const { study } = this;
    const params = parametersOf(study);
    const add = el('button', { type: 'button', className: 'study-add', textContent: '+ Add a parameter', disabled: params.length >= MAX_FORM_PARAMETERS });
    add.addEventListener('click', () => this.edit(addParameter(this.study, this.suggestions), true));
    return el(
      'fieldset',
      { className: 'study-params' },
      el('legend', {}, 'Parameters ', el('small', {}, '(every combination of their values is run)')),
      ...params.map((p, i) => this.parameter(p, i)),
      add,
    );
  }

  parameter(p, i) {
    const form = parameterForm(p);
    const at = `parameters[${i}]`;
    const set = (fields, redraw = false) => this.edit(withParameter(this.study, i, { ...parameterForm(parametersOf(this.study)[i]), ...fields }), redraw);
    const path = el('input', { type: 'text', value: form.path, dataset: { path: `${at}.path` }, className: 'study-path', placeholder: 'e.g. robot.params.wheel_radius' });
    path.setAttribute('list', 'study-paths');
    path.addEventListener('change', () => {
      const s = this.suggestion(path.value.trim());
      // A path offered: its range around the scenario's value; a box's height keeps its bottom.
      const fields = { path: path.value.trim(), keepBottom: true };
      if (s && form.kind === 'range') Object.assign(fields, defaultRange(s));
      set(fields, true);
    });
    const remove = el('button', { type: 'button', className: 'icon', textContent: '×', title: 'Remove this parameter' });
    remove.addEventListener('click', () => this.edit(removeParameter(this.study, i), true));
    const kind = el('select', { dataset: { path: `${at}.kind` } }, el('option', { value: 'range', textContent: 'from … to' }), el('option', { value: 'values', textContent: 'values' }));
    if (form.kind === 'random') kind.append(el('option', { value: 'random', textContent: 'random samples' }));
    kind.value = form.kind;
    kind.addEventListener('change', () => {
      const values = parametersOf(this.study)[i]?.values ?? [form.from, form.to].filter((v) => v !== null);
      set(kind.value === 'values' ? { kind: 'values', values: values.map((v) => JSON.stringify(v)).join(', ') } : { kind: kind.value, steps: form.steps ?? 3 }, true);
    });
    const values = [];
    if (form.kind === 'range') {
      for (const key of ['from', 'to', 'steps']) {
        const input = numberInput(form[key], `${at}.${key}`, key === 'steps' ? { min: 1, step: 1, className: 'study-steps' } : {});
        input.addEventListener('input', () => set({ [key]: numberOrNull(input.value) }));
        values.push(el('label', {}, `${key} `, input));
      }
    } else if (form.kind === 'values') {
      const input = el('input', { type: 'text', value: form.values, dataset: { path: `${at}.values` }, className: 'study-values', placeholder: '0.2, 0.25, 0.3' });
      input.addEventListener('input', () => set({ values: input.value }));
      values.push(input);
    } else {
      const r = form.random;
      values.push(el('span', { className: 'note' }, `${r?.count} samples in [${r?.from}, ${r?.to}), seed ${r?.seed} (edit in the study's JSON)`));
    }
    const link = bottomLink(this.study.scenario, form.path);
    let keep = null;
    if (link) {
      const box = el('input', { type: 'checkbox', checked: form.keepBottom });
      box.addEventListener('change', () => set({ keepBottom: box.checked }));
      keep = el('label', { className: 'study-keep', title: `Sets ${link[0].path} with it (also: scale 0.5)` }, box, ' the box keeps its bottom where it is');
    } else if (Array.isArray(form.also) && form.also.length) {
      keep = el('small', { className: 'note' }, `also sets ${form.also.map((l) => l?.path).join(', ')}`);
    }
    return el(
      'div',
      { className: 'study-param', dataset: { index: String(i) } },
      el('div', { className: 'study-param-path' }, path, remove),
      el('small', { className: 'study-hint' }, hintOf(this.suggestion(form.path))),
      el('div', { className: 'study-param-values' }, kind, ...values),
      keep,
    );
  }

  question() {
    const form = predicateForm(this.study);
    const test = el('select', { dataset: { path: 'predicates' }, className: 'study-test' }, ...PREDICATE_TESTS.map((t) => el('option', { value: t.test, textContent: t.label })));
    test.value = form.test;
    const apply = (fields, redraw = false) => this.edit(withPredicate(this.study, { ...predicateForm(this.study), ...fields }), redraw);
    test.addEventListener('change', () => {
      const start = Number(this.study.scenario?.robot?.pose?.position?.[0]) || 0;
      const name = form.test === 'flipped' ? 'climbed' : form.name;
      apply({ test: test.value, name, value: form.value ?? start + 1, within: null }, true);
    });
    const parts = [test];
    if (form.test !== 'flipped') {
      const name = el('input', { type: 'text', value: form.name, dataset: { path: `predicates.${form.name}` }, className: 'study-pred-name', title: 'The name of the question: a column of the results (letters, digits, _)' });
      name.addEventListener('change', () => apply({ name: name.value.trim() }, true));
      const value = numberInput(form.value, `predicates.${form.name}.${form.test}`, { className: 'study-pred-value' });
      value.addEventListener('input', () => apply({ value: numberOrNull(value.value) }));
      parts.unshift(name, ': ');
      parts.push(value, ' m');
      if (form.test === 'reached_x') {
        const within = numberInput(form.within, `predicates.${form.name}.within_s`, { min: 0, placeholder: 'any time' });
        within.addEventListener('input', () => apply({ within: numberOrNull(within.value) }));
        parts.push(' within ', within, ' s');
      }
    }
    return el('fieldset', { className: 'study-question' }, el('legend', {}, 'Question asked of each run'), el('div', { className: 'study-pred' }, ...parts));
  }

  search() {
    const t = thresholdForm(this.study);
    const radio = (value, label, checked) => {
      const input = el('input', { type: 'radio', name: 'study-kind', value, checked });
      input.addEventListener('change', () =>
        this.edit(value === 'grid' ? withThreshold(this.study, null) : withThreshold(this.study, newThreshold(this.study, this.suggestions)), true),
      );
      return el('label', { className: 'study-kind' }, input, ` ${label}`);
    };
    const parts = [
      el('legend', {}, 'Runs'),
      radio('grid', 'every combination (a grid)', !t),
      radio('threshold', 'a threshold search of one more parameter, for every combination', Boolean(t)),
    ];
    if (t) {
      const set = (fields, redraw = false) => this.edit(withThreshold(this.study, { ...thresholdForm(this.study), ...fields }), redraw);
      const path = el('input', { type: 'text', value: t.path, dataset: { path: 'threshold.path' }, className: 'study-path' });
      path.setAttribute('list', 'study-paths');
      path.addEventListener('change', () => {
        const s = this.suggestion(path.value.trim());
        const range = s ? defaultRange(s) : {};
        set({ path: path.value.trim(), ...range, ...(s ? { tolerance: Number(((range.to - range.from) / 64).toPrecision(3)) } : {}), keepBottom: true }, true);
      });
      const fields = ['from', 'to', 'tolerance'].map((key) => {
        const input = numberInput(t[key], `threshold.${key}`);
        input.addEventListener('input', () => set({ [key]: numberOrNull(input.value) }));
        return el('label', {}, `${key} `, input);
      });
      const link = bottomLink(this.study.scenario, t.path);
      let keep = null;
      if (link) {
        const box = el('input', { type: 'checkbox', checked: t.keepBottom });
        box.addEventListener('change', () => set({ keepBottom: box.checked }));
        keep = el('label', { className: 'study-keep' }, box, ' the box keeps its bottom where it is');
      }
      parts.push(
        el(
          'div',
          { className: 'study-threshold' },
          el('div', { className: 'study-param-path' }, path),
          el('small', { className: 'study-hint', dataset: { path: 'threshold.predicate' } }, `${hintOf(this.suggestion(t.path))} · bisected until “${this.study.threshold?.predicate}” changes`),
          el('div', { className: 'study-param-values' }, ...fields),
          keep,
        ),
      );
    }
    return el('fieldset', { className: 'study-search' }, ...parts);
  }

  /** Marks each field an issue names (its path, or a path inside it) with the core's message. */
  markIssues(issues) {
    for (const field of this.container.querySelectorAll('[data-path]')) {
      const p = field.dataset.path;
      const mine = issues.filter((i) => i.path === p || i.path.startsWith(`${p}.`) || i.path.startsWith(`${p}[`));
      field.dataset.help ??= field.title;
      field.classList.toggle('invalid', mine.length > 0);
      field.title = mine.length ? mine.map((i) => `${i.path}: ${i.message}`).join('\n') : field.dataset.help;
    }
  }
}
