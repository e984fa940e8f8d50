// A page of a running headless Chromium, driven through the DevTools
// protocol with node's own WebSocket (no browser download): what the
// page tests (speedscope_page.mjs, view_page.mjs) share.
//   const page = await openPage(port, seconds);
//   page.send(method, params), page.evaluate(expression),
//   page.until(fn): fn's first value other than null, before the deadline,
//   page.dialogs: the alert() messages answered so far.
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// One fact a line, tab-separated (tabs and newlines in values as spaces).
export const out = (...f) => console.log(f.map((s) => String(s).replace(/[\t\n]/g, ' ')).join('\t'));

export async function openPage(port, seconds) {
  const deadline = Date.now() + Number(seconds) * 1000;
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const target = targets.find((t) => t.type === 'page');
  if (!target) throw new Error('no page target in the browser');
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error('cannot connect to the page'));
  });
  let lastId = 0;
  const pending = new Map();
  const listeners = [];
  const page = { dialogs: [], deadline };
  page.send = (method, params = {}) => {
    const id = ++lastId;
    ws.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
  };
  // fn(method, params) for every event the browser sends.
  page.on = (fn) => listeners.push(fn);
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.id && pending.has(msg.id)) {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
      else p.resolve(msg.result);
      return;
    }
    if (msg.method === 'Page.javascriptDialogOpening') {
      // An alert blocks the page until answered.
      page.dialogs.push(msg.params.message);
      page.send('Page.handleJavaScriptDialog', { accept: true });
    }
    for (const fn of listeners) fn(msg.method, msg.params);
  };
  page.evaluate = async (expression) => {
    const r = await page.send('Runtime.evaluate', { expression, returnByValue: true });
    if (r.exceptionDetails) throw new Error(`page: ${r.exceptionDetails.text}`);
    return r.result.value;
  };
  page.until = async (fn) => {
    while (Date.now() < deadline) {
      const v = await fn();
      if (v !== null) return v;
      await sleep(100);
    }
    return null;
  };
  page.close = () => ws.close();
  return page;
}
