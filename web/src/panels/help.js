// The side panel's help: one paragraph per tab and a "Try this" button that
// does something worth seeing at once. Shown in #tab-help under the tabs, a
// details element the person can fold away; each tab's help is open the
// first time that tab is shown in this browser (remembered in local storage)
// and folded after.
const SEEN_KEY = 'roverlab.help.seen.v1';

/** Each tab's help: its text and what its button says; the actions are in wireHelp. */
export const TAB_HELP = {
  sim: {
    text:
      'The robot runs in real time on the scenario picked in the toolbar. Drive it with the arrow keys (or the on-screen pad ' +
      'on a touch screen), pause, step and scrub the timeline; change its parameters below and the run restarts; ' +
      'the plots follow the run and the telemetry exports as CSV. Drag in the view to orbit, scroll or pinch to zoom.',
    tryLabel: 'Try this: watch articulated6 climb the 0.65 m step',
  },
  edit: {
    text:
      'Edit the terrain the robot runs on: two rows of quads typed as three points each (the plane, normal and side ' +
      'vectors are shown), Track1, boxes and wedges, and the robot’s start; drag the points in the 3-D view. ' +
      '“Run on this terrain” restarts the robot on it; Undo, Save, Load and Share are at the top.',
    tryLabel: 'Try this: replace the terrain with stairs and run on it',
  },
  stance: {
    text:
      '[KJ2025]’s geometric algorithm places the rocker rover (rocker8) on a terrain of two quad rows, pose by pose ' +
      'along Track1: which wheels touch, how the body rolls and pitches. Step through the poses with the slider or Play.',
    tryLabel: 'Try this: open the depression terrain and place the rover',
  },
  crawler: {
    text:
      '[BSTU2019]: will a crawler’s link, turning about its support, pass a rectangular obstacle, touch it, or need a ' +
      'correction? The contact mode n, the kind v of the first contact and the correction update as you type or drag.',
    tryLabel: 'Try this: a link that meets the obstacle’s corner A',
  },
  robot: {
    text:
      'The robot on show as its description: each link under its parent through its joint (type, axis, range, drives, ' +
      'wheel), with the joints’ values as the run plays. The sliders set the joint drives’ targets at the start; a robot ' +
      'of its own (robot.model) has its masses, wheel sizes and drive gains and limits here to change. Each change ' +
      'restarts the run; Ctrl+Z undoes it.',
    tryLabel: 'Try this: articulated6 before the step, its front section folded up from the start',
  },
  study: {
    text:
      'Many runs of one scenario: pick one or two of its numbers (a robot parameter, a box’s size, the friction, the ' +
      'wheel speed) with their ranges and a question asked of each run, then Run: the runs go to this browser’s ' +
      'workers and their answers fill a map or a curve as they come. A threshold search bisects one more number ' +
      'until the answer changes. Click a cell or a point to watch that run; export the rows as CSV or share the study.',
    tryLabel: 'Try this: a 2 × 3 grid of the wheel rig, wheel size against speed',
  },
  controller: {
    text:
      'Write the robot’s controller as a JavaScript program: update(obs) reads the robot (pose, joints, wheels, contacts) ' +
      'every period of simulated time and returns wheel speeds, joint targets and values to plot. Start from an example; ' +
      'syntax errors are marked at their line; Apply runs it in this scenario from t = 0 (Save, the autosave and Share ' +
      'carry it). Its console lines are listed below, its plot values charted under the view.',
    tryLabel: 'Try this: the rocker rover on the slope, slowing down as it pitches',
  },
};

/** The scenario the Simulate tab's button opens. */
export const TRY_SCENARIO = 'climb-articulated6';

/** stanceTab, crawlerTab, robotTab, studyTab, controllerPanel: functions that resolve to the tab's object (loaded when first needed). */
export function wireHelp({ state, signals, editorTab, stanceTab, crawlerTab, robotTab, studyTab, controllerPanel, picker }, $ = (id) => document.getElementById(id)) {
  const storage = (() => {
    try {
      return window.localStorage;
    } catch {
      return null;
    }
  })();
  const seen = new Set(readSeen(storage));
  const actions = {
    sim: () => picker.pick(TRY_SCENARIO),  // as if picked: the run restarts and plays
    edit: () => editorTab.tryTemplate('stairs'),
    stance: async () => (await stanceTab()).openExample(),
    crawler: async () => (await crawlerTab()).showExample('vertex-a'),
    robot: async () => (await robotTab()).tryExample(),
    study: async () => (await studyTab()).tryExample(),
    controller: async () => (await controllerPanel()).tryExample(),
  };
  let current = null;
  const show = (tab) => {
    if (tab === current) return;  // the same tab again: the help stays as it is
    current = tab;
    const help = TAB_HELP[tab];
    $('tab-help-text').textContent = help.text;
    $('tab-help-try').textContent = help.tryLabel;
    $('tab-help').open = !seen.has(tab);
    if (!seen.has(tab)) {
      seen.add(tab);
      try {
        storage?.setItem(SEEN_KEY, JSON.stringify([...seen]));
      } catch {
        // storage full or disabled: the help opens again next time
      }
    }
  };
  $('tab-help-try').addEventListener('click', () => actions[state.tab ?? 'sim']());
  signals.tabChanged.add(show);
  show('sim');
}

function readSeen(storage) {
  try {
    const list = JSON.parse(storage?.getItem(SEEN_KEY) ?? '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}
