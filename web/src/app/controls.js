// The toolbar's run controls and the keyboard: play / pause, single step,
// reset, the automatic controller, the speed; Ctrl+Z / Ctrl+Shift+Z undo and
// redo the editor's document; the driving keys (a driving key hands control
// from the automatic controller to the operator); the telemetry as CSV.
import { exportCsv } from './files.js';

export function wireControls({ state, run, client, doc, banners }, $ = (id) => document.getElementById(id)) {
  const controllerOn = () => $('controller').checked;
  $('play').addEventListener('click', () => run.togglePlaying());
  $('step').addEventListener('click', () => run.stepOnce());
  $('reset').addEventListener('click', () => run.reset(controllerOn()));
  $('controller').addEventListener('input', () => client.send({ type: 'controller', on: controllerOn() }));
  $('speed').addEventListener('change', () => client.send({ type: 'speed', speed: Number($('speed').value) }));
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
      $('controller').checked = false;
      client.send({ type: 'controller', on: false });
      banners.show('Operator mode: the automatic controller is off. Tick “automatic controller” to hand back.', 'info');
    }
    e.preventDefault();
  });
  window.addEventListener('keyup', (e) => state.driver?.key(e, false));
}
