// The time from a model folder's files given to the page to the first heatmap of the model (not
// a test): for each run, a fresh page, the files through the page's file input, the page's state
// polled until the model's layer is drawn. Prints each run and the median, then the page's
// matrix-product speed (its WebAssembly SIMD kernel against Eigen's product, one thread).
//   node model_timing.mjs URL FOLDER [RUNS] [TOKENS]
// TOKENS: run the model on that many token ids (the page's --sentence, which a model opened later
// reads too); without it the model's default sentence.
import fs from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const [url, folder, runsText, tokensText] = process.argv.slice(2);
const runs = Number(runsText || 3);
const tokens = Number(tokensText || 0);
const ids = Array.from({length: tokens}, (_, i) => (11 + 13 * i) % 50000).join(', ');
const query = 'preset=seed003' + (tokens ? '&sentence=' + encodeURIComponent(ids) : '');
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
const name = path.basename(path.resolve(folder));
const files = fs.readdirSync(folder).filter((f) => !f.endsWith('.bin')).map((f) => path.join(folder, f));
const totals = [];
for (let i = 0; i < runs; i++) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warn') console.log('page:', m.text()); });
  await page.setViewport({width: 1280, height: 720});
  await page.goto(`${url}/index.html?${query}`);
  const state = () => page.evaluate(() => (window.attnlabState ? window.attnlabState() : null));
  for (let s = await state(); !(s && s.frame >= 3); s = await state())
    await new Promise((resolve) => setTimeout(resolve, 50));
  const input = await page.$('#model-files');
  await input.evaluate((el, folderName) => { el.dataset.folder = folderName; }, name);
  const given = Date.now();
  await input.uploadFile(...files);
  let s = null, loaded = 0;
  for (;;) {
    s = await state();
    if (!loaded && s.model && s.model.name === name) loaded = Date.now() - given;
    if (s.model && s.model.name === name && s.model.ran && !s.computing && s.heatmaps.length > 0) break;
    if (s.model && s.model.error) throw new Error(s.model.error);
    if (Date.now() - given > 300000) throw new Error('no heatmap after 300 s: ' + JSON.stringify(s.model));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const total = Date.now() - given;
  const read = await page.evaluate(() => window.attnlabModelRead);
  totals.push(total);
  console.log(`run ${i + 1}: ${total} ms to the first heatmap (files read into memory ` +
              `${(read.read - read.given).toFixed(0)} ms, ${(read.bytes / 1e6).toFixed(1)} MB; ` +
              `model open after ${loaded} ms; layers ${s.model.n_layers}, heads ${s.model.n_heads}, ` +
              `tokens ${s.model.tokens}, trace ${s.trace_ms.toFixed(1)} ms)`);
  await context.close();
}
totals.sort((a, b) => a - b);
console.log(`${name}: median ${totals[Math.floor(totals.length / 2)]} ms over ${runs} runs`);
{
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.goto(`${url}/index.html?preset=seed003`);
  for (let s = null; !(s && s.frame >= 3);) {
    s = await page.evaluate(() => (window.attnlabState ? window.attnlabState() : null));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const speed = JSON.parse(await page.evaluate(() => Module.ccall('attnlab_gemm_speed', 'string')));
  for (const s of speed)
    console.log(`matrix product ${s.shape}: vector kernel ${s.vector_gflops.toFixed(2)} GFLOP/s, ` +
                `Eigen ${s.eigen_gflops.toFixed(2)} GFLOP/s (one thread, in the page)`);
  await context.close();
}
await browser.close();
