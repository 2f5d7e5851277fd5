// The Robot tab: the robot on show, from its description (the model's
// robotDescription, whatever the robot comes from): its name, source, mass
// and wheels; its links, each under its parent through its joint (type, axis,
// range, mimic, drives, wheel, and the joint's value at the time on show when
// the telemetry has it); a slider per named joint drive that sets its initial
// target (control.joints); and, for a robot given as its own description
// (robot.model), each link's mass, each wheel's radius and width and each
// drive's gain and limit as fields. Every change is one undoable command on
// the document that restarts the run; a value the core refuses is marked at
// its field with the core's message.
import { releaseAfterPointerUse } from '../common/keyboard_focus.js';
import { scenarioFile } from '../scenario/scenarios.js';
import {
  axisText,
  issueAt,
  jointTarget,
  modelPaths,
  modelValue,
  robotTree,
  sliderRange,
  sourceText,
  withJointTarget,
  withModelValue,
  withOwnDescription,
} from './robot_tree.js';

const LIVE_EVERY_MS = 200;  // the live joint values are rewritten at most this often
const NBSP = '\u00a0';      // between a number and its unit: they stay on one line
/** What the tab's Try this opens: articulated6 before the step, its front section folded up at the start. */
export const ROBOT_EXAMPLE = { scenario: 'step-articulated6', drive: 'fold_front', target: 0.6 };

function el(tag, props = {}, ...children) {
  const { dataset, ...rest } = props;
  const e = Object.assign(document.createElement(tag), rest);
  Object.assign(e.dataset, dataset ?? {});
  e.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return e;
}

/** A number as the panel shows it: 4 significant digits. */
const num = (v) => String(Number(Number(v).toPrecision(4)));
const round4 = (v) => Number(v.toFixed(4));
/** A live value to `digits` decimals, without a sign on what rounds to zero. */
const fixed = (v, digits) => (Math.abs(v) < 0.5 * 10 ** -digits ? 0 : v).toFixed(digits);

export class RobotTab {
  constructor({ state, signals, doc }, $ = (id) => document.getElementById(id)) {
    Object.assign(this, { state, doc });
    this.container = $('robot');
    this.active = false;
    this.model = null;  // the model the panel shows
    this.fields = [];   // [{ path (in the scenario), line, message }] of the fields that take the core's issues
    this.lives = [];    // [{ element, column, unit, digits }] of the joint values shown live
    this.liveAt = 0;
    signals.tabChanged.add((tab) => this.tabChanged(tab));
    signals.scenarioLoaded.add(() => this.active && this.render());
    signals.issues.add(() => this.markIssues());
    signals.frame.add((shown, now) => this.showLive(shown, now));
  }

  /** The side panel shows `tab`: this one is drawn for the model on show. */
  tabChanged(tab) {
    this.active = tab === 'robot';
    if (this.active && this.model !== this.state.model) this.render();
  }

  /** Opens ROBOT_EXAMPLE: one undoable command, the run restarted on it. */
  async tryExample() {
    const { scenario, drive, target } = ROBOT_EXAMPLE;
    const text = await scenarioFile(scenario).load();
    this.doc.replace(`open ${scenario}, ${drive} target = ${target}`, withJointTarget(JSON.parse(text), drive, target), { restart: true });
  }

  render() {
    const { state, doc, container } = this;
    const model = state.model;
    // A field of the description being used keeps the focus when the panel is made again.
    const focused = container.contains(document.activeElement) ? document.activeElement.dataset.path : undefined;
    this.model = model;
    this.fields = [];
    this.lives = [];
    container.textContent = '';
    if (!model?.robotDescription) {
      container.append(el('p', { className: 'note' }, 'The robot is shown here once its run is built.'));
      return;
    }
    const tree = robotTree(model.robotDescription, model.columns);
    const own = model.source === 'model' && doc.scenario.robot?.model ? doc.scenario.robot.model : null;
    container.append(
      el('h2', { className: 'robot-name' }, tree.name, ' ', el('small', {}, `from ${sourceText(model, doc.scenario)}`)),
      el(
        'p',
        { className: 'robot-facts' },
        `${num(tree.mass)} kg in all · ${tree.wheelCount} ${tree.wheelCount === 1 ? 'wheel' : 'wheels'} · ` +
          `${tree.linkCount} links, ${tree.jointCount} joints · ${tree.baseKind} base`,
      ),
      this.sourceNote(model, own),
      this.driveSliders(model),
      el('h3', {}, 'Links and joints ', el('small', {}, tree.root?.children.some(hasLive) ? '(now: the value at the time on show)' : '')),
      el('ul', { className: 'robot-tree' }, tree.root ? this.node(tree.root, own) : el('li', {}, 'The base link is missing from the description.')),
    );
    this.markIssues();
    if (focused) container.querySelector(`input[data-path="${focused}"]`)?.focus();
  }

