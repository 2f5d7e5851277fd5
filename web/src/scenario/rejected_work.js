// The work the page opens with (autosaved, or from the address) rejected by
// the core, e.g. an edit saved just before the reload that makes two quad rows
// overlap: the default scenario runs instead, so the view, the parameters and
// the plots are there, while the work stays in the editor and in the autosave,
// with its undo history. A banner lists the issues and offers the ways out:
// fix it in the editor, undo the last change, or discard it.
import { formatIssues } from '../common/issues.js';
import { DEFAULT_ID, defaultScenario } from './scenarios.js';

export function rejectedAtStart({ state, signals, doc, client, banners, issues }, $ = (id) => document.getElementById(id)) {
  client.load(defaultScenario());
  const actions = [{ label: 'Fix it in the editor', run: () => $('tab-edit').click() }];
  if (doc.canUndo) {
    actions.push({
      label: `Undo “${doc.undoStack.at(-1).label}”`,
      run: () => {
        doc.undo();
        client.load(doc.scenario, { onRejected: (again) => rejectedAtStart({ state, signals, doc, client, banners, issues: again }) });
      },
    });
  }
  actions.push({ label: 'Discard it', run: () => doc.replace('discard the work that was not valid', defaultScenario(), { restart: true }) });
  // After the default's model: its load clears the banner of the run before.
  const remove = signals.scenarioLoaded.add(() => {
    remove();
    banners.show(`Your saved work is not valid, so ${DEFAULT_ID} runs instead; your work is still in the editor:\n${formatIssues(issues)}`, 'warning', actions);
  });
}
