// Timings of the browser page for bench/web_figures.sh (not a test): for each query, RUNS fresh
// loads in headless Chromium; prints the median and spread of the time to the first frame with
// heatmaps and of the page's own trace time (the worker's, as the desktop app measures it).
//   node page_timing.mjs URL RUNS QUERY...
import puppeteer from 'puppeteer-core';

const [url, runsText, ...queries] = process.argv.slice(2);
const runs = Number(runsText);
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const query of queries) {
  const firstFrame = [], trace = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.createBrowserContext();  // nothing cached between loads
    const page = await context.newPage();
    await page.setViewport({width: 1280, height: 720});
    const start = Date.now();
    await page.goto(`${url}/index.html?${query}`);
    for (;;) {
      const s = await page.evaluate(() => (window.attnlabState ? window.attnlabState() : null));
      if (s && s.frame >= 1 && !s.computing && s.heatmaps.length > 0) {
        firstFrame.push(Date.now() - start);
        trace.push(s.trace_ms);
        break;
      }
      if (Date.now() - start > 120000) throw new Error(`no frame for ${query}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await context.close();
  }
  console.log(`page ${query}: first_frame_ms median=${median(firstFrame)} ` +
              `min=${Math.min(...firstFrame)} max=${Math.max(...firstFrame)}  ` +
              `trace_ms median=${median(trace).toFixed(2)} min=${Math.min(...trace).toFixed(2)} ` +
              `max=${Math.max(...trace).toFixed(2)}`);
}
await browser.close();
