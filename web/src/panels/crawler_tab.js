// The Crawler link tab ([BSTU2019]): its panel (and the page's core, pageCore(): a promise of
// it) is loaded the first time the tab is shown.
export function wireCrawlerTab({ state, signals, pageCore }, $ = (id) => document.getElementById(id)) {
  let starting = false;
  signals.tabChanged.add(async (tab) => {
    if (tab !== 'crawler' || starting) return;
    starting = true;
    const [{ CrawlerPanel }, core] = await Promise.all([import('./crawler_panel.js'), pageCore()]);
    state.crawler = new CrawlerPanel($('crawler'), core);
  });
}
