// The keyboard belongs to driving: a control used with the mouse (a picker, a
// checkbox, the timeline, a slider) hands the focus back to the page once it
// is changed, so the arrow keys and Space drive and play instead of stepping
// through its options; a control reached with the keyboard keeps the focus.

/** Blurs `element` after a change made with the pointer. */
export function releaseAfterPointerUse(element) {
  let pointer = false;
  element.addEventListener('pointerdown', () => (pointer = true));
  element.addEventListener('keydown', () => (pointer = false));
  element.addEventListener('change', () => {
    if (pointer) element.blur();
    pointer = false;
  });
}