  /** What can be edited here, by where the robot comes from. */
  sourceNote(model, own) {
    if (own)
      return el(
        'p',
        { className: 'note' },
        'Each link’s mass, each wheel’s radius and width and each drive’s gain and limit can be changed below: ' +
          'each change restarts the run (Ctrl+Z undoes it); a value the core refuses is marked at its field.',
      );
    const button = el('button', {
      className: 'robot-own',
      textContent: 'Edit it as its own description',
      title: 'Put this robot in the scenario as its description (robot.model), to change its links, wheels and drives here (one undo step)',
    });
    button.addEventListener('click', () =>
      this.doc.replace(`${model.robot} as its own description`, withOwnDescription(this.doc.scenario, model.robotDescription), { restart: true }),
    );
    const why =
      model.source === 'preset'
        ? `Its parameters are in the Simulate tab’s Parameters panel (the preset ${model.preset}). `
        : 'Its description is read from the scenario’s robot file or URDF. ';
    return el('p', { className: 'note' }, why, 'To change each link, wheel and drive here: ', button);
  }

  /** A slider per named joint drive (model.joints): its initial target, control.joints[name]. */
  driveSliders(model) {
    const box = el('div', { className: 'robot-drives' }, el('h3', {}, 'Joint drives at the start ', el('small', {}, '(control.joints: each drive’s target from t = 0; a change restarts the run)')));
    if (!model.joints.length) {
      box.append(el('p', { className: 'note' }, 'This robot has no named joint drives (its controls.joints is empty): nothing to pose.'));
      return box;
    }
    for (const drive of model.joints) {
      const unit = drive.prismatic ? 'm' : 'rad';
      const { min, max, step } = sliderRange(drive);
      const value = jointTarget(this.doc.scenario, drive.name);
      const slider = el('input', { type: 'range', min, max, step, value, title: `${drive.name}: ${num(min)} … ${num(max)} ${unit}` });
      const number = el('input', { type: 'number', step: 'any', value: String(value) });
      const message = el('span', { className: 'message' });
      const name = el('span', { className: 'drive-name', title: drive.name }, drive.name);
      const line = el('div', { className: 'robot-drive', dataset: { drive: drive.name } }, name, slider, number, el('span', { className: 'unit' }, unit), message);
      releaseAfterPointerUse(slider);
      slider.addEventListener('input', () => (number.value = String(round4(Number(slider.value)))));
      slider.addEventListener('change', () => this.setTarget(drive, round4(Number(slider.value)), line, message));
      number.addEventListener('change', () => {
        const v = Number(number.value);
        const ranged = Number.isFinite(v) && number.value.trim() !== '' && !(v < (drive.lower ?? -Infinity) || v > (drive.upper ?? Infinity));
        if (!ranged) return this.mark(line, message, `must be a number${drive.lower === undefined ? '' : ` in [${num(drive.lower)}, ${num(drive.upper)}] ${unit}`}`);
        this.setTarget(drive, v, line, message);
      });
      this.fields.push({ path: `control.joints.${drive.name}`, line, message });
      box.append(line);
    }
    return box;
  }

  setTarget(drive, value, line, message) {
    this.mark(line, message, '');
    this.doc.replace(`${drive.name} target = ${value}`, withJointTarget(this.doc.scenario, drive.name, value), { restart: true });
  }

