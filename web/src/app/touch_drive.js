// On-screen driving for touch and narrow screens: the driving keys as buttons
// over the view (style.css shows them on narrow or coarse-pointer screens),
// the arrows as a pad and a − / + pair per joint drive of the robot running.
// A button held down is its key held down: it dispatches the key's keydown on
// the window and its keyup on release, so controls.js handles it as the
// keyboard's (the hand-over from the automatic controller included). A joint
// button held down repeats, as a held key does.
const REPEAT_MS = 150;

export function wireTouchDrive({ state, signals }, $ = (id) => document.getElementById(id)) {
  signals.scenarioLoaded.add(() => {
    const { arrows, joints } = state.driver.buttons();
    $('drive-arrows').replaceChildren(...arrows.map((b) => keyButton(b, false)));
    $('drive-joints').replaceChildren(
      ...joints.map((j) => {
        const row = document.createElement('div');
        row.className = 'drive-joint';
        const name = document.createElement('span');
        name.textContent = j.name;
        row.append(name, keyButton(j.minus, true), keyButton(j.plus, true));
        return row;
      }),
    );
  });
}

/** A button that sends `key` while it is held (`repeat`: keydown again every REPEAT_MS). */
function keyButton({ key, label, title }, repeat) {
  const button = document.createElement('button');
  Object.assign(button, { type: 'button', textContent: label, title });
  button.setAttribute('aria-label', title);
  button.dataset.key = key;
  let timer = null;
  let held = false;
  const send = (type) => window.dispatchEvent(new KeyboardEvent(type, { key, bubbles: true, cancelable: true }));
  const release = () => {
    if (!held) return;
    held = false;
    clearInterval(timer);
    button.classList.remove('held');
    send('keyup');
  };
  button.addEventListener('pointerdown', (e) => {
    e.preventDefault();  // no focus, no text selection, no emulated mouse events
    button.setPointerCapture?.(e.pointerId);
    held = true;
    button.classList.add('held');
    send('keydown');
    if (repeat) timer = setInterval(() => send('keydown'), REPEAT_MS);
  });
  for (const type of ['pointerup', 'pointercancel', 'lostpointercapture']) button.addEventListener(type, release);
  button.addEventListener('contextmenu', (e) => e.preventDefault());  // a long press is a hold
  return button;
}
