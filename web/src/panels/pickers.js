// The scenario and robot pickers of the toolbar and the parameter panel:
// each choice or change is an undoable command on the editor's document
// that restarts the run; a rejected parameter is marked at its field. Under
// them the scenario's description, the document's own: it follows every
// change (a robot change rewrites it, "Based on …"), and a click edits it
// (Enter or leaving the field keeps the text: an undoable command, saved and
// shared with the scenario; Escape drops the typing). The robot picker also
// names a scenario's own robot and imports one (import/robot_import.js).
import { renderParams } from './params_panel.js';
import { scenarioFile, scenarios, withMaterial, withParam, withPreset, withSimulation } from '../scenario/scenarios.js';
import { releaseAfterPointerUse } from '../common/keyboard_focus.js';

// The robot picker's values for the scenario's own robot and for "Import robot…".
const OWN_ROBOT = ':own';
const IMPORT_ROBOT = ':import';

/**
 * Wires the pickers; returns the scenario picker, the one way other modules
 * read or set it: { id } the scenario file on show ('' for the user's own
 * scenario), show(id) names it without opening it, pick(id) opens it as a
 * pick by hand does (resolves once it is the document's scenario).
 */
export function wirePickers({ state, signals, doc, client, banners, initialId }, $ = (id) => document.getElementById(id)) {
  const select = $('scenario');
  const mine = document.createElement('option');
  mine.value = '';
  mine.textContent = 'your scenario (edited)';
  mine.disabled = true;  // a label for the current scenario, not a choice
  select.append(mine);
  for (const s of scenarios) {
    const o = document.createElement('option');
    o.value = s.id;
    o.textContent = s.name ? `${s.id} — ${s.name}` : s.id;
    select.append(o);
  }
  select.value = initialId;  // '' for the user's own scenario
  for (const picker of [select, $('preset')]) releaseAfterPointerUse(picker);
  // A file's text is fetched the first time it is picked; the newest pick is opened.
  let picks = 0;
  let opening = Promise.resolve();
  const open = async (file) => {
    const pick = ++picks;
    const text = file.text ?? (await file.load());
    if (pick === picks) doc.replace(`open ${file.id}`, JSON.parse(text), { restart: true });
  };
  select.addEventListener('change', () => {
    const file = scenarioFile(select.value);
    if (file) opening = open(file);
  });
  // The robot picker: the presets, the scenario's own robot (a description,
  // shown while it runs) and "Import robot…", which asks for a URDF with its
  // meshes (or a .zip of them).
  const robotPicker = $('preset');
  const own = document.createElement('option');
  own.value = OWN_ROBOT;
  own.hidden = true;
  const importing = document.createElement('option');
  importing.value = IMPORT_ROBOT;
  importing.textContent = 'Import robot…';
  importing.title = 'A URDF with its STL meshes (several files, or a .zip)';
  robotPicker.append(own, importing);
  let shown = '';  // the picker's value for the robot running
  robotPicker.addEventListener('change', () => {
    const value = robotPicker.value;
    robotPicker.value = shown;
    if (value === IMPORT_ROBOT) $('robot-files').click();
    else if (value !== OWN_ROBOT) doc.replace(`robot ${value}`, withPreset(doc.scenario, value), { restart: true });
  });
  $('robot-files').addEventListener('change', (event) => {
    const files = [...event.target.files];
    event.target.value = '';  // the same files may be picked again
    if (files.length) import('../import/robot_import.js').then(({ importRobot }) => importRobot({ doc, client, banners }, files));
  });
  // The scenario picker names a file only while the scenario is that file as opened.
  doc.onChange((scenario, info) => {
    if (info.kind !== 'preview' && info.label !== `open ${select.value}`) select.value = '';
  });

  signals.presetsLoaded.add((presets) => {
    for (const p of presets) {
      const o = document.createElement('option');
      o.value = p.preset;
      o.textContent = p.preset;
      o.title = p.description;
      robotPicker.insertBefore(o, own);
    }
  });

  const onParamChange = (kind, key, value) => {
    const next =
      kind === 'param'
        ? withParam(doc.scenario, key, value)
        : kind === 'material'
          ? withMaterial(doc.scenario, key, value)
          : withSimulation(doc.scenario, key, value);
    doc.replace(`${key} = ${value}`, next, { restart: true });
  };
  const about = $('about');
  const showDescription = (scenario) => {
    if (document.activeElement === about) return;  // being typed
    about.textContent = scenario.description ?? '';
    about.classList.toggle('empty', !scenario.description);
  };
  about.contentEditable = 'plaintext-only';
  about.spellcheck = true;
  about.title = "The scenario's description: click to edit it (kept, saved and shared with the scenario)";
  about.dataset.placeholder = 'Describe this scenario (click to type)';
  about.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      about.blur();
    } else if (e.key === 'Escape') {
      about.textContent = doc.scenario.description ?? '';
      about.blur();
    }
  });
  about.addEventListener('blur', () => {
    const text = about.textContent.trim();
    if (text !== (doc.scenario.description ?? '')) doc.replace('description', { ...doc.scenario, description: text });
    showDescription(doc.scenario);
  });
  doc.onChange((scenario, info) => {
    if (info.kind !== 'preview') showDescription(scenario);
  });
  showDescription(doc.scenario);
  signals.scenarioLoaded.add((model) => {
    own.hidden = Boolean(model.preset);
    own.textContent = model.preset ? '' : `${model.robot} (own)`;
    shown = model.preset ?? OWN_ROBOT;
    robotPicker.value = shown;
    const specs = state.presets.find((p) => p.preset === model.preset)?.params ?? [];
    renderParams($('params'), { scenario: state.scenario, specs, onChange: onParamChange });
  });

  // A rejected scenario's issues at the parameters they name.
  signals.issues.add((issues) => {
    for (const input of $('params').querySelectorAll('input')) {
      const issue = issues.find((i) => i.path === `robot.params.${input.dataset.name}` || i.path.endsWith(`.${input.dataset.name}`));
      const row = input.closest('.param');
      row.classList.toggle('invalid', Boolean(issue));
      row.querySelector('.message').textContent = issue ? issue.message : '';
    }
  });

  return {
    get id() {
      return select.value;
    },
    show(id) {
      select.value = id;
    },
    pick(id) {
      select.value = id;
      select.dispatchEvent(new Event('change'));
      return opening;
    },
  };
}
