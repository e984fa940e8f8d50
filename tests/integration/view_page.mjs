// Opens a page of `hwtrace view` in a running headless Chromium (through
// the DevTools protocol, devtools.mjs), uses it as a person would, and
// prints what it shows, one fact a line, tab-separated:
//   console TEXT                 a console error, an uncaught exception or
//                                a browser error (a refused fetch)
//   state   ready|timeout        whether the page finished drawing
//   ready   MS                   the page's time (performance.now) then
//   width   PX                   the flame graph's width
//   frame   PATH VALUE LEFT WIDTH   each frame drawn (PATH "" for "all")
//   agg     FRAMES VALUE WIDTH   a grey block of frames narrower than a pixel
//   note    TEXT                 the flame graph's note on what was added up
//   tnote   TEXT                 the timeline's
//   fact    KEY VALUE            a line of the capture's facts
//   mark    TID KIND             each mark on a thread's timeline
//   func    NAME DSO CALLS SELF TOTAL   the functions table
//   then after clicking the frame CLICK (a path): focus PATH, and zoom
//   PATH VALUE LEFT WIDTH for each frame; after typing SEARCH in the
//   search box: match PATH for each highlighted frame, and found TEXT;
//   after clicking function PICK in the table: caller NAME CALLS INSNS
//   and callee NAME CALLS INSNS.
// Usage: node view_page.mjs PORT URL SHOT.png SECONDS CLICK SEARCH PICK
import { writeFileSync } from 'node:fs';
import { openPage, out, sleep } from './devtools.mjs';

const [port, url, shotPath, seconds, click, search, pick] = process.argv.slice(2);
const page = await openPage(port, seconds);
const { send, evaluate, until } = page;
const errors = [];
page.on((method, p) => {
  if (method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'assert'))
    errors.push(p.args.map((a) => a.value ?? a.description).join(' '));
  else if (method === 'Runtime.exceptionThrown')
    errors.push(p.exceptionDetails.exception?.description ?? p.exceptionDetails.text);
  else if (method === 'Log.entryAdded' && p.entry.level === 'error')
    errors.push(p.entry.text);
});
await send('Page.enable');
await send('Runtime.enable');
await send('Log.enable');
await send('Emulation.setDeviceMetricsOverride', {
  width: 1600, height: 1200, deviceScaleFactor: 1, mobile: false,
});
// Enabling the domains replays what the page before logged: only what
// comes after a blank page counts.
await send('Page.navigate', { url: 'about:blank' });
await sleep(300);
errors.length = 0;
await send('Page.navigate', { url });

const ready = await until(() => evaluate(
  `document.body && document.body.dataset.ready === 'yes' ? window.hwtView.readyMs : null`));
out('state', ready === null ? 'timeout' : 'ready');
const frames = (kind) => evaluate(`[...document.querySelectorAll('#flame .frame')].map((d) =>
  d.classList.contains('agg') ? ['agg', d.dataset.aggregated, d.dataset.value, d.style.width]
  : ['${kind}', d.dataset.path, d.dataset.value, d.style.left, d.style.width])`);
const strip = (px) => String(parseFloat(px));
if (ready !== null) {
  out('ready', ready.toFixed(0));
  out('width', await evaluate(`document.getElementById('flame').clientWidth`));
  for (const f of await frames('frame')) out(...f.map((v, i) => (i >= 3 ? strip(v) : v)));
  out('note', await evaluate(`document.getElementById('flame-note').textContent`));
  out('tnote', await evaluate(`(document.getElementById('timeline-note') || {}).textContent || ''`));
  for (const r of await evaluate(`[...document.querySelectorAll('#facts tr')].map((tr) =>
      [tr.querySelector('th').textContent, tr.querySelector('td').textContent])`)) out('fact', ...r);
  for (const m of await evaluate(`[...document.querySelectorAll('.track')].flatMap((t) =>
      [...t.querySelectorAll('.mark')].map((m) => [t.dataset.tid, m.dataset.kind]))`)) out('mark', ...m);
  for (const r of await evaluate(`[...document.querySelectorAll('#funcs tr.func')].map((tr) =>
      [...tr.querySelectorAll('td')].slice(0, 6).map((td) => td.textContent))`))
    out('func', r[0], r[1], ...[r[2], r[3], r[5]].map((s) => s.replace(/,/g, '')));

  // A real click in the middle of the frame.
  const at = await evaluate(`(() => {
    const d = [...document.querySelectorAll('#flame .frame')].find((d) => d.dataset.path === ${JSON.stringify(click)});
    if (!d) return null;
    d.scrollIntoView({ block: 'center' });
    const r = d.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  })()`);
  if (at) {
    for (const type of ['mousePressed', 'mouseReleased'])
      await send('Input.dispatchMouseEvent', { type, x: at[0], y: at[1], button: 'left', clickCount: 1 });
    out('focus', await evaluate(`document.getElementById('flame').dataset.focus`));
    for (const f of await frames('zoom')) out(...f.map((v, i) => (i >= 3 ? strip(v) : v)));
  } else {
    out('focus', 'no such frame to click');
  }
  // Typed into the search box, a key at a time.
  await evaluate(`document.getElementById('reset').click(); document.getElementById('search').focus()`);
  for (const ch of search) await send('Input.insertText', { text: ch });
  for (const p of await evaluate(`[...document.querySelectorAll('#flame .frame.match')].map((d) => d.dataset.path)`))
    out('match', p);
  out('found', await evaluate(`document.getElementById('search-result').textContent`));
  await evaluate(`(() => { const tr = [...document.querySelectorAll('#funcs tr.func')]
    .find((tr) => tr.dataset.name === ${JSON.stringify(pick)}); if (tr) tr.click(); })()`);
  for (const [id, kind] of [['callers', 'caller'], ['callees', 'callee']])
    for (const r of await evaluate(`[...document.querySelectorAll('#${id} tr')].slice(1).map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => td.textContent.replace(/,/g, '')))`))
      out(kind, ...r);
}
const shot = await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true });
writeFileSync(shotPath, Buffer.from(shot.data, 'base64'));
for (const e of errors) out('console', e);
page.close();
