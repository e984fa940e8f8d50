// The page of `hwtrace view` (analysis/view/): reads the capture's data
// from the <script id="hwt-data"> element and draws the facts, a flame
// graph (an icicle: callers above their callees), the functions with
// their callers and callees, and a timeline per thread. Plain DOM and
// canvas, no library, nothing fetched: the page works from file://.
// Names come from the traced program: they are only ever set as text.
'use strict';

const data = JSON.parse(document.getElementById('hwt-data').textContent);
const WEIGHTS = [
  { key: 0, name: 'instructions', unit: 'insns' },
  { key: 1, name: 'calls', unit: 'calls' },
  { key: 2, name: 'time', unit: 'ns' },
];
const MIN_PX = 1;        // a frame narrower than this is added up
const ROW_PX = 18;       // a flame graph row
const LANE_PX = 12;      // a timeline depth
const MAX_LANES = 64;    // timeline depths drawn

// --- small helpers --------------------------------------------------------
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const pct = (part, whole) => (whole ? (100 * part / whole).toFixed(2) : '0.00') + '%';
function fmtTime(ns) {
  if (ns >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
  if (ns >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
  if (ns >= 1e3) return (ns / 1e3).toFixed(3) + ' µs';
  return fmt(ns) + ' ns';
}
// A stable warm colour per name, as flame graphs have.
function colour(name) {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return `hsl(${10 + h % 40}, ${60 + (h >> 8) % 30}%, ${55 + (h >> 16) % 15}%)`;
}
const tip = el('div', { id: 'tip' });
function showTip(ev, text) {
  tip.textContent = text;
  tip.style.display = 'block';
  tip.style.left = Math.min(ev.pageX + 12, document.body.scrollWidth - 420) + 'px';
  tip.style.top = ev.pageY + 14 + 'px';
}
const hideTip = () => { tip.style.display = 'none'; };

// --- the call tree of the folded stacks -----------------------------------
// Each node: name, parent, children (Map), total[w] (its stacks and all
// below) and self[w] (its own stack's counts) for each weight.
function newNode(name, parent) {
  return { name, parent, children: new Map(), total: [0, 0, 0], self: [0, 0, 0] };
}
function buildTree(stacks) {
  const root = newNode('all', null);
  for (const [path, ...counts] of stacks) {
    let node = root;
    for (let w = 0; w < 3; w++) root.total[w] += counts[w];
    for (const name of path.split(';')) {
      let child = node.children.get(name);
      if (!child) node.children.set(name, (child = newNode(name, node)));
      for (let w = 0; w < 3; w++) child.total[w] += counts[w];
      node = child;
    }
    for (let w = 0; w < 3; w++) node.self[w] += counts[w];
  }
  return root;
}
const pathOf = (node) => {
  const names = [];
  for (let n = node; n.parent; n = n.parent) names.push(n.name);
  return names.reverse().join(';');
};

// --- facts -----------------------------------------------------------------
function factsSection() {
  const f = data.facts, t = data.timeline;
  const rows = [['capture', data.title], ['decoded by', f.backend || 'not known']];
  rows.push(['CPUs traced', f.cpus.length ? f.cpus.join(', ') : 'per-thread trace']);
  rows.push(['threads', String(f.stacks ? f.stacks.threads : t.threads.length)]);
  if (f.stacks) {
    rows.push(['calls', fmt(f.stacks.calls) + ' (max depth ' + f.stacks.max_depth + ')']);
    rows.push(['frames ended by lost trace', fmt(f.stacks.cut_by_gap)]);
    rows.push(['frames ended where tracing stopped', fmt(f.stacks.cut_by_trace_off)]);
  }
  if (t.span) rows.push(['time traced', fmtTime(t.span)]);
  if (f.losses) {
    const l = f.losses;
    rows.push(['losses (the capture\'s records)',
      `${fmt(l.truncated)} AUX buffers truncated, ${fmt(l.collisions)} collisions, ` +
      `${fmt(l.lost_events)} LOST records (${fmt(l.lost_records)} records), ` +
      `${fmt(l.trace_errors)} trace errors`]);
  }
  const gaps = Object.entries(f.gaps).map(([r, n]) => `${fmt(n)} ${r}`);
  rows.push(['gaps in the decode', gaps.length ? gaps.join(', ') : 'none']);
  rows.push(['decode errors', fmt(f.decode_errors)]);
  rows.push(['missing binaries', f.missing.length
    ? f.missing.map(([p, why]) => `${p} (${why})`).join('; ') : 'none']);
  const table = el('table', { id: 'facts' });
  for (const [k, v] of rows) table.append(el('tr', {}, el('th', { text: k }), el('td', { text: v })));
  return el('section', {}, el('h2', { text: 'The capture' }), table);
}

// --- flame graph -------------------------------------------------------------
function flameSection(root, onPick) {
  const state = { weight: 0, focus: root, search: '' };
  const box = el('div', { id: 'flame' });
  const note = el('p', { id: 'flame-note', class: 'note' });
  const found = el('span', { id: 'search-result' });
  const weight = el('select', { id: 'weight' });
  for (const w of WEIGHTS) weight.append(el('option', { value: w.key, text: w.name }));
  const search = el('input', { id: 'search', type: 'search', placeholder: 'search: text or /regex/' });
  const reset = el('button', { id: 'reset', type: 'button', text: 'zoom out' });

  function matcher() {
    const s = state.search;
    if (!s) return null;
    const m = /^\/(.*)\/$/.exec(s);
    if (m) {
      try { const re = new RegExp(m[1]); return (n) => re.test(n); } catch (e) { return () => false; }
    }
    const low = s.toLowerCase();
    return (n) => n.toLowerCase().includes(low);
  }

  function frame(node, x, w, row, cls) {
    const d = el('div', { class: 'frame ' + cls });
    d.style.left = x + 'px';
    d.style.width = w + 'px';
    d.style.top = row * ROW_PX + 'px';
    d.style.background = cls.includes('agg') ? '' : colour(node.name);
    if (w > 28) d.textContent = node.name;
    return d;
  }

  function draw() {
    const wk = state.weight, unit = WEIGHTS[wk].unit;
    const width = box.clientWidth || 1200;
    const focus = state.focus, all = root.total[wk];
    const match = matcher();
    const frames = [];
    let rows = 0, aggregated = 0, aggValue = 0, matched = 0;
    const place = (node, d) => {
      d.dataset.path = pathOf(node);
      d.dataset.value = node.total[wk];
      d.nodeRef = node;
      if (match && node.parent && match(node.name)) d.classList.add('match');
      frames.push(d);
    };
    // The focus's callers, full width above it.
    const chain = [];
    for (let n = focus; n; n = n.parent) chain.unshift(n);
    chain.forEach((n, i) => place(n, frame(n, 0, width, i, n === focus ? 'focus' : 'above')));
    rows = chain.length;
    // Below it, each node as wide as its share; what is narrower than a
    // pixel is added up, one grey block per parent.
    const scale = focus.total[wk] ? width / focus.total[wk] : 0;
    const walk = (node, x, row, inMatch) => {
      let at = x, small = 0, smallCount = 0;
      const kids = [...node.children.values()].filter((c) => c.total[wk] > 0)
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const c of kids) {
        const w = c.total[wk] * scale;
        const hit = !inMatch && match && match(c.name);
        if (hit) matched += c.total[wk];
        if (w < MIN_PX) {
          small += c.total[wk];
          smallCount += countNodes(c, wk);
          at += w;
          continue;
        }
        place(c, frame(c, at, w, row, 'below'));
        rows = Math.max(rows, row + 1);
        walk(c, at, row + 1, inMatch || hit);
        at += w;
      }
      if (smallCount) {
        aggregated += smallCount;
        aggValue += small;
        // Drawn however thin, so that the page accounts for every frame.
        const w = small * scale;
        const d = frame({ name: '' }, at - w, w, row, 'agg');
        d.dataset.aggregated = smallCount;
        d.dataset.value = small;
        frames.push(d);
      }
    };
    walk(focus, 0, chain.length, match && focus.parent && match(focus.name));
    if (match && focus.parent && match(focus.name)) matched = focus.total[wk];
    box.replaceChildren(...frames);
    box.style.height = rows * ROW_PX + 'px';
    box.dataset.focus = pathOf(focus);
    note.textContent = aggregated
      ? `Added up below a pixel: ${fmt(aggregated)} frames (${fmt(aggValue)} ${unit}, ` +
        `${pct(aggValue, all)} of all) are narrower than one pixel at this zoom and are ` +
        'drawn as grey blocks, one under each caller. Click a frame to zoom in.'
      : 'Every frame is drawn (none is narrower than a pixel). Click a frame to zoom in.';
    found.textContent = match ? `matched: ${fmt(matched)} ${unit} (${pct(matched, focus.total[wk])} of the view)` : '';
  }

  box.addEventListener('click', (ev) => {
    const d = ev.target.closest('.frame');
    if (!d || !d.nodeRef) return;
    state.focus = d.nodeRef;
    draw();
    if (d.nodeRef.parent) onPick(d.nodeRef.name);
  });
  box.addEventListener('mousemove', (ev) => {
    const d = ev.target.closest('.frame');
    if (!d) return hideTip();
    const wk = state.weight, unit = WEIGHTS[wk].unit;
    if (d.dataset.aggregated) {
      return showTip(ev, `${d.dataset.aggregated} frames narrower than a pixel: ${fmt(+d.dataset.value)} ${unit}`);
    }
    const n = d.nodeRef;
    showTip(ev, `${n.name}\n${fmt(n.total[wk])} ${unit} (${pct(n.total[wk], root.total[wk])} of all), ` +
      `self ${fmt(n.self[wk])}\n${d.dataset.path}`);
  });
  box.addEventListener('mouseleave', hideTip);
  weight.addEventListener('change', () => { state.weight = +weight.value; draw(); });
  search.addEventListener('input', () => { state.search = search.value; draw(); });
  reset.addEventListener('click', () => { state.focus = root; draw(); });
  window.addEventListener('resize', draw);
  const section = el('section', {}, el('h2', { text: 'Flame graph' }),
    el('div', { class: 'controls' }, 'weight ', weight, ' ', search, ' ', reset, ' ', found), box, note);
  return { section, draw, state };
}
function countNodes(node, wk) {
  let n = 1;
  for (const c of node.children.values()) if (c.total[wk] > 0) n += countNodes(c, wk);
  return n;
}

// --- functions, their callers and callees ---------------------------------
// An edge's calls are the callee's calls made from that caller; its
// instructions count each recursive edge once (its outermost, where
// neither function is already on the stack above).
function edges(root, name) {
  const callers = new Map(), callees = new Map();
  const add = (m, k, calls, insns) => {
    const e = m.get(k) || { calls: 0, insns: 0 };
    e.calls += calls;
    e.insns += insns;
    m.set(k, e);
  };
  const onStack = new Map();
  const visit = (node) => {
    if (node.name === name && node.parent) {
      const caller = node.parent.parent ? node.parent.name : '(outermost)';
      add(callers, caller, node.self[1], onStack.get(name) ? 0 : node.total[0]);
      for (const c of node.children.values()) {
        const nested = onStack.get(name) || onStack.get(c.name);
        add(callees, c.name, c.self[1], nested ? 0 : c.total[0]);
      }
    }
    onStack.set(node.name, (onStack.get(node.name) || 0) + 1);
    for (const c of node.children.values()) visit(c);
    onStack.set(node.name, onStack.get(node.name) - 1);
  };
  for (const c of root.children.values()) visit(c);
  return { callers, callees };
}

function funcsSection(root) {
  const LIMIT = 100;
  const funcs = data.funcs.map(([name, dso, calls, self, total, tself, ttotal]) =>
    ({ name, dso, calls, self, total, tself, ttotal }))
    .sort((a, b) => b.self - a.self || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      (a.dso < b.dso ? -1 : 1));
  const all = root.total[0];
  const table = el('table', { id: 'funcs', class: 'grid' });
  const peek = el('div', { id: 'peek' });
  const head = ['function', 'dso', 'calls', 'self insns', 'self %', 'total insns', 'total %', 'self time', 'total time'];
  table.append(el('tr', {}, ...head.map((h) => el('th', { text: h }))));
  let shown = 0;
  const more = el('button', { type: 'button', id: 'more' });
  function addRows(n) {
    for (const f of funcs.slice(shown, shown + n)) {
      const tr = el('tr', { class: 'func' },
        el('td', { text: f.name }), el('td', { text: f.dso }), el('td', { text: fmt(f.calls) }),
        el('td', { text: fmt(f.self) }), el('td', { text: pct(f.self, all) }),
        el('td', { text: fmt(f.total) }), el('td', { text: pct(f.total, all) }),
        el('td', { text: fmtTime(f.tself) }), el('td', { text: fmtTime(f.ttotal) }));
      tr.dataset.name = f.name;
      table.append(tr);
    }
    shown = Math.min(funcs.length, shown + n);
    more.textContent = `show all ${fmt(funcs.length)} functions`;
    more.style.display = shown < funcs.length ? '' : 'none';
  }
  addRows(LIMIT);
  more.addEventListener('click', () => addRows(funcs.length));
  function pick(name) {
    for (const tr of table.querySelectorAll('tr.picked')) tr.classList.remove('picked');
    for (const tr of table.querySelectorAll('tr.func')) if (tr.dataset.name === name) tr.classList.add('picked');
    const { callers, callees } = edges(root, name);
    const list = (title, id, m) => {
      const t = el('table', { id, class: 'grid' },
        el('tr', {}, el('th', { text: title }), el('th', { text: 'calls' }), el('th', { text: 'total insns' })));
      for (const [k, e] of [...m.entries()].sort((a, b) => b[1].insns - a[1].insns)) {
        t.append(el('tr', {}, el('td', { text: k }), el('td', { text: fmt(e.calls) }), el('td', { text: fmt(e.insns) })));
      }
      return t;
    };
    peek.replaceChildren(el('h3', { text: name }),
      el('div', { class: 'pair' }, list('callers', 'callers', callers), list('callees', 'callees', callees)));
  }
  table.addEventListener('click', (ev) => {
    const tr = ev.target.closest('tr.func');
    if (tr) pick(tr.dataset.name);
  });
  const section = el('section', {}, el('h2', { text: 'Functions' }),
    el('p', { class: 'note', text: 'By the instructions executed in each (self) and in what it called (total). ' +
      'Click a function for its callers and callees.' }), table, more, peek);
  return { section, pick };
}

// --- timeline ------------------------------------------------------------------
function timelineSection() {
  const t = data.timeline;
  const section = el('section', {}, el('h2', { text: 'Timeline' }));
  if (!t.span) {
    section.append(el('p', { id: 'timeline-note', class: 'note', text: 'The capture has no time: there is no timeline to draw.' }));
    return { section, draw: () => {} };
  }
  const byThread = t.threads.map(() => []);
  // thread, name (-1: several functions), depth, start, duration, calls
  for (let i = 0; i < t.slices.length; i += 6) {
    byThread[t.slices[i]].push(t.slices.slice(i + 1, i + 6));
  }
  const nameOf = ([name, , , , calls]) => (calls > 1
    ? `${fmt(calls)} calls of ${name < 0 ? 'several functions' : t.names[name]}, added up`
    : t.names[name]);
  const tracks = [];
  t.threads.forEach((th, i) => {
    const label = (th.name || '?') + (th.tid >= 0 ? ` (pid ${th.pid}, tid ${th.tid})` : ` (cpu ${th.cpu})`);
    const canvas = el('canvas', {});
    const marks = el('div', { class: 'marks' });
    const track = el('div', { class: 'track' }, el('div', { class: 'label', text: label }),
      el('div', { class: 'lane' }, canvas, marks));
    track.dataset.tid = th.tid;
    section.append(track);
    tracks.push({ canvas, marks, slices: byThread[i],
      marksOf: t.marks.filter((m) => m[0] === i) });
  });
  const deepest = (k) => k.slices.reduce((m, s) => Math.max(m, s[1]), 0);
  const deep = Math.max(0, ...tracks.map(deepest));
  section.append(el('p', { id: 'timeline-note', class: 'note', text:
    (t.short
      ? `Added up below a pixel: ${fmt(t.short)} calls shorter than ${fmtTime(t.pixel)} ` +
        `(one of ${fmt(t.pixels)} pixels across the ${fmtTime(t.span)} traced) are drawn added up, ` +
        `in ${fmt(t.blocks)} grey blocks (one for each pixel and depth of a thread). `
      : `Every call is drawn (none is shorter than one of ${fmt(t.pixels)} pixels across the ` +
        `${fmtTime(t.span)} traced). `) + (t.untimed ? `${fmt(t.untimed)} calls without time are left out. ` : '') +
    (deep >= MAX_LANES ? `Calls deeper than ${MAX_LANES} are not drawn. ` : '') +
    (t.marks_dropped ? `${fmt(t.marks_dropped)} more marks than the page shows are left out. ` : '') +
    'Red: trace lost; grey: trace went off; green: trace came back on; black: a decode error.' }));

  function draw() {
    for (const k of tracks) {
      const width = k.canvas.parentElement.clientWidth || 1200;
      const lanes = Math.min(MAX_LANES, 1 + deepest(k));
      const ratio = window.devicePixelRatio || 1;
      k.canvas.width = width * ratio;
      k.canvas.height = lanes * LANE_PX * ratio;
      k.canvas.style.width = width + 'px';
      k.canvas.style.height = lanes * LANE_PX + 'px';
      const g = k.canvas.getContext('2d');
      g.scale(ratio, ratio);
      g.font = '10px sans-serif';
      const x = width / t.span;
      for (const s of k.slices) {
        const [name, depth, start, dur, calls] = s;
        if (depth >= MAX_LANES) continue;
        const w = Math.max(1, dur * x);
        g.fillStyle = calls > 1 ? '#aaa' : colour(t.names[name]);
        g.fillRect(start * x, depth * LANE_PX, w, LANE_PX - 1);
        if (w > 40) {
          g.fillStyle = '#000';
          g.fillText(nameOf(s), start * x + 2, depth * LANE_PX + 9, w - 4);
        }
      }
      k.marks.replaceChildren(...k.marksOf.map(([, kind, time, why]) => {
        const m = el('div', { class: 'mark ' + kind });
        m.style.left = time * x + 'px';
        m.dataset.kind = kind;
        m.title = (kind === 'gap' ? `trace lost (${why})` : kind === 'off' ? 'trace off'
          : kind === 'on' ? 'trace on' : 'decode error') + ' at ' + fmtTime(time);
        return m;
      }));
      k.canvas.onmousemove = (ev) => {
        const r = k.canvas.getBoundingClientRect();
        const at = (ev.clientX - r.left) / x, depth = Math.floor((ev.clientY - r.top) / LANE_PX);
        let best = null;
        const slop = 1 / x; // a pixel either side: blocks are that narrow
        for (const s of k.slices) {
          if (s[1] === depth && s[2] - slop <= at && at <= s[2] + s[3] + slop) { best = s; break; }
        }
        if (best) showTip(ev, `${nameOf(best)}\n${fmtTime(best[3])} from ${fmtTime(best[2])}`);
        else hideTip();
      };
      k.canvas.onmouseleave = hideTip;
    }
  }
  window.addEventListener('resize', draw);
  return { section, draw };
}

// --- the page --------------------------------------------------------------
function main() {
  document.title = 'hwtrace view: ' + data.title;
  const root = buildTree(data.stacks);
  const funcs = funcsSection(root);
  const flame = flameSection(root, funcs.pick);
  const timeline = timelineSection();
  document.body.append(el('h1', { text: 'hwtrace view: ' + data.title }), factsSection(),
    flame.section, funcs.section, timeline.section, tip);
  flame.draw();
  timeline.draw();
  // For the tests and for anyone wondering: when the page was drawn.
  window.hwtView = { readyMs: performance.now(), flame: flame.state };
  document.body.dataset.ready = 'yes';
}
main();
