// The page's side of the simulation worker (web/src/sim/sim_client.js): the first run's play held
// back until its first frame is drawn. The messages the client posts are recorded in place of the
// worker, which runs in the browser tests.
import { describe, expect, test } from 'vitest';

import { SimClient } from '../../web/src/sim/sim_client.js';

function recordingClient() {
  globalThis.window ??= new EventTarget();  // the client listens for the page's pagehide and pageshow
  const element = () => Object.assign(new EventTarget(), { hidden: true, textContent: '' });
  const client = new SimClient({ state: {}, signals: {}, banners: {}, speed: () => 1, trust: {} }, element);
  const sent = [];
  client.worker = { postMessage: (m) => sent.push(m.type === 'play' ? `play${m.extend ? ' extend' : ''}` : m.type) };
  return { client, sent };
}

function gate() {
  let open, shut;
  const promise = new Promise((resolve, reject) => ((open = resolve), (shut = reject)));
  return { promise, open, shut };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A recording client whose play is held until the returned gate opens (or shuts). */
function heldClient() {
  const { client, sent } = recordingClient();
  const held = gate();
  client.holdPlay(held.promise);
  return { client, sent, held };
}

describe('holdPlay', () => {
  test('without a hold, play goes to the worker at once', () => {
    const { client, sent } = recordingClient();
    client.play();
    client.play(true);
    expect(sent).toEqual(['play', 'play extend']);
  });

  test('a play asked for while held goes once, when the hold ends, with its extend', async () => {
    const { client, sent, held } = heldClient();
    client.play();
    client.play(true);
    await settled();
    expect(sent).toEqual([]);
    held.open();
    await settled();
    expect(sent).toEqual(['play extend']);
    client.play();
    expect(sent).toEqual(['play extend', 'play']);
  });

  test('a pause after the play while held: the run stays paused', async () => {
    const { client, sent, held } = heldClient();
    client.play();
    client.pause();
    held.open();
    await settled();
    expect(sent).toEqual(['pause']);
  });

  test('a play after a pause while held plays; so does a hold that fails', async () => {
    const { client, sent, held } = heldClient();
    client.pause();
    client.play();
    held.shut(new Error('no first frame'));
    await settled();
    expect(sent).toEqual(['pause', 'play']);
  });

  test('a newer hold replaces an older one', async () => {
    const { client, sent } = recordingClient();
    const first = gate(), second = gate();
    client.holdPlay(first.promise);
    client.holdPlay(second.promise);
    client.play();
    first.open();
    await settled();
    expect(sent).toEqual([]);
    second.open();
    await settled();
    expect(sent).toEqual(['play']);
  });
});
