// Frame rate watch: below 20 frames/s over the first 3 s after the first
// frame, shadows go off and the canvas renders at 60 % resolution (unless the
// user chose shadows), since shadows and pixel fill are the most expensive
// parts to draw; a note beside the shadows box says why it was unticked.
// Also the frame rate shown beside the real-time factor (state.fps), over
// each second.

const LOW_FPS = 20;
const WATCH_MS = 3000;

export function watchViewQuality({ state, signals, stage }, $ = (id) => document.getElementById(id)) {
  const quality = { frames: 0, since: null, userSet: false, checked: false };
  const rate = { frames: 0, since: null };
  $('shadows').addEventListener('input', () => {
    quality.userSet = true;
    $('shadows-note').hidden = true;
    stage.setShadows($('shadows').checked);
  });
  signals.frame.add((shown, now) => {
    rate.since ??= now;
    rate.frames++;
    if (now - rate.since >= 1000) {
      state.fps = (1000 * rate.frames) / (now - rate.since);
      rate.frames = 0;
      rate.since = now;
    }
    if (quality.checked || quality.userSet || state.firstFrameAt === null) return;
    quality.since ??= now;
    quality.frames++;
    if (now - quality.since < WATCH_MS) return;
    quality.checked = true;
    const fps = (1000 * quality.frames) / (now - quality.since);
    const lowered = fps < LOW_FPS;
    state.qualityStep = { fps, lowered };
    if (!lowered) return;
    stage.setShadows(false);
    $('shadows').checked = false;
    $('shadows-note').textContent = `off: the view drew ${fps.toFixed(1)} frames/s (under ${LOW_FPS}), so shadows and resolution were lowered; tick to turn shadows back on`;
    $('shadows-note').hidden = false;
    stage.setResolution(0.6);  // fewer pixels to fill: software rendering is fill-bound
  });
}
