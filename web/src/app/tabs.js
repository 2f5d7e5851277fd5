// The side panel's tabs: each button of #tabs (data-tab: its name,
// data-panel: the id of its panel's element) shows its panel and hides the
// others; the panels hear of it through signals.tabChanged.

export function wireTabs({ state, signals }, $ = (id) => document.getElementById(id)) {
  const buttons = [...$('tabs').querySelectorAll('button[data-tab]')];
  const setTab = (tab) => {
    for (const button of buttons) {
      button.classList.toggle('active', button.dataset.tab === tab);
      $(button.dataset.panel).hidden = button.dataset.tab !== tab;
    }
    $('app').classList.toggle('editing', tab !== 'sim');
    state.tab = tab;
    signals.tabChanged.dispatch(tab);
  };
  for (const button of buttons) button.addEventListener('click', () => setTab(button.dataset.tab));
}
