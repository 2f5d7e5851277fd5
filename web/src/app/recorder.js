// The pictures of the 3-D view that recording.js makes (loaded the first time
// one is asked for): a screenshot (PNG) of the view as it is, and a video
// (WebM, through MediaRecorder) of the recorded run played back from one time
// to another, at the speed it was simulated.

const VIDEO_FPS = 30;
const VIDEO_BITS_PER_SECOND = 4_000_000;
const ENCODER_START_MS = 10_000;

/** The view as a PNG (a Blob, or null), drawn at `scale` × devicePixelRatio pixels per CSS pixel (as
 * many as WebGL allows). The drawing buffer is resized for it, read (toBlob takes the picture at once,
 * then encodes it) and drawn again at the view's resolution, all in this task: the page never shows it. */
export function screenshot(stage, canvas, scale) {
  const { renderer } = stage;
  const live = renderer.getPixelRatio();
  const gl = renderer.getContext();
  const largest = Math.min(gl.getParameter(gl.MAX_RENDERBUFFER_SIZE), ...gl.getParameter(gl.MAX_VIEWPORT_DIMS));
  renderer.setPixelRatio(Math.min(window.devicePixelRatio * scale, largest / Math.max(canvas.clientWidth, canvas.clientHeight, 1)));
  stage.resize();  // the buffer at the picture's size, the heightmaps' detail for it; drawn
  if (stage.cleared) stage.render();  // not drawn yet (no view before)
  const png = new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  renderer.setPixelRatio(live);
  stage.resize();
  return png;
}

/**
 * Records the run on show (run.js) from `from` to `to` (s, within state.history) as a WebM video of
 * `canvas`: note(text) says how it goes, onEnd() once it stopped, onSaved(blob) with the video.
 * Returns { stop() }, or null when it cannot record (note says why).
 */
export function recordVideo({ state, run, canvas, from, to, note, onEnd, onSaved }) {
  const { history } = state;
  if (history.length < 2) return note('Nothing recorded yet: run the scenario first.'), null;
  if (typeof MediaRecorder === 'undefined' || !canvas.captureStream) return note('This browser cannot record video (no MediaRecorder).'), null;
  from = Math.max(history.start, from);
  to = Math.min(history.end, to ?? history.end);
  if (!(to > from)) return note(`Choose a time range within the recording (${history.start.toFixed(1)}–${history.end.toFixed(1)} s): "to" after "from".`), null;
  const type = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'].find((t) => MediaRecorder.isTypeSupported(t));
  const recorder = new MediaRecorder(canvas.captureStream(VIDEO_FPS), { mimeType: type, videoBitsPerSecond: VIDEO_BITS_PER_SECOND });
  const chunks = [];
  // The playback starts once the encoder delivers its first data: a browser
  // may take a second or more to start it (the view holds the first frame meanwhile).
  let began = null;
  recorder.ondataavailable = (e) => {
    if (!e.data.size) return;
    chunks.push(e.data);
    began ??= performance.now();
  };
  run.setPlaying(false);
  const asked = performance.now();
  let frame = 0;
  let recording = true;
  const show = (t) => run.scrubTo(t);  // the run shows the recorded frame at t
  const stop = () => {
    cancelAnimationFrame(frame);
    recording = false;
    onEnd();
    if (recorder.state !== 'inactive') recorder.stop();
  };
  const tick = (now) => {
    if (!recording) return;
    if (began === null) {
      show(from);
      if (now - asked > ENCODER_START_MS) {
        note(`No video: the browser's video encoder did not start within ${ENCODER_START_MS / 1000} s.`);
        stop();
        return;
      }
      note('Recording: starting the video encoder…');
      frame = requestAnimationFrame(tick);
      return;
    }
    const t = Math.min(to, from + (now - began) / 1000);
    show(t);
    note(`Recording ${t.toFixed(2)} of ${from.toFixed(2)}–${to.toFixed(2)} s… (Record video again stops)`);
    if (t >= to) stop();
    else frame = requestAnimationFrame(tick);
  };
  recorder.onstop = () => {
    if (began === null) return;  // nothing was recorded
    const blob = new Blob(chunks, { type: 'video/webm' });
    note(`Saved ${(blob.size / 1024).toFixed(0)} kB of video (${from.toFixed(2)}–${to.toFixed(2)} s).`);
    onSaved(blob, from, to);
  };
  recorder.start(100);
  frame = requestAnimationFrame(tick);
  return { stop };
}
