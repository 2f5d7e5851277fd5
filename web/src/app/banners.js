// The banner over the view: a message of kind 'error', 'warning' or 'info',
// with buttons and, for share links, a text to copy. Every banner can be
// closed; an error is announced as an alert, the others as a status.

export class Banners {
  /** @param state  the app state (its `banner` is what is shown) */
  constructor(state, $ = (id) => document.getElementById(id)) {
    this.state = state;
    this.$ = $;
  }

  /** Shows `text` ('' hides the banner). actions: buttons [{ label, run }] (any of
   * them also closes the banner), followed by Close; link: a text to select and copy. */
  show(text, kind = 'error', actions = [], link = null) {
    const { $ } = this;
    $('banner-text').textContent = text;
    const buttons = actions.map(({ label, run }) => {
      const button = document.createElement('button');
      button.textContent = label;
      button.addEventListener('click', () => {
        this.hide();
        run?.();
      });
      return button;
    });
    if (link) {
      const input = document.createElement('input');
      input.id = 'share-url';
      input.readOnly = true;
      input.value = link;
      input.addEventListener('focus', () => input.select());
      buttons.unshift(input);
    }
    if (text) {
      const close = document.createElement('button');
      close.textContent = 'Close';
      close.addEventListener('click', () => this.hide());
      buttons.push(close);
    }
    $('banner-actions').replaceChildren(...buttons);
    const banner = $('banner');
    banner.className = kind;
    banner.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    banner.hidden = !text;
    this.state.banner = text ? { text, kind } : null;
  }

  hide() {
    this.show('');
  }
}
