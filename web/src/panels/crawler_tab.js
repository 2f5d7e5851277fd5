// The Crawler link tab ([BSTU2019]): its panel is made the first time the tab is shown.
import { CrawlerPanel } from './crawler_panel.js';

export function wireCrawlerTab({ state, signals, corePromise }, $ = (id) => document.getElementById(id)) {
  let starting = false;
  signals.tabChanged.add(async (tab) => {
    if (tab !== 'crawler' || starting) return;
    starting = true;
    state.crawler = new CrawlerPanel($('crawler'), await corePromise);
  });
}
