// The camera preset buttons over the view: side, top, follow (from behind,
// following the robot) and the run's start view, each around the robot as it
// stands and turned with its heading.

export function wireCameraPresets({ state, stage, run }, $ = (id) => document.getElementById(id)) {
  for (const button of $('camera-presets').querySelectorAll('button')) {
    button.addEventListener('click', () => {
      const { preset } = button.dataset;
      if (preset === 'behind' && !stage.follow) run.setFollow(true);
      stage.cameraPreset(preset, state.view?.heading() ?? 0);
      button.blur();  // the arrow keys keep driving
    });
  }
}
