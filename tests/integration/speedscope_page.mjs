// Drives a speedscope page in a running headless Chromium through the
// DevTools protocol (node's own WebSocket; no browser download) and prints
// what a person would see there, one fact a line, tab-separated:
//   dialog  MESSAGE              an alert() (speedscope's import errors)
//   state   loaded|error|timeout how the page ended up
//   profile INDEX NAME TOTAL     the profile list (one per thread)
//   drawn   TEXT                 a frame label drawn on the flame chart
//   row     PROFILE TOTAL SELF NAME   a line of each profile's sandwich table
// Usage: node speedscope_page.mjs DEVTOOLS_PORT URL SCREENSHOT.png SECONDS
import { writeFileSync } from 'node:fs';
import { openPage, out } from './devtools.mjs';

const [port, url, shotPath, seconds] = process.argv.slice(2);
const page = await openPage(port, seconds);
const { send, evaluate, until, dialogs } = page;
async function press(key) {
  await send('Input.dispatchKeyEvent', { type: 'keyDown', key, text: key });
  await send('Input.dispatchKeyEvent', { type: 'keyUp', key });
}
// The flame chart is a canvas: record every label drawn on it.
await send('Page.enable');
await send('Page.addScriptToEvaluateOnNewDocument', {
  source: `window.__labels = new Set();
    const fill = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
      window.__labels.add(String(text));
      return fill.call(this, text, ...rest);
    };`,
});
// From a blank page, so that a URL differing only in its hash loads anew.
await send('Page.navigate', { url: 'about:blank' });
await send('Page.navigate', { url });

// Loaded: the toolbar names a profile ("NAME (1/3)") and the chart has
// drawn a frame label (not only its time axis: "1.00ms").
const state = await until(async () => {
  if (dialogs.length) return 'error';
  return evaluate(`(() => {
    const text = document.body ? document.body.innerText : '';
    if (text.includes('Something went wrong')) return 'error';
    if (!/\\(\\d+\\/\\d+\\)/.test(text) || !document.querySelector('canvas')) return null;
    const frames = [...(window.__labels || [])].filter((s) => !/^[\\d.]+(ns|µs|ms|s|min)$/.test(s));
    return frames.length ? 'loaded' : null;
  })()`);
});
for (const d of dialogs) out('dialog', d);
out('state', state ?? 'timeout');

const shot = await send('Page.captureScreenshot', { format: 'png' });
writeFileSync(shotPath, Buffer.from(shot.data, 'base64'));

if (state === 'loaded') {
  for (const s of await evaluate('[...window.__labels]')) out('drawn', s);
  // The profile list is in the page (shown when the name is clicked).
  const profiles = await evaluate(`[...document.querySelectorAll('tr[title]')].map(
    (tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText))`);
  for (const p of profiles) out('profile', ...p);

  // The sandwich view lists every function with its total and self time;
  // its rows are drawn only where they are seen, so make the page tall.
  await send('Emulation.setDeviceMetricsOverride', {
    width: 1400, height: 6000, deviceScaleFactor: 1, mobile: false,
  });
  await press('3');
  for (let i = 1; i <= profiles.length; i++) {
    const name = await until(async () => evaluate(`(() => {
      const m = /^(.*) \\((\\d+)\\/\\d+\\)$/m.exec(document.body.innerText);
      const rows = [...document.querySelectorAll('tr')].filter(
        (tr) => tr.offsetParent && tr.querySelectorAll('td').length === 3);
      return m && Number(m[2]) === ${i} && rows.length ? m[1] : null;
    })()`));
    if (name === null) {
      out('state', `timeout reading profile ${i}`);
      break;
    }
    const rows = await evaluate(`[...document.querySelectorAll('tr')].filter(
      (tr) => tr.offsetParent && tr.querySelectorAll('td').length === 3).map(
      (tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()))`);
    for (const r of rows) out('row', name, ...r);
    await press('n');
  }
}
page.close();
