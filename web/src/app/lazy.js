// What the page loads after its first frame, or when first needed (main.js):
// a module's object made once, on the first call; and the moment the first
// frame has been drawn.

/** make() once, when first called: a function returning its promise. */
export function lazily(make) {
  let made = null;
  return () => (made ??= make());
}

/** Resolves once the view has been drawn with a run's first frame (state.firstFrameAt), in a task after that draw. */
export function afterFirstFrame(state, signals) {
  return new Promise((resolve) => {
    const remove = signals.frame.add(() => {
      if (state.firstFrameAt === null) return;
      remove();
      setTimeout(resolve, 0);
    });
  });
}
