// The toolbar's run controls and the keyboard: play / pause, single step,
// reset, the automatic controller, the speed; Ctrl+Z / Ctrl+Shift+Z undo and
// redo the editor's document; the driving keys (a driving key hands control
// from the automatic controller to the operator); the telemetry as CSV.
import { exportCsv } from '../common/files.js';
import { releaseAfterPointerUse } from '../common/keyboard_focus.js';
import { formatSeconds } from './run.js';

export function wireControls({ state, signals, run, client, doc, banners }, $ = (id) => document.getElementById(id)) {
  const controllerOn = () => state.controllerOn;
  const setController = (on) => {
    $('controller').checked = state.controllerOn = on;
  };
  state.speed = Number($('speed').value);
  setController($('controller').checked);
  for (const input of [$('controller'), $('speed')]) releaseAfterPointerUse(input);
  // ▶ Play, ❚❚ Pause, or ▶ Continue once the run finished at its duration.
  signals.playChanged.add(() => {
    const button = $('play');
    const extend = !state.playing && state.finishedAt !== null && !state.scrubbing;
    button.textContent = state.playing ? '❚❚ Pause' : extend ? '▶ Continue' : '▶ Play';
    button.title = extend ? `Play on past the scenario's duration (${formatSeconds(state.finishedAt)}) (Space)` : 'Play / pause (Space)';
  });
  // A new run: Play and Step work (disabled until the first is built), its controller (if any) on.
  signals.scenarioLoaded.add((model) => {
    $('play').disabled = $('step').disabled = false;
    $('controller-box').hidden = model.controller === 'none';
    setController(true);
  });
  $('play').addEventListener('click', () => run.togglePlaying());
  $('step').addEventListener('click', () => run.stepOnce());
  $('reset').addEventListener('click', () => run.reset(controllerOn()));
  $('controller').addEventListener('input', () => {
    setController($('controller').checked);
    client.setController(controllerOn());
  });
  $('speed').addEventListener('change', () => {
    state.speed = Number($('speed').value);
    client.setSpeed(state.speed);
  });
  $('csv').addEventListener('click', () => exportCsv(state));
  window.addEventListener('keydown', (e) => {
    const typing = (e.target instanceof HTMLInputElement && e.target.type === 'text') || e.target.isContentEditable;
    const key = e.key.toLowerCase();
    if ((e.ctrlKey || e.metaKey) && !typing && (key === 'z' || key === 'y')) {
      if (e.shiftKey || key === 'y') doc.redo();
      else doc.undo();
      e.preventDefault();
      return;
    }
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target.isContentEditable) return;
    if (e.key === ' ') run.togglePlaying();
    else if (e.key === '.') $('step').click();
    else if (e.key === 'Backspace') $('reset').click();
    else if (!state.driver?.key(e, true)) return;
    else if (state.model?.controller !== 'none' && controllerOn()) {
      // A driving key takes over from the automatic controller (operator mode).
      setController(false);
      client.setController(false);
      banners.show('Operator mode: the automatic controller is off. Tick “automatic controller” to hand back.', 'info');
    }
    e.preventDefault();
  });
  window.addEventListener('keyup', (e) => state.driver?.key(e, false));
}
