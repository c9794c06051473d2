// The browser test: Debian's chromium (headless, WebGL 2 on SwiftShader) loads the WebAssembly
// page from a loopback server and is driven through the DevTools protocol (puppeteer-core), as a
// person would: it checks the heatmap pixels against the core's numbers (the native pixel
// checker, on the page's screenshot and its state), steps with the arrow key, changes n_heads by
// typing into the slider, enters presenter mode, downloads the tensors, records a WebM, plays a
// lesson with an audience tab (its band above the page's bar, never under it), resizes the page, and
// reloads it to see the settings kept, opens a tiny Hugging Face checkpoint's files through the
// page's file input (read into the page's memory, opened as a dropped folder), refuses dropped
// files past the app's limits before reading them; from PLAIN_URL (a server sending no isolation headers) the
// page must make itself isolated (isolation.js) and run. Then the page as one file (ONE_PAGE, a
// file:// address of attnlab.html alone in a folder): no request leaves file://, it says once that
// it runs on one thread, steps through the stages, plays a lesson, and saves itself with the
// lesson inside, which opens and plays again.
//   node browser_test.mjs URL OUT_DIR PIXEL_CHECK PLAIN_URL EXERCISES ONE_PAGE
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import puppeteer from 'puppeteer-core';

const here = path.dirname(fileURLToPath(import.meta.url));

// desktopPage (optional): the page as one file the desktop app wrote with a lesson inside
// (attnlab --lesson FILE --export-page), as a file:// address.
const [url, outDir, pixelCheck, plainUrl, exercises, onePage, desktopPage] = process.argv.slice(2);
if (!url || !outDir || !pixelCheck || !plainUrl || !exercises || !onePage) {
  console.error('usage: node browser_test.mjs URL OUT_DIR PIXEL_CHECK PLAIN_URL EXERCISES ONE_PAGE');
  process.exit(2);
}
fs.mkdirSync(outDir, {recursive: true});
let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures += 1;
}

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
const page = await browser.newPage();
page.on('pageerror', (error) => console.log('page error:', error.message));
page.on('console', (message) => {
  if (message.type() === 'error') console.log('page console:', message.text());
});
await page.setViewport({width: 1280, height: 720});