  /** One node of the tree: the link, the joint it hangs on, its wheel and drives, and its children. */
  node(n, own) {
    const li = el('li', { dataset: { link: n.link.name } });
    li.append(el('div', { className: 'robot-line link-line' }, el('b', {}, n.link.name), ' ', this.value(own, modelPaths.mass(n.link.index), n.link.mass, 'kg', `${n.link.name} mass`)));
    const j = n.joint;
    if (j) {
      const moving = j.type !== 'fixed';
      const live = n.live && !n.wheel ? el('span', { className: 'live', title: 'at the time on show' }) : null;
      li.append(
        el(
          'div',
          { className: 'robot-line joint-line', dataset: { joint: j.name } },
          `${j.type} joint `,
          el('span', { className: 'joint-name' }, j.name),
          moving ? ` · ${j.unit === 'm' ? 'along' : 'about'} ${axisText(j.axis)}` : ' · welded to its parent',
          j.limit ? ` · ${num(j.limit.lower)} … ${num(j.limit.upper)}${NBSP}${j.unit}` : moving && j.type === 'continuous' ? ' · no limit' : '',
          j.mimic ? ` · follows ${j.mimic.joint}${j.mimic.multiplier !== 1 ? ` × ${num(j.mimic.multiplier)}` : ''}${j.mimic.offset ? ` + ${num(j.mimic.offset)}${NBSP}${j.unit}` : ''}` : '',
          live,
        ),
      );
      if (live) this.lives.push({ element: live, column: n.live.column, unit: n.live.unit, digits: 3 });
      for (const d of n.drives) {
        li.append(
          el(
            'div',
            { className: 'robot-line drive-line', dataset: { actuator: d.name } },
            `drive ${d.name}: ${d.mode}`,
            d.units.gain ? ', gain ' : '',
            d.units.gain ? this.value(own, modelPaths.gain(d.index), d.gain, d.units.gain, `${d.name} gain`) : '',
            ', limit ',
            this.value(own, modelPaths.limit(d.index), d.limit, d.units.limit, `${d.name} limit`),
            d.gearRatio !== 1 ? ` × gear ${num(d.gearRatio)}` : '',
          ),
        );
      }
      if (n.wheel) {
        const spin = n.live ? el('span', { className: 'live', title: 'spin speed at the time on show' }) : null;
        li.append(
          el(
            'div',
            { className: 'robot-line wheel-line', dataset: { wheel: n.wheel.index } },
            'wheel: radius ',
            this.value(own, modelPaths.radius(n.wheel.index), n.wheel.radius, 'm', `${n.link.name} radius`),
            ', width ',
            this.value(own, modelPaths.width(n.wheel.index), n.wheel.width, 'm', `${n.link.name} width`),
            spin,
          ),
        );
        if (spin) this.lives.push({ element: spin, column: n.live.column, unit: n.live.unit, digits: 2 });
      }
    }
    if (n.children.length) li.append(el('ul', {}, ...n.children.map((c) => this.node(c, own))));
    return li;
  }

  /** A number of the description: a field when the robot is its own description (`own`), else its text. */
  value(own, path, shown, unit, label) {
    if (!own) return el('span', { className: 'value' }, `${num(shown)}${NBSP}${unit}`);
    const current = modelValue(own, path) ?? shown;
    const input = el('input', { type: 'number', step: 'any', value: String(current), title: `robot.model.${path} (${unit})` });
    input.dataset.path = path;
    const message = el('span', { className: 'message' });
    const field = el('span', { className: 'robot-field' }, input, el('span', { className: 'unit' }, unit), message);
    input.addEventListener('change', () => {
      const v = Number(input.value);
      if (input.value.trim() === '' || !Number.isFinite(v)) return this.mark(field, message, 'must be a number');
      if (!this.doc.scenario.robot?.model) return this.mark(field, message, 'the scenario’s robot is no longer its own description');
      this.mark(field, message, '');
      this.doc.replace(`${label} = ${v}`, withModelValue(this.doc.scenario, path, v), { restart: true });
    });
    this.fields.push({ path: `robot.model.${path}`, line: field, message });
    return field;
  }

  mark(line, message, text) {
    line.classList.toggle('invalid', Boolean(text));
    message.textContent = text;
  }

  /** The issues of the scenario last rejected (the app state's) at the fields they name. */
  markIssues() {
    for (const { path, line, message } of this.fields) {
      const issue = issueAt(this.state.issues, path);
      this.mark(line, message, issue ? issue.message : '');
    }
  }

  /** The joints' values in the frame on show, while the tab is open. */
  showLive(shown, now) {
    if (!this.active || !shown || !this.lives.length || this.model !== this.state.model || now - this.liveAt < LIVE_EVERY_MS) return;
    this.liveAt = now;
    const row = this.model.layout.row;
    const { a, b, s } = shown;
    for (const { element, column, unit, digits } of this.lives) {
      const k = row + column;
      element.textContent = `now ${fixed(a[k] + s * (b[k] - a[k]), digits)} ${unit}`;
    }
  }
}

const hasLive = (n) => Boolean(n.live) || n.children.some(hasLive);
