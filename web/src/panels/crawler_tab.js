// The Crawler link tab ([BSTU2019]): its panel, made with the page's core when the tab is first
// opened (app/main.js loads it then), kept as state.crawler.

/** Makes the tab's panel in #crawler; resolves to it. */
export async function makeCrawlerTab({ state, pageCore }, $ = (id) => document.getElementById(id)) {
  const [{ CrawlerPanel }, core] = await Promise.all([import('./crawler_panel.js'), pageCore()]);
  state.crawler = new CrawlerPanel($('crawler'), core);
  return state.crawler;
}
