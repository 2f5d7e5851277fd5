// The scenario and robot pickers of the toolbar and the parameter panel:
// each choice or change is an undoable command on the editor's document
// that restarts the run; a rejected parameter is marked at its field. Under
// them the scenario's description, the document's own: it follows every
// change (a robot change rewrites it, "Based on …"), and a click edits it
// (Enter or leaving the field keeps the text: an undoable command, saved and
// shared with the scenario; Escape drops the typing).
import { renderParams } from './params_panel.js';
import { scenarios, withMaterial, withParam, withPreset, withSimulation } from '../scenario/scenarios.js';
import { releaseAfterPointerUse } from '../common/keyboard_focus.js';

/**
 * Wires the pickers; returns the scenario picker, the one way other modules
 * read or set it: { id } the scenario file on show ('' for the user's own
 * scenario), show(id) names it without opening it, pick(id) opens it as a
 * pick by hand does.
 */
export function wirePickers({ state, signals, doc, initialId }, $ = (id) => document.getElementById(id)) {
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
  select.addEventListener('change', () => {
    const file = scenarios.find((s) => s.id === select.value);
    if (file) doc.replace(`open ${file.id}`, JSON.parse(file.text), { restart: true });
  });
  $('preset').addEventListener('change', () =>
    doc.replace(`robot ${$('preset').value}`, withPreset(doc.scenario, $('preset').value), { restart: true }),
  );
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
      $('preset').append(o);
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
    about.hidden = false;
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
    $('preset').value = model.preset;
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
    },
  };
}
