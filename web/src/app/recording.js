// Pictures of the 3-D view: the Screenshot button (a PNG of the view as it
// is) and Record video (a WebM of the recorded run played back from one time
// to another of the timeline, at the speed it was simulated); recorder.js
// makes them, loaded the first time one is asked for. File names come from
// the scenario and the simulated time (export_names.js). A screenshot is
// drawn for the picture at the view's CSS size × the device's pixel ratio
// (× 2 with Shift held), whatever resolution the view renders at on the page
// (view_quality.js lowers it on a slow machine).
import { viewName } from '../common/export_names.js';
import { download } from '../common/files.js';

export function wireRecording({ state, stage, run, banners }, $ = (id) => document.getElementById(id)) {
  const { canvas } = stage;
  const recorder = () => import('./recorder.js');
  const failed = (error) => banners.show(`The recorder failed to load: ${error.message}`);
  const note = (text) => {
    $('record-note').textContent = text;
    $('record-note').hidden = !text;
  };
  const shownTime = () => (state.scrubbing ? run.scrubbedTime() : (state.latest?.[0] ?? 0));

  $('screenshot').addEventListener('click', (e) => {
    const name = viewName(state.scenario?.name, shownTime(), 'png');
    const scale = e.shiftKey ? 2 : 1;
    recorder()
      .then(({ screenshot }) => screenshot(stage, canvas, scale))
      .then((blob) => (blob ? download(name, blob, 'image/png') : banners.show('No screenshot: the browser could not encode the view.')), failed);
  });

  let recording = null;  // { stop() } while a video is recorded; true while the recorder loads
  $('record').addEventListener('click', () => {
    if (recording === true) return;
    if (recording) return recording.stop();
    recording = true;
    recorder()
      .then(({ recordVideo }) => {
        recording = recordVideo({
          state,
          run,
          canvas,
          from: Number($('record-from').value) || 0,
          to: $('record-to').value === '' ? null : Number($('record-to').value),
          note,
          onEnd: () => {
            recording = null;
            $('record').textContent = 'Record video';
          },
          onSaved: (blob, from, to) => {
            state.lastRecording = { bytes: blob.size, from, to };
            download(viewName(state.scenario?.name, from, 'webm', to), blob, 'video/webm');
          },
        });
        if (recording) $('record').textContent = 'Stop recording';
      }, failed)
      .finally(() => recording === true && (recording = null));
  });
}
