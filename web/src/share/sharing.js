// Share links on the page: Share puts the scenario and the camera into a
// link (copied, or shown to copy), or, for a terrain too big for a link,
// offers to save the scenario as a file; a link in the address is read in the
// worker, its scenario built there, and opened only if valid (after asking
// when it would replace autosaved work). The link stays in the address while
// its scenario is on show unedited (address.js): a reload opens it again, and
// as the autosave holds the same scenario then, without asking. A link may
// carry a study instead (the Study tab's Share): opening it hands the study
// to openStudy (the Study tab, ready to run; nothing runs by itself) and
// leaves the work on show as it is.
import { OPEN_LINK } from './address.js';
import { saveScenario } from '../common/files.js';
import { formatIssues } from '../common/issues.js';
import { SHARE_ERRORS, encodeShare, fragmentOf, shareUrl } from './share_link.js';

export class Sharing {
  /** @param deps { state, doc, stage, client, banners, saved, openStudy } (saved: the autosave restored at start, or null;
   *   openStudy(study, scenario): a link's study and its base scenario, for the Study tab) */
  constructor(deps) {
    Object.assign(this, deps);
    window.addEventListener('hashchange', () => this.openLink());
    document.getElementById('share').addEventListener('click', () => this.share());
  }

  async share() {
    const { doc, stage, banners } = this;
    const { scenario } = doc;
    try {
      const view = stage.follow ? 'this view of the robot (following it)' : 'this view';
      await this.offer(await encodeShare({ scenario, camera: stage.cameraPose() }), `It opens this scenario, its terrain and ${view}.`);
    } catch (error) {
      if (error.code === SHARE_ERRORS.TOO_LONG || error.code === SHARE_ERRORS.TOO_LARGE) {
        // The scenario itself is fine: it goes as a file instead (the one Save writes).
        const save = { label: 'Save as file', run: () => saveScenario(scenario) };
        return banners.show(`No link was made: the terrain is too big for a link. ${error.message}`, 'warning', [save]);
      }
      banners.show(`No link was made: ${error.message}`);
    }
  }

  /** The link of a fragment: kept in state.shareUrl, copied (or shown to copy by hand), said with `what` it opens. */
  async offer(fragment, what) {
    const url = shareUrl(location.href, fragment);
    this.state.shareUrl = url;
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      // No clipboard permission (or an insecure context): the link is shown to copy by hand.
    }
    this.banners.show(`${copied ? 'Link copied' : 'Copy this link'} (${url.length} characters). ${what}`, 'info', [], url);
  }

  /**
   * A link to a study (a study document; its scenario goes as the link's scenario): copied, or shown
   * to copy. A study too big for a link is offered as a file (save()).
   */
  async shareStudy(study, save) {
    const { banners } = this;
    const { scenario, ...rest } = study;
    try {
      await this.offer(await encodeShare({ scenario, study: rest }), 'It opens this study in the Study tab, ready to run.');
    } catch (error) {
      if (error.code === SHARE_ERRORS.TOO_LONG || error.code === SHARE_ERRORS.TOO_LARGE)
        return banners.show(`No link was made: the study's scenario is too big for a link. ${error.message}`, 'warning', [{ label: 'Save as file', run: save }]);
      banners.show(`No link was made: ${error.message}`);
    }
  }

  /** Opens the scenario of a share link in the address (after confirmation when it would replace autosaved work). */
  async openLink() {
    const { state, doc, client, banners } = this;
    const fragment = fragmentOf(location.href);
    if (!fragment) return;
    // The work on show is not the link's: the address drops it.
    const drop = () => history.replaceState(null, '', location.pathname + location.search);
    const decoded = await client.decode(fragment);  // unpacking up to 1 MiB: off this thread
    if (!decoded.ok) {
      state.linkError = decoded.code;
      drop();
      return banners.show(`This share link cannot be opened: ${decoded.message} Your own work is unchanged.`);
    }
    const text = decoded.scenario;
    const scenario = JSON.parse(text);
    // A study: the Study tab opens it (the core judges it there); the work on show stays.
    if (decoded.study) return this.openStudy?.(decoded.study, scenario);
    const { camera } = decoded;
    // Validated and built in the worker; the current run goes on meanwhile and
    // stays if the scenario is rejected.
    const open = () =>
      client.load(scenario, {
        keep: true,
        text,
        origin: 'link',  // a program in it runs only after the user's "Run it" (sim_client.js)
        camera: camera ?? null,  // the first frame's camera pose (run.js)
        onBuilt: () => {
          doc.replace(OPEN_LINK, scenario, { restart: true, loaded: true, owned: true });
          state.linkOpened = true;
        },
        onRejected: (issues) => {
          state.linkError = 'invalid-scenario';
          drop();
          banners.show('The scenario in this share link is not valid, so it was not opened (your work is unchanged):\n' + formatIssues(issues));
        },
      });
    if (this.saved && JSON.stringify(doc.scenario) !== text) {
      banners.show(
        `This link opens “${scenario.name || 'a scenario'}”. Opening it replaces the work autosaved in this browser (Undo brings it back while this page is open).`,
        'warning',
        [
          { label: 'Open the link', run: open },
          { label: 'Keep my work', run: drop },
        ],
      );
    } else {
      open();
    }
  }
}
