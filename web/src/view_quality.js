// Frame rate watch: below 20 frames/s after the first 3 s, shadows go off
// and the canvas renders at 60 % resolution (unless the user chose shadows),
// since shadows and pixel fill are the most expensive parts to draw.

export function watchViewQuality({ state, signals, stage }, $ = (id) => document.getElementById(id)) {
  const quality = { frames: 0, since: null, userSet: false, checked: false };
  $('shadows').addEventListener('input', () => {
    quality.userSet = true;
    stage.setShadows($('shadows').checked);
  });
  signals.frame.add((shown, now) => {
    if (quality.checked || quality.userSet || state.firstFrameAt === null) return;
    quality.since ??= now;
    quality.frames++;
    if (now - quality.since < 3000) return;
    quality.checked = true;
    const fps = (1000 * quality.frames) / (now - quality.since);
    state.fps = fps;
    if (fps < 20) {
      stage.setShadows(false);
      $('shadows').checked = false;
      stage.setResolution(0.6);  // fewer pixels to fill: software rendering is fill-bound
    }
  });
}