const state = () => page.evaluate(() => (window.attnlabState ? window.attnlabState() : null));
// Waits until the page's state satisfies `ready` (a fresh frame after the condition first held).
async function waitFor(ready, what, seconds = 30) {
  const end = Date.now() + seconds * 1000;
  let last = null;
  while (Date.now() < end) {
    last = await state().catch(() => null);
    if (last && !last.computing && ready(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}; last state: ${JSON.stringify(last)?.slice(0, 400)}`);
}
// ImGui 1.86 reads key state once a frame: each key is held until the page has drawn two frames
// with it down, and released until one more is drawn, however slow the machine is.
async function framesDrawn() {
  const s = await state().catch(() => null);
  return s ? s.frame : 0;
}
async function untilFrame(frame, seconds = 5) {
  const end = Date.now() + seconds * 1000;
  while ((await framesDrawn()) < frame && Date.now() < end)
    await new Promise((resolve) => setTimeout(resolve, 20));
}
async function press(key, modifier) {
  if (modifier) await page.keyboard.down(modifier);
  const before = await framesDrawn();
  await page.keyboard.down(key);
  await untilFrame(before + 2);
  await page.keyboard.up(key);
  if (modifier) await page.keyboard.up(modifier);
  await untilFrame((await framesDrawn()) + 1);
}
// Presses `key` until the page's state satisfies `ready` (a loaded machine can let a key's press
// and release fall between two frames, which ImGui 1.86 then never sees): at most three presses.
async function pressUntil(key, ready, what, modifier) {
  for (let attempt = 0; attempt < 3; attempt++) {
    await press(key, modifier);
    const s = await waitFor(ready, what, 5).catch(() => null);
    if (s) return s;
  }
  return waitFor(ready, what, 1);
}
// Where the canvas and the page's bar (Record, Open model folder…) are, in CSS pixels.
const pageBoxes = () => page.evaluate(() => {
  const box = (id) => {
    const r = document.getElementById(id).getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height};
  };
  return {canvas: box('canvas'), bar: box('model-bar'), page: [window.innerWidth, window.innerHeight]};
});
// Waits until the app's window is the canvas's box (the page less its bar).
async function canvasFollowed(what) {
  const boxes = await pageBoxes();
  const size = [Math.round(boxes.canvas.width), Math.round(boxes.canvas.height)];
  return waitFor((st) => st.window[0] === size[0] && st.window[1] === size[1], what);
}
// The page's bar never covers the app (issue 38: it covered the lesson band's "capture as a
// scene"): the canvas ends where the bar begins, the bar is inside the page, and the band's
// button and the band itself (from layout_height to the window's bottom) are above the bar.
async function barBelowBand(label) {
  const s = await canvasFollowed(`the canvas at ${label}`);
  const {canvas, bar, page: size} = await pageBoxes();
  check(bar.height > 0 && canvas.bottom <= bar.top + 0.5 && bar.bottom <= size[1] + 0.5,
        `${label}: the canvas (${canvas.top}-${canvas.bottom}) ends where the bar (${bar.top}-${bar.bottom}) ` +
        `begins, inside the page's ${size[1]} px`);
  const scale = canvas.height / s.window[1];  // CSS pixels per window unit
  const bandTop = canvas.top + s.layout_height * scale, bandBottom = canvas.top + s.window[1] * scale;
  check(s.layout_height < s.window[1] && bandBottom <= bar.top + 0.5,
        `${label}: the lesson band (${bandTop.toFixed(0)}-${bandBottom.toFixed(0)}) is above the bar (${bar.top})`);
  // The band's "capture as a scene", where its row is in view (a slim band may scroll it out of
  // sight; the band itself, checked above, is then what the bar must not cover).
  const capture = s.items.find((item) => item.label.startsWith('Writes what is shown now'));
  const captureBottom = capture ? canvas.top + capture.rect[3] * scale : bandBottom;
  check(!capture || (capture.rect[1] >= s.layout_height && captureBottom <= bar.top + 0.5),
        `${label}: the band's "capture as a scene" (bottom ${captureBottom.toFixed(0)}) is above the bar (${bar.top})`);
}
function centre(rect) {
  return {x: (rect[0] + rect[2]) / 2, y: (rect[1] + rect[3]) / 2};
}
// The pixel check: every heatmap cell of the screenshot against the core's values for the state.
async function pixelsMatchCore(name, heads) {
  const shot = path.join(outDir, `${name}.png`);
  const sidecar = path.join(outDir, `${name}.json`);
  const s = await state();
  await page.screenshot({path: shot});
  fs.writeFileSync(sidecar, JSON.stringify(s));
  const run = spawnSync(pixelCheck, [shot, sidecar, '--expect-heads', String(heads)], {encoding: 'utf8'});
  process.stdout.write(run.stdout.split('\n').map((l) => (l ? '     ' + l : l)).join('\n'));
  check(run.status === 0, `${name}: heatmap pixels match the core's weights (${heads} heads)`);
}

try {
  // 1. The first frame of seed003 at the attend stage.
  const start = Date.now();
  await page.goto(`${url}/index.html?preset=seed003&stage=attend`);
  let s = await waitFor((st) => st.frame >= 3 && st.heatmaps.length === 2, 'the first frames');
  console.log(`     first frame with heatmaps after ${Date.now() - start} ms`);
  check(s.step.stage === 'attend' && JSON.stringify(s.shapes.scores) === '[1,2,11,11]',
        `attend shows scores (1, 2, 11, 11): ${JSON.stringify(s.shapes)}`);
  s = await canvasFollowed('the canvas above the bar');
  check(s.window[0] === 1280 && s.window[1] < 720 && s.window[1] > 650,
        `the canvas fills the page above its bar: ${s.window}`);
  const canvasSize = s.window;
  // A new profile is a first start: the card over the window goes at the first key.
  await press('Escape');
  await pixelsMatchCore('seed003_attend', 2);
  const servedBar = await page.evaluate(() => [document.getElementById('one-file-note').hidden,
                                               document.getElementById('save-page').hidden]);
  check(servedBar[0] && servedBar[1],
        `the served page has threads: no one-thread notice, no "Save as one page" (hidden: ${servedBar})`);

  // 2. The right arrow steps to the next sub-step: ÷√d_k, whose output is `scaled`.
  const before = s.step.index;
  await page.mouse.move(900, 300);
  s = await pressUntil('ArrowRight', (st) => st.step.index === before + 1, 'the next step');
  check(s.shapes.scaled && JSON.stringify(s.shapes.scaled) === '[1,2,11,11]',
        `→ goes to step ${s.step.index} "${s.step.label}": ${JSON.stringify(s.shapes)}`);
  s = await pressUntil('ArrowLeft', (st) => st.step.index === before, 'the step back');

  // 3. n_heads: Ctrl+click on the slider, type 4, Enter (as a person edits an ImGui slider).
  const slider = s.items.find((item) => item.label.startsWith('Number of heads h'));
  check(Boolean(slider), 'the n_heads slider is on screen');
  if (slider) {
    const at = centre(slider.rect);
    // A loaded machine can drop a click between two frames: try up to three times.
    for (let attempt = 0; attempt < 3; attempt++) {
      await page.keyboard.down('Control');
      await page.mouse.move(at.x, at.y);
      await page.mouse.down();
      await new Promise((resolve) => setTimeout(resolve, 150));
      await page.mouse.up();
      await page.keyboard.up('Control');
      const typing = await waitFor((st) => st.typing, 'the slider to take typing', 5).catch(() => null);
      if (!typing) continue;
      await press('a', 'Control');  // select what is there, so typing replaces it
      await page.keyboard.type('4', {delay: 120});
      await press('Enter');
      const done = await waitFor((st) => st.config.n_heads === 4, 'n_heads = 4', 10).catch(() => null);
      if (done) break;
    }
    s = await waitFor((st) => st.config.n_heads === 4 && st.heatmaps.length === 4, 'four heads');
    check(JSON.stringify(s.shapes.scores) === '[1,4,11,11]',
          `n_heads = 4: scores become (1, 4, 11, 11): ${JSON.stringify(s.shapes)}`);
    await pixelsMatchCore('seed003_4heads', 4);
    await page.screenshot({path: path.join(outDir, 'page_after_heads_change.png')});
  }

  // 4. Ctrl+E: the tensors as .npy files in a .zip, as a browser download.
  const downloads = path.join(outDir, 'downloads');
  fs.mkdirSync(downloads, {recursive: true});
  const session = await page.createCDPSession();
  await session.send('Browser.setDownloadBehavior', {behavior: 'allow', downloadPath: downloads});
  await page.mouse.click(900, 300);
  await pressUntil('e', (st) => st.export_message.startsWith('Downloaded'), 'the zip download', 'Control');
  const deadline = Date.now() + 20000;
  let zip = null;
  while (!zip && Date.now() < deadline) {
    zip = fs.readdirSync(downloads).find((f) => f.endsWith('.zip'));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  check(Boolean(zip), `Ctrl+E downloads the tensors: ${zip}`);
  if (zip) fs.copyFileSync(path.join(downloads, zip), path.join(outDir, 'tensors.zip'));
  // Ctrl+S: a PNG of the window, also a download, with the canvas's size.
  await pressUntil('s', (st) => st.export_message.includes('.png'), 'the PNG download', 'Control');
  let png = null;
  for (const end = Date.now() + 20000; !png && Date.now() < end;) {
    png = fs.readdirSync(downloads).find((f) => f.endsWith('.png'));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));  // written whole
  const header = png ? fs.readFileSync(path.join(downloads, png)) : Buffer.alloc(0);
  const pngSize = header.length > 24 ? [header.readUInt32BE(16), header.readUInt32BE(20)] : [];
  check(pngSize[0] === canvasSize[0] && pngSize[1] === canvasSize[1],
        `Ctrl+S downloads a PNG of the window: ${png} ${pngSize.join('x')}`);

  // 4b. The Save dialog (Ctrl+Shift+E): in the page, the picture alone at the page's size, a download.
  const saveTip = "The picture alone at the page's size";
  let dialog = null;
  for (let attempt = 0; attempt < 3 && !dialog; attempt++) {
    await page.keyboard.down('Shift');
    await press('E', 'Control');
    await page.keyboard.up('Shift');
    dialog = await waitFor((st) => st.items.some((item) => item.label.startsWith(saveTip)),
                           'the Save dialog', 5).catch(() => null);
  }
  check(Boolean(dialog), 'Ctrl+Shift+E opens the Save dialog');
  let saved = null;
  if (dialog) {
    const button = centre(dialog.items.find((item) => item.label.startsWith(saveTip)).rect);
    for (let attempt = 0; attempt < 3 && !saved; attempt++) {
      await page.mouse.click(button.x, button.y);
      saved = await waitFor((st) => st.export_message.includes('attnlab-picture'),
                              'the picture download', 5).catch(() => null);
    }
  }
  let pictureFile = null;
  for (const end = Date.now() + 20000; saved && !pictureFile && Date.now() < end;) {
    pictureFile = fs.readdirSync(downloads).find((f) => f.startsWith('attnlab-picture') && f.endsWith('.png'));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));  // written whole
  const pictureHead = pictureFile ? fs.readFileSync(path.join(downloads, pictureFile)) : Buffer.alloc(0);
  const pictureSize = pictureHead.length > 24 ? [pictureHead.readUInt32BE(16), pictureHead.readUInt32BE(20)] : [];
  check(pictureSize[0] === canvasSize[0] && pictureSize[1] === canvasSize[1],
        `the page's Save dialog downloads the picture alone at the page's size: ${pictureFile} ${pictureSize.join('x')}`);
  await press('Escape');
  s = await waitFor((st) => !st.items.some((item) => item.label.startsWith(saveTip)), 'the dialog closed', 10)
      .catch(() => s);

  // 5. Presenter mode (P), and the page follows a resize.
  s = await pressUntil('p', (st) => st.presenter, 'presenter mode');
  check(s.heatmaps.length === 4, 'presenter mode shows the four heads');
  await page.screenshot({path: path.join(outDir, 'page_presenter.png')});
  await page.setViewport({width: 1024, height: 768});
  s = await canvasFollowed('the resized canvas');
  check(s.window[0] === 1024 && s.window[1] < 768 && s.window[1] > 700,
        `the canvas follows the page to ${s.window} (1024x768 less the bar)`);

  // 6. A reload keeps the settings (IndexedDB): presenter mode and 4 heads come back.
  await new Promise((resolve) => setTimeout(resolve, 2500));  // settings are stored each second
  await page.goto(`${url}/index.html`);
  s = await waitFor((st) => st.frame >= 3, 'the reloaded page');
  check(s.presenter && s.config.n_heads === 4,
        `after a reload: presenter ${s.presenter}, n_heads ${s.config.n_heads}`);

  // 7. The next lessons in the page: grouped K/V heads at the expand step, then the Decode tab,
  // whose arrow keys step through the decoded tokens.
  await page.goto(`${url}/index.html?sentence=the+cat+sat+on+the+mat+today&heads=4&d-model=16` +
                  `&kv-heads=2&decode=3&stage=transpose:expand&tab=decode`);
  s = await waitFor((st) => st.frame >= 3 && st.config && st.config.n_kv_heads === 2 &&
                    st.decode.steps === 3, 'the grouped, decoding config');
  check(s.tab === 'decode' && JSON.stringify(s.shapes.k_grouped) === '[1,2,2,7,4]',
        `K/V heads expand to (1, 2, 2, 7, 4) and the Decode tab is open: ${s.tab} ` +
        JSON.stringify(s.shapes));
  await page.mouse.move(900, 300);
  s = await pressUntil('ArrowRight', (st) => st.decode.step === 1, 'the next decoded token');
  check(s.step.label === 'expand', `→ steps the decoded tokens, not the walk (${s.step.label})`);

  // 7b. A lesson in the page (issue 31): the clicker's PageDown reveals the first scene's answer
  // and moves to the next scene; a second tab with &audience shows the audience's view and follows.
  await page.goto(`${url}/index.html?lesson=notebook&present`);
  s = await waitFor((st) => st.frame >= 3 && st.lesson && st.lesson.scenes === 18, 'the notebook lesson');
  check(s.lesson.scene === 0 && !s.lesson.revealed && s.lesson.errors.length === 0,
        `?lesson=notebook plays its first scene: ${JSON.stringify(s.lesson)}`);
  await barBelowBand('1024x768');
  await page.setViewport({width: 1280, height: 720});
  await barBelowBand('1280x720');
  await page.mouse.move(600, 300);
  s = await pressUntil('PageDown', (st) => st.lesson.revealed, 'the answer revealed');
  s = await pressUntil('PageDown', (st) => st.lesson.scene === 1, 'the second scene');
  check(s.lesson.scene === 1 && !s.lesson.revealed, `PageDown: answer, then scene 2 (${s.lesson.scene + 1})`);
  const audience = await browser.newPage();
  await audience.setViewport({width: 1280, height: 720});
  await audience.goto(`${url}/index.html?lesson=notebook&audience`);
  const audienceState = async (ready, what) => {
    const end = Date.now() + 30000;
    let last = null;
    while (Date.now() < end) {
      last = await audience.evaluate(() => (window.attnlabState ? window.attnlabState() : null)).catch(() => null);
      if (last && last.lesson && ready(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`the audience tab: timed out waiting for ${what}; ${JSON.stringify(last && last.lesson)}`);
  };
  let a = await audienceState((st) => st.lesson.audience && st.lesson.scene === 1, 'the audience on scene 2');
  check(a.lesson.audience && a.presenter, `the &audience tab shows the audience's view on scene ${a.lesson.scene + 1}`);
  await page.bringToFront();
  s = await pressUntil('PageDown', (st) => st.lesson.revealed || st.lesson.scene === 2, 'the next click');
  // On the projector the audience's tab is a visible window of its own; a background tab here
  // draws no frames until it is in front.
  await audience.bringToFront();
  a = await audienceState((st) => st.lesson.scene === s.lesson.scene && st.lesson.revealed === s.lesson.revealed,
                          'the audience following');
  check(true, `the audience tab follows the lecturer's click (scene ${a.lesson.scene + 1}, revealed ${a.lesson.revealed})`);
  await audience.screenshot({path: path.join(outDir, 'page_lesson_audience.png')});
  await audience.close();

  // 7c. Record: the page as a WebM through the browser's MediaRecorder, downloaded.
  const recordButton = await page.$('#record');
  await recordButton.click();
  await page.focus('#canvas');
  await page.mouse.move(600, 300);
  for (let i = 0; i < 4; i++) {
    await press('PageDown');
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
  await recordButton.click();
  const recorded = await page.waitForFunction(() => window.attnlabRecorded, {timeout: 20000})
                       .then((handle) => handle.jsonValue()).catch(() => null);
  let webm = null;
  for (let i = 0; i < 50 && recorded && !webm; i++) {
    const found = fs.readdirSync(downloads).find((f) => f === recorded.name);
    if (found && fs.statSync(path.join(downloads, found)).size === recorded.bytes) webm = found;
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const head = webm ? fs.readFileSync(path.join(downloads, webm)).subarray(0, 4).toString('hex') : '';
  check(Boolean(webm) && head === '1a45dfa3' && recorded.bytes > 1000,
        `Record downloads a WebM of the page: ${webm} (${recorded && recorded.bytes} bytes, magic ${head})`);

  // 8. A model folder from the user's disk: the tiny GPT-2 (2 layers, 4 heads) written by
  // hf_checkpoints.py, given to the page's file input as a person's pick would be.
  const checkpoints = path.join(outDir, 'checkpoints');
  const written = spawnSync('/usr/bin/python3', [path.join(here, '../numpy/hf_checkpoints.py'), checkpoints],
                            {encoding: 'utf8'});
  check(written.status === 0, `hf_checkpoints.py writes the tiny checkpoints ${written.stderr.trim()}`);
  const tiny = path.join(checkpoints, 'gpt2-f32-tied');
  await page.goto(`${url}/index.html?preset=seed003&stage=attend`);
  s = await waitFor((st) => st.frame >= 3 && st.heatmaps.length > 0, 'the page before the model');
  const picker = await page.$('#model-files');
  const button = await page.$('#model-open');
  check(Boolean(button && await button.isVisible()), 'the page shows its "Open model folder…" button');
  await picker.evaluate((input) => { input.dataset.folder = 'gpt2-f32-tied'; });
  const given = Date.now();
  await picker.uploadFile(...fs.readdirSync(tiny).map((name) => path.join(tiny, name)));
  s = await waitFor((st) => st.model && st.model.name === 'gpt2-f32-tied' && st.model.ran &&
                    st.heatmaps.length === 4, 'the opened model', 60);
  const opened = Date.now() - given;
  const read = await page.evaluate(() => window.attnlabModelRead);
  console.log(`     files given -> first heatmap of the model: ${opened} ms (read into memory in ` +
              `${(read.read - read.given).toFixed(0)} ms, ${read.bytes} bytes in ${read.files} files)`);
  check(s.model.folder === '/models/gpt2-f32-tied' && s.model.n_layers === 2 && s.model.n_heads === 4 &&
        s.model.error === '' && s.config.n_heads === 4,
        `the model opens from the page's memory: ${JSON.stringify({...s.model, progress: undefined})}`);
  await page.screenshot({path: path.join(outDir, 'page_model.png')});
  const shot = await page.screenshot({encoding: 'binary', clip: {
    x: s.heatmaps[0].rect[0], y: s.heatmaps[0].rect[1],
    width: Math.max(1, s.heatmaps[0].rect[2] - s.heatmaps[0].rect[0]),
    height: Math.max(1, s.heatmaps[0].rect[3] - s.heatmaps[0].rect[1])}});
  check(s.heatmaps.every((h) => h.rect[2] - h.rect[0] > 8 && h.rect[3] - h.rect[1] > 8) && shot.length > 0,
        `its layer's 4 heads are drawn as heatmaps: ${JSON.stringify(s.heatmaps.map((h) => h.rect))}`);
  // A folder without config.json is refused by the page, in words, before anything is read.
  await picker.evaluate((input) => { input.dataset.folder = 'not-a-model'; });
  await picker.uploadFile(path.join(tiny, 'model.safetensors'));
  const refusal = await page.$eval('#model-progress', (el) => el.textContent);
  check(refusal.includes('no config.json'), `a folder without config.json is refused: "${refusal}"`);

  // 8b. The Check tab: an exercise folder (attnlab-cli exercise) with a student's
  // np.savez_compressed answer, read from the page's memory and graded there.
  for (const [kind, wanted] of [['right', []], ['forget-transpose', ['forget-transpose']]]) {
    const folder = path.join(exercises, kind);
    await picker.evaluate((input, name) => { input.dataset.folder = name; }, kind);
    await picker.uploadFile(...fs.readdirSync(folder).map((name) => path.join(folder, name)));
    s = await waitFor((st) => st.check && st.check.dir === `/models/${kind}` && st.check.graded,
                      `the ${kind} answer graded`, 30);
    const graded = s.check.graded;
    const named = JSON.stringify(graded.mistakes) === JSON.stringify(wanted);
    const verdict = kind === 'right' ? graded.all_right && graded.given === 13
                                     : !graded.all_right && graded.wrong.length > 0;
    check(s.tab === 'check' && graded.answer_error === '' && named && verdict,
          `the Check tab grades the ${kind} answer in the page: ${JSON.stringify(graded)}`);
  }

  // 8c. The app's own limits (core/limits/limits.hpp, asked of the app by file name) hold in the
  // page before a byte is read: files made in the page and dropped on it (its drop code) — a
  // model folder's config.json past its 1 MiB, an answer .npz past its 1 GiB dropped alone, and a
  // folder whose model.safetensors (no limit of its own, as on the desktop) is past the page's
  // memory (-sMAXIMUM_MEMORY=2GB) — are each refused with one line, nothing is written to the
  // page's memory, the exercise open stays open, and the next drop (a right answer) is graded.
  // The big files are one 64 MiB blob given many times (the browser keeps one copy of it).
  const dropMade = (made) => page.evaluate((made) => {
    const block = new Blob([new Uint8Array(64 << 20)]);
    const transfer = new DataTransfer();
    for (const {name, blocks, bytes, base64} of made) {
      const parts = base64 ? [Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))]
                  : blocks ? Array(blocks).fill(block) : [new Uint8Array(bytes)];
      transfer.items.add(new File(parts, name));
    }
    window.dispatchEvent(new DragEvent('drop', {dataTransfer: transfer, cancelable: true}));
  }, made);
  const pageLine = async () => {
    const line = await page.waitForFunction(() => {
      const el = document.getElementById('model-progress');
      return !el.hidden && el.className === 'error' && el.textContent;
    }, {timeout: 10000}).then((handle) => handle.jsonValue()).catch(() => '(no line)');
    await page.evaluate(() => { document.getElementById('model-progress').hidden = true; });
    return line;
  };
  const config = fs.readFileSync(path.join(tiny, 'config.json')).toString('base64');
  for (const [what, made, wanted] of [
    ['a config.json past 1 MiB', [{name: 'config.json', bytes: 2 << 20}, {name: 'model.safetensors', bytes: 64}],
     "model/config.json: is 2 MiB, over the 1 MiB a model's settings file may hold; give the folder of a downloaded or trained model"],
    ['an answer .npz past 1 GiB, alone', [{name: 'answer.npz', blocks: 17}],
     'answer.npz: is 1.1 GiB, over the 1 GiB an answer may hold; save fewer or smaller stages'],
    ['a 2.5 GiB model.safetensors', [{name: 'config.json', base64: config}, {name: 'model.safetensors', blocks: 40}],
     "model: is 2.5 GiB to read, more than the 2 GiB this page's memory can hold; open a smaller model, or open it in the desktop app"],
  ]) {
    await dropMade(made);
    const line = await pageLine();
    const written = await page.evaluate(() => ['/models/model', '/answers/answer.npz']
                                                   .filter((file) => Module.FS.analyzePath(file).exists));
    const frame = s.frame;  // the app draws on input: a mouse move after the refusal draws anew
    await page.mouse.move(600 + frame % 50, 300);
    s = await waitFor((st) => st.frame > frame, 'a frame after the refusal', 10);
    check(line === wanted && written.length === 0 && s.check.dir === '/models/forget-transpose',
          `${what} is refused before it is read: "${line}" (written: ${written.join(', ') || 'nothing'}; ` +
          `the exercise open: ${s.check.dir})`);
  }
  const rightAnswer = fs.readFileSync(path.join(exercises, 'right', 'answer.npz')).toString('base64');
  await dropMade([{name: 'answer.npz', base64: rightAnswer}]);
  s = await waitFor((st) => st.check.answer === '/answers/answer.npz' && st.check.graded &&
                    st.check.graded.all_right, 'the right answer dropped after the refusals', 30).catch(() => s);
  check(s.check.answer === '/answers/answer.npz' && s.check.graded.all_right,
        `after the refusals the next drop is read and graded: ${JSON.stringify(s.check.graded)}`);

  // 9. A static host without the headers: the service worker isolates the page (one reload).
  await page.goto(`${plainUrl}/index.html?preset=seed003&stage=attend`);
  s = await waitFor((st) => st.frame >= 3 && st.heatmaps.length > 0, 'the page on a plain host', 60);
  const isolated = await page.evaluate(() => window.crossOriginIsolated);
  check(isolated && s.heatmaps.length === 2,
        `on a host without the headers the page isolates itself (${isolated}) and draws 2 heads`);

  // 10. The page as one file, opened from file:// as a double-click opens it: every request it
  // makes must stay in file:, data: or blob: (anything else is refused and counted).
  await page.setRequestInterception(true);
  const foreign = [], failed = [];
  page.on('request', (request) => {
    if (/^(file|data|blob):/.test(request.url())) return request.continue();
    foreign.push(request.url());
    return request.abort();
  });
  page.on('requestfailed', (request) => {
    if (!foreign.includes(request.url())) failed.push(request.url());
  });
  const fileStart = Date.now();
  await page.goto(`${onePage}?preset=seed003&stage=attend`);
  s = await waitFor((st) => st.frame >= 3 && st.heatmaps.length === 2, 'the one-file page', 120);
  console.log(`     one-file page: first frame with heatmaps after ${Date.now() - fileStart} ms`);
  const onePageFacts = await page.evaluate(() => ({
    isolated: window.crossOriginIsolated,
    notices: (document.body.innerText.match(/running on one thread/g) || []).length,
  }));
  check(!onePageFacts.isolated && onePageFacts.notices === 1,
        `from file:// (not isolated: ${!onePageFacts.isolated}) the page says once that it runs on one thread ` +
        `(${onePageFacts.notices} notice)`);
  await press('Escape');  // file:// is a new origin: a first start
  await pixelsMatchCore('one_page_attend', 2);
  // Through the stages with the arrow keys, to the last and back to the first: every step advances
  // the page's state, and every new stage changes the picture.
  const visited = [s.step.stage];
  let picture = await page.screenshot();
  let samePictures = 0;
  await page.mouse.move(900, 300);
  for (const [key, last, delta] of [['ArrowRight', 'output-project', 1], ['ArrowLeft', 'input', -1]]) {
    for (let presses = 0; s.step.stage !== last && presses < 40; presses++) {
      const at = s.step.index;
      s = await pressUntil(key, (st) => st.step.index === at + delta, `${key} from step ${at}`);
      if (s.step.stage === visited[visited.length - 1]) continue;
      visited.push(s.step.stage);
      const next = await page.screenshot();
      if (next.equals(picture)) samePictures += 1;
      picture = next;
    }
  }
  check(['attend', 'concat', 'output-project', 'concat', 'attend', 'transpose', 'split', 'project', 'input']
            .join() === visited.join() && samePictures === 0,
        `the arrow keys step through every stage, each drawn anew (${visited.join(' → ')}; ` +
        `${samePictures} unchanged pictures)`);
  // A built-in lesson, played with PageDown.
  await page.goto(`${onePage}?lesson=notebook&present`);
  s = await waitFor((st) => st.frame >= 3 && st.lesson && st.lesson.scenes === 18, 'the notebook lesson, one file', 120);
  await page.mouse.move(600, 300);
  s = await pressUntil('PageDown', (st) => st.lesson.revealed, 'the answer revealed');
  s = await pressUntil('PageDown', (st) => st.lesson.scene === 1, 'the second scene');
  check(s.lesson.scene === 1 && s.lesson.errors.length === 0,
        `?lesson=notebook plays from file://: PageDown reaches scene ${s.lesson.scene + 1} of ${s.lesson.scenes}`);
  // Save as one page: the page with the lesson's Markdown inside, as written in lessons/: one
  // block of JSON {name, markdown} holding no "<" (web/index.html's lessonBlock).
  // The pattern takes the data ({...}), never the page's own code that spells the tag.
  const lessonPattern = /<script type="application\/json" id="attnlab-lesson">(\{[^<]*?)<\/script>/g;
  const lessonBlock = (html) => {
    const found = [...html.matchAll(lessonPattern)];
    if (found.length !== 1 || found[0][1].includes('<')) return null;
    try {
      const held = JSON.parse(found[0][1]);
      return {name: held.name, text: held.markdown};
    } catch (error) {
      return null;
    }
  };
  const savePage = async (what) => {
    await page.evaluate(() => { window.attnlabSavedPage = null; });
    await page.click('#save-page');
    const saved = await page.waitForFunction(() => window.attnlabSavedPage, {timeout: 20000})
                      .then((handle) => handle.jsonValue()).catch(() => null);
    const file = saved && path.join(downloads, saved.name);
    for (let i = 0; i < 100 && file && !(fs.existsSync(file) && fs.statSync(file).size >= saved.bytes); i++)
      await new Promise((resolve) => setTimeout(resolve, 200));
    await new Promise((resolve) => setTimeout(resolve, 500));  // written whole
    const html = file && fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    console.log(`     Save as one page (${what}): ${saved && saved.name}, ${html.length} characters`);
    return html;
  };
  const notebookPage = await savePage('notebook');
  const notebookBlock = lessonBlock(notebookPage);
  const notebookMarkdown = fs.readFileSync(path.join(here, '../../lessons/notebook.md'), 'utf8');
  check(notebookBlock && notebookBlock.name === 'notebook' && notebookBlock.text === notebookMarkdown &&
        notebookPage.includes('id="attnlab-code"'),
        `"Save as one page" downloads the page with the notebook lesson inside ` +
        `(${notebookBlock ? notebookBlock.name + ', ' + notebookBlock.text.length + ' characters' : 'no lesson block'})`);
  // A lesson whose Markdown holds "</script>", "</b>", "<!--<script", "<\/" and "]]>", in a page
  // whose block is written as index.html writes it; saved again from the page that plays it (read
  // back exactly, still no "<" in the block), then that saved page opened alone.
  const title = 'Escapes </script> and </b> stay text';
  const escapes = `# ${title}\n\nA lesson inside the page.\n\n## First\n\`\`\`attnlab\n--preset seed003 --stage attend\n` +
                  `\`\`\`\nCaption: The first scene, <!--<script> <\\/b> & ]]>.\n\n## Second\n\`\`\`attnlab\n` +
                  `--preset seed003 --stage concat\n\`\`\`\nCaption: The second scene, </script> and all.\n`;
  const alone = (folder, html) => {
    const dir = path.join(outDir, folder);
    fs.mkdirSync(dir, {recursive: true});
    fs.writeFileSync(path.join(dir, 'attnlab.html'), html);
    return 'file://' + path.join(dir, 'attnlab.html');
  };
  const block = '<script type="application/json" id="attnlab-lesson">' +
                JSON.stringify({name: 'escapes', markdown: escapes})
                    .replace(/[<>&]/g, (c) => '\\u00' + c.charCodeAt(0).toString(16)) + '</script>';
  await page.goto(alone('one-page-escapes', notebookPage.replace(lessonPattern, block)));
  s = await waitFor((st) => st.frame >= 3 && st.lesson && st.lesson.scenes === 2, 'the lesson inside the page', 120);
  check(s.lesson.title === title && s.lesson.errors.length === 0,
        `a page with a lesson inside plays it: "${s.lesson.title}" (${s.lesson.errors.join('; ')})`);
  const escapedPage = await savePage('escapes');
  const escapedBlock = lessonBlock(escapedPage);
  check(escapedBlock && escapedBlock.name === 'escapes' && escapedBlock.text === escapes,
        `saved again, the lesson is one JSON block with no "<" that reads back exactly ` +
        `(${escapedBlock ? 'one lesson block' : 'no lesson block'})`);
  // A page saved before the JSON block (the Markdown itself, every "</" written "<\/") still plays.
  const oldTitle = 'Saved before </script>';
  const oldLesson = escapes.replace(title, oldTitle).replace('<!--<script> <\\/b> ', '');
  const oldBlock = '<script type="text/markdown" id="attnlab-lesson" data-name="old">' +
                   oldLesson.replaceAll('</', '<\\/') + '</script>';
  await page.goto(alone('one-page-old', notebookPage.replace(lessonPattern, oldBlock)));
  s = await waitFor((st) => st.frame >= 3 && st.lesson && st.lesson.scenes === 2, 'the page saved before', 120);
  check(s.lesson.title === oldTitle && s.lesson.errors.length === 0,
        `a page saved before the JSON block plays its lesson: "${s.lesson.title}"`);
  await page.goto(alone('one-page-saved', escapedPage));
  s = await waitFor((st) => st.frame >= 3 && st.lesson && st.lesson.scenes === 2, 'the saved page', 120);
  await page.mouse.move(600, 300);
  s = await pressUntil('PageDown', (st) => st.lesson.scene === 1, 'the saved lesson\'s second scene');
  check(s.lesson.title === title && s.lesson.scene === 1,
        `the saved page opens alone and plays its lesson: scene ${s.lesson.scene + 1} of "${s.lesson.title}"`);
  if (desktopPage) {
    await page.goto(desktopPage);
    s = await waitFor((st) => st.frame >= 3 && st.lesson && st.lesson.scenes === 2, 'the desktop\'s page', 120);
    await page.mouse.move(600, 300);
    s = await pressUntil('PageDown', (st) => st.lesson.scene === 1, 'the desktop page\'s second scene');
    check(s.lesson.title === 'Written by the desktop </script>' && s.lesson.errors.length === 0 &&
          s.lesson.scene === 1,
          `the page the desktop app wrote (--export-page) opens alone from file:// and plays its lesson: ` +
          `scene ${s.lesson.scene + 1} of "${s.lesson.title}"`);
  }
  check(foreign.length === 0 && failed.length === 0,
        `the one-file pages asked for nothing outside file:, data:, blob: (${foreign.concat(failed).join(', ') || 'none'})`);
} catch (error) {
  check(false, error.message);
}
await browser.close();
console.log(failures === 0 ? 'browser test: all passed' : `browser test: ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
