// The test console's browser code (served as /console/app.js; no framework, no CDN). It reads /openapi.json and
// builds a form for every operation of every family from the same schemas the server validates with, then shows
// what came back: before/after images, an async job's progress until done (and its result image), boxes drawn over
// the input (OCR fields, faces), tables, and a legal search over the MCP endpoint with the article text.
export const CONSOLE_JS = String.raw`'use strict';
const $ = (sel, el = document) => el.querySelector(sel);
function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids.flat()) if (kid != null) el.append(kid);
  return el;
}
const keyInput = $('#key');
keyInput.value = sessionStorage.getItem('sejongKey') || '';
keyInput.addEventListener('change', () => sessionStorage.setItem('sejongKey', keyInput.value.trim()));
const auth = () => (keyInput.value.trim() ? { 'x-api-key': keyInput.value.trim() } : {});
const HIDDEN_TAGS = new Set(['System', 'Console']);
const HELPER = /\/(status|image|result|download)(\/|$)|\/versions\/\{version\}\/image$/;

fetch('/ready').then((r) => r.json()).then((b) => { $('#health').textContent = 'ready: ' + b.status; $('#health').className = b.status === 'ready' ? 'ok' : 'err'; });

// ---------- forms from OpenAPI ----------
function inputFor(name, schema, required, where) {
  const s = schema || {};
  const id = where + ':' + name;
  const label = h('label', { class: 'field' }, h('span', { text: name + (required ? ' *' : '') }));
  let input;
  const t = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  if (s.format === 'binary') {
    input = h('input', { type: 'file', accept: 'image/*' });
    const preview = h('img', { class: 'thumb', alt: '' });
    input.addEventListener('change', () => { const f = input.files[0]; if (f) preview.src = URL.createObjectURL(f); });
    label.append(input, preview);
  } else if (s.enum) {
    input = h('select', {}, h('option', { value: '', text: '(default)' }), s.enum.map((v) => h('option', { value: String(v), text: String(v) })));
    label.append(input);
  } else if (t === 'boolean') {
    input = h('select', {}, h('option', { value: '', text: '(default)' }), h('option', { value: 'true', text: 'true' }), h('option', { value: 'false', text: 'false' }));
    label.append(input);
  } else if (t === 'object' || t === 'array' || (!t && (s.anyOf || s.oneOf || s.properties))) {
    input = h('textarea', { rows: 3, placeholder: t === 'array' ? '[ … ] (JSON)' : '{ … } (JSON)' });
    label.append(input);
  } else {
    input = h('input', { type: t === 'number' || t === 'integer' ? 'number' : 'text', step: t === 'number' ? 'any' : null, placeholder: s.description || s.pattern || '' });
    label.append(input);
  }
  input.dataset.name = name;
  input.dataset.where = where;
  input.dataset.kind = s.format === 'binary' ? 'file' : t || 'json';
  input.id = id.replace(/[^A-Za-z0-9_-]/g, '_');
  return label;
}

function schemaOf(op, type) {
  return op.requestBody && op.requestBody.content[type] ? op.requestBody.content[type].schema : null;
}

function operationCard(path, method, op) {
  const form = h('form', { class: 'op' });
  const params = op.parameters || [];
  for (const p of params) form.append(inputFor(p.name, p.schema, p.required, p.in));
  const json = schemaOf(op, 'application/json');
  const multi = schemaOf(op, 'multipart/form-data');
  const body = json || multi;
  if (body && body.properties) for (const [n, s] of Object.entries(body.properties)) form.append(inputFor(n, s, (body.required || []).includes(n), json ? 'json' : 'multipart'));
  const out = h('div', { class: 'out' });
  form.append(h('button', { type: 'submit', text: 'Send' }), out);
  form.addEventListener('submit', (e) => { e.preventDefault(); void send(path, method, op, form, out, Boolean(json)); });
  return h('details', { class: 'opcard', 'data-op': method.toUpperCase() + ' ' + path },
    h('summary', {}, h('b', { text: method.toUpperCase() }), ' ', h('code', { text: path }), ' ', h('span', { class: 'sum', text: op.summary || '' })), form);
}

function readValue(el) {
  const v = el.value;
  if (el.dataset.kind === 'file') return el.files[0];
  if (v === '') return undefined;
  if (el.dataset.kind === 'number' || el.dataset.kind === 'integer') return Number(v);
  if (el.dataset.kind === 'boolean') return v === 'true';
  if (el.dataset.kind === 'object' || el.dataset.kind === 'array' || el.dataset.kind === 'json') { try { return JSON.parse(v); } catch { return v; } }
  return v;
}

async function send(path, method, op, form, out, isJson) {
  out.replaceChildren(h('p', { text: 'sending…' }));
  let url = path;
  const query = new URLSearchParams();
  const headers = { ...auth() };
  let body;
  const fd = new FormData();
  const jsonBody = {};
  let before = null;
  const parts = {};
  for (const el of form.querySelectorAll('[data-name]')) {
    const v = readValue(el);
    if (v === undefined) continue;
    const name = el.dataset.name;
    if (el.dataset.where === 'path') url = url.replace('{' + name + '}', encodeURIComponent(v));
    else if (el.dataset.where === 'query') query.set(name, String(v));
    else if (el.dataset.where === 'json') jsonBody[name] = v;
    else if (v instanceof File) { fd.append(name, v, v.name); parts[name] = URL.createObjectURL(v); before = before || parts[name]; }
    else fd.append(name, String(v));
    if (/url$/i.test(name) && typeof v === 'string' && /^https?:/.test(v)) before = before || v;
  }
  if (method !== 'get' && method !== 'delete') {
    if (isJson) { headers['content-type'] = 'application/json'; body = JSON.stringify(jsonBody); } else body = fd;
  }
  const q = query.toString();
  const t0 = performance.now();
  let r;
  try { r = await fetch(url + (q ? '?' + q : ''), { method: method.toUpperCase(), headers, body }); }
  catch (e) { out.replaceChildren(h('p', { class: 'err', text: String(e) })); return; }
  const ms = Math.round(performance.now() - t0);
  const status = h('p', { class: r.ok ? 'ok status' : 'err status', text: 'HTTP ' + r.status + ' in ' + ms + ' ms' });
  out.replaceChildren(status);
  const ct = r.headers.get('content-type') || '';
  if (ct.startsWith('image/')) return showImages(out, before, URL.createObjectURL(await r.blob()));
  if (ct.startsWith('text/csv') || ct.startsWith('text/plain')) return void out.append(h('pre', { text: await r.text() }));
  const data = await r.json().catch(() => null);
  await render(out, data, { path, before, op, parts });
}

// ---------- results ----------
function showImages(out, before, after, boxes) {
  const row = h('div', { class: 'pair' });
  if (before) row.append(figure('before', before, boxes && boxes.before));
  if (after) row.append(figure('after', after, boxes && boxes.after));
  out.append(row);
}

function figure(caption, src, boxes) {
  const img = h('img', { src, alt: caption, class: 'result-' + caption });
  const cap = h('figcaption', { text: caption });
  const fig = h('figure', {}, img, cap);
  img.addEventListener('load', () => {
    cap.textContent = caption + ' — ' + img.naturalWidth + '×' + img.naturalHeight;
    if (boxes && boxes.length) drawBoxes(fig, img, boxes);
  });
  return fig;
}

function drawBoxes(fig, img, boxes) {
  const c = h('canvas', { class: 'boxes', width: img.naturalWidth, height: img.naturalHeight });
  const g = c.getContext('2d');
  g.lineWidth = Math.max(2, img.naturalWidth / 300);
  g.font = Math.max(12, img.naturalWidth / 40) + 'px sans-serif';
  for (const b of boxes) {
    g.strokeStyle = b.colour || '#ff2d55';
    g.fillStyle = g.strokeStyle;
    g.strokeRect(b.x1, b.y1, b.x2 - b.x1, b.y2 - b.y1);
    if (b.label) g.fillText(b.label, b.x1, Math.max(12, b.y1 - 4));
  }
  fig.classList.add('boxed');
  fig.dataset.boxes = String(boxes.length);
  fig.insertBefore(c, img.nextSibling);
}

/** [x1,y1,x2,y2] or {x,y,width,height} anywhere in the answer; faces in green, OCR fields in red. */
function findBoxes(data, path = '', out = []) {
  if (!data || typeof data !== 'object') return out;
  for (const [k, v] of Object.entries(data)) {
    const p = path ? path + '.' + k : k;
    if (/box$/i.test(k) && Array.isArray(v) && v.length === 4 && v.every((n) => typeof n === 'number')) out.push({ x1: v[0], y1: v[1], x2: v[2], y2: v[3], label: path.split('.').pop(), colour: /face/i.test(p) ? '#00c853' : '#ff2d55', path: p });
    else if (/box$/i.test(k) && v && typeof v.x === 'number' && typeof v.width === 'number') out.push({ x1: v.x, y1: v.y, x2: v.x + v.width, y2: v.y + v.height, label: k, colour: /face/i.test(p) ? '#00c853' : '#ff2d55', path: p });
    else if (typeof v === 'object') findBoxes(v, p, out);
  }
  return out;
}

const IMAGE_KEYS = ['processedUrl', 'enhancedImageUrl', 'imageUrl', 'image_url', 'imageData', 'resultUrl', 'url'];
function imageIn(data) {
  if (!data || typeof data !== 'object') return null;
  for (const k of IMAGE_KEYS) {
    const v = data[k];
    if (typeof v === 'string' && (v.startsWith('data:image') || v.startsWith('/api/') || /^https?:\/\/[^ ]+\/api\//.test(v))) return v;
    if (k === 'imageData' && typeof v === 'string' && v.length > 100) return 'data:image/png;base64,' + v;
  }
  if (typeof data.result === 'string' && data.result.startsWith('/api/')) return data.result;
  // inline base64 images (e.g. croppedImage + croppedImageFormat)
  for (const [k, v] of Object.entries(data)) {
    if (/image$/i.test(k) && typeof v === 'string' && v.length > 200 && /^[A-Za-z0-9+/=]+$/.test(v.slice(0, 200))) return 'data:image/' + (data[k + 'Format'] || 'png') + ';base64,' + v;
  }
  for (const v of Object.values(data)) if (v && typeof v === 'object' && !Array.isArray(v)) { const x = imageIn(v); if (x) return x; }
  return null;
}

async function loadImage(src, accessKey) {
  if (src.startsWith('data:')) return src;
  const headers = accessKey && !/[?&](key|accessKey)=/.test(src) ? { authorization: 'Bearer ' + accessKey } : auth();
  const r = await fetch(src, { headers });
  if (!r.ok) throw new Error('image: HTTP ' + r.status);
  return URL.createObjectURL(await r.blob());
}

function jsonBlock(data) {
  return h('details', { class: 'json', open: true }, h('summary', { text: 'answer' }), h('pre', { text: JSON.stringify(data, (k, v) => (typeof v === 'string' && v.length > 300 ? v.slice(0, 120) + '… (' + v.length + ' chars)' : v), 2) }));
}

function tableOf(rows) {
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((c) => rows.every((r) => r[c] == null || typeof r[c] !== 'object')).slice(0, 8);
  return h('table', { class: 'rows' }, h('tr', {}, cols.map((c) => h('th', { text: c }))),
    rows.map((r) => h('tr', { class: r.retired || r.status === 'retired' ? 'retired' : null }, cols.map((c) => h('td', { text: r[c] == null ? '' : String(r[c]) + (c === 'status' && (r.retired || r[c] === 'retired') ? ' (retired)' : '') })))));
}

/** face_boxes: { <multipart part>: [x1,y1,x2,y2] | null } anywhere in the answer (face compare, liveness, verify) */
function partBoxes(data, out = {}) {
  if (!data || typeof data !== 'object') return out;
  for (const [k, v] of Object.entries(data)) {
    if (k === 'face_boxes' && v && typeof v === 'object') {
      for (const [part, b] of Object.entries(v)) if (Array.isArray(b) && b.length === 4) (out[part] = out[part] || []).push({ x1: b[0], y1: b[1], x2: b[2], y2: b[3], label: 'face', colour: '#00c853' });
    } else if (typeof v === 'object') partBoxes(v, out);
  }
  return out;
}

/** each uploaded image with the face found in it */
function showParts(out, parts, boxes) {
  const row = h('div', { class: 'pair' });
  for (const [part, src] of Object.entries(parts)) {
    const fig = figure(part, src, boxes[part] || []);
    fig.dataset.part = part;
    row.append(fig);
  }
  out.append(row);
}

async function render(out, data, ctx) {
  if (data && data.jobId && data.accessKey && (data.status === 'processing' || data.status === 'pending' || data.status === 'queued')) {
    out.append(jsonBlock(data));
    return pollJob(out, data, ctx);
  }
  const list = data && Object.values(data).find((v) => Array.isArray(v) && v.length && typeof v[0] === 'object');
  if (list) out.append(tableOf(list));
  const faces = partBoxes(data);
  if (Object.keys(faces).length && ctx.parts) showParts(out, ctx.parts, faces);
  const boxes = findBoxes(data);
  const img = imageIn(data);
  if (img || (ctx.before && boxes.length)) {
    try { showImages(out, ctx.before, img ? await loadImage(img, data.accessKey) : null, { before: boxes }); }
    catch (e) { out.append(h('p', { class: 'err', text: String(e.message) })); }
  }
  out.append(jsonBlock(data));
}

function familyOps(path) {
  const tag = OPS.find((o) => o.path === path)?.op.tags?.[0];
  return OPS.filter((o) => o.op.tags?.[0] === tag);
}

async function pollJob(out, created, ctx) {
  const ops = familyOps(ctx.path);
  const statusOp = ops.find((o) => o.method === 'get' && /\/status\/\{/.test(o.path));
  const imageOp = ops.find((o) => o.method === 'get' && /\/(image|download|result)\/\{/.test(o.path));
  const bar = h('progress', { max: 100, value: 0, class: 'job' });
  const label = h('span', { class: 'jobstate', text: 'processing' });
  out.append(h('p', {}, 'job ', h('code', { text: created.jobId }), ' ', bar, ' ', label));
  if (!statusOp) return;
  const url = statusOp.path.replace(/\{[^}]+\}/, encodeURIComponent(created.jobId));
  let st;
  for (let i = 0; i < 1200; i++) {
    st = await (await fetch(url, { headers: { authorization: 'Bearer ' + created.accessKey } })).json();
    const p = typeof st.progress === 'number' ? (st.progress <= 1 ? st.progress * 100 : st.progress) : 0;
    bar.value = p;
    label.textContent = (st.status || (st.error ? 'error' : '?')) + ' ' + Math.round(p) + '%';
    if (st.status && st.status !== 'processing' && st.status !== 'pending' && st.status !== 'queued') break;
    if (!st.status) break;
    await new Promise((r) => setTimeout(r, 400));
  }
  out.append(jsonBlock(st));
  if (st.status !== 'completed') return void out.append(h('p', { class: 'err', text: (st.error && st.error.message) || 'job ' + st.status }));
  bar.value = 100;
  let img = imageIn(st);
  if (!img && imageOp) img = imageOp.path.replace(/\{[^}]+\}/, encodeURIComponent(created.jobId));
  if (img) {
    try { showImages(out, ctx.before, await loadImage(img, created.accessKey), { before: findBoxes(st) }); }
    catch (e) { out.append(h('p', { class: 'err', text: String(e.message) })); }
  }
}

// ---------- legal search (MCP Streamable HTTP) ----------
let mcpSession = null;
let rpcId = 0;
async function mcp(method, params) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (!mcpSession && method !== 'initialize') {
    await mcp('initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'sejong-console', version: '1' } });
    await fetch('/mcp', { method: 'POST', headers: { ...headers, 'mcp-session-id': mcpSession }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  }
  if (mcpSession) headers['mcp-session-id'] = mcpSession;
  const r = await fetch('/mcp', { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }) });
  if (method === 'initialize') mcpSession = r.headers.get('mcp-session-id');
  const text = await r.text();
  const line = text.startsWith('{') ? text : (text.split('\n').find((l) => l.startsWith('data: ')) || '').slice(6);
  const msg = JSON.parse(line);
  if (msg.error) throw new Error(msg.error.message);
  return msg.result;
}
async function tool(name, args) {
  const res = await mcp('tools/call', { name, arguments: args });
  if (res.structuredContent) return res.structuredContent;
  const t = (res.content || []).map((c) => c.text || '').join('');
  try { return JSON.parse(t); } catch { return { text: t }; }
}

function lawPanel() {
  const q = h('input', { id: 'lawQuery', size: 40, placeholder: '예: 근로기준법 연장근로, 전세 보증금 반환' });
  const type = h('select', { id: 'lawType' }, ['all', 'statute', 'decree', 'rule', 'admrul'].map((v) => h('option', { value: v, text: v })));
  const results = h('div', { id: 'lawResults' });
  const article = h('div', { id: 'lawArticle', class: 'article' });
  const go = async (e) => {
    e.preventDefault();
    results.replaceChildren(h('p', { text: 'searching…' }));
    try {
      const r = await tool('search_laws', { query: q.value, type: type.value, limit: 10 });
      const rows = r.results || [];
      results.replaceChildren(h('p', { class: 'status', text: (r.total ?? rows.length) + ' found' }),
        h('ol', {}, rows.map((d) => h('li', {}, h('a', { href: '#', 'data-law': d.law_id || d.admrul_id, onclick: (ev) => { ev.preventDefault(); void openLaw(d, article); }, text: d.law_name || d.admrul_name }),
          ' ', h('small', { text: [d.law_type || d.admrul_type, d.ministry].filter(Boolean).join(' · ') }),
          (d.matches || []).slice(0, 3).map((m) => h('div', { class: 'match' }, h('a', { href: '#', onclick: (ev) => { ev.preventDefault(); void openArticle(d.law_id || d.admrul_id, m.article_no, article); }, text: '제' + m.article_no + '조 ' + (m.title || '') }), ' ', h('span', { text: m.snippet || '' })))))));
    } catch (err) { results.replaceChildren(h('p', { class: 'err', text: err.message })); }
  };
  // the REST routes of the same corpus (statute as of a date, diff, amendments, enforcements), one form each
  const rest = OPS.filter((o) => o.op.tags?.[0] === 'law' && o.path.startsWith('/api/'));
  return h('section', { id: 'fam-law' }, h('h2', { text: 'Legal search (MCP tools)' }),
    h('form', { onsubmit: go }, q, ' ', type, ' ', h('button', { id: 'lawGo', text: 'Search' })), results, article,
    rest.length ? h('details', { class: 'helpers law-rest' }, h('summary', { text: 'REST endpoints of the corpus' }), rest.map((o) => operationCard(o.path, o.method, o.op))) : null);
}
async function openLaw(d, target) {
  const id = d.law_id || d.admrul_id;
  const r = await tool('get_law', { law_id: id, include: 'articles' });
  const arts = r.articles || [];
  target.replaceChildren(h('h3', { text: (r.meta && (r.meta.law_name || r.meta.admrul_name)) || id }),
    h('ul', {}, arts.slice(0, 200).map((a) => h('li', {}, h('a', { href: '#', onclick: (ev) => { ev.preventDefault(); void openArticle(id, a.no, target); }, text: a.no + ' ' + (a.title || '') }), ' ', h('small', { text: a.preview || '' })))));
}
async function openArticle(id, no, target) {
  const r = await tool('get_article', { law_id: id, article_no: String(no) });
  const a = r.article || (r.articles && r.articles[0]) || r;
  target.replaceChildren(h('h3', { class: 'article-title', text: (a.no || no) + ' ' + (a.title || '') }), h('pre', { class: 'article-text', text: a.content || a.text || JSON.stringify(r, null, 2) }));
}

// ---------- page ----------
let OPS = [];
async function main() {
  const doc = await (await fetch('/openapi.json')).json();
  for (const [path, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) OPS.push({ path, method, op });
  const tags = [...new Set(OPS.map((o) => o.op.tags?.[0]).filter((t) => t && !HIDDEN_TAGS.has(t) && t !== 'law'))];
  const nav = $('#families');
  const main = $('#panels');
  const show = (id) => {
    for (const s of main.children) s.hidden = s.id !== id;
    for (const a of nav.querySelectorAll('a')) a.classList.toggle('on', a.dataset.target === id);
  };
  const link = (id, text) => h('a', { href: '#' + id, 'data-target': id, text, onclick: (e) => { e.preventDefault(); show(id); } });
  for (const tag of tags) {
    const id = 'fam-' + tag.replace(/[^A-Za-z0-9]+/g, '-');
    const ops = OPS.filter((o) => o.op.tags?.[0] === tag);
    const primary = ops.filter((o) => !(o.method === 'get' && HELPER.test(o.path)));
    const helpers = ops.filter((o) => o.method === 'get' && HELPER.test(o.path));
    main.append(h('section', { id, hidden: true }, h('h2', { text: tag }), primary.map((o) => operationCard(o.path, o.method, o.op)),
      helpers.length ? h('details', { class: 'helpers' }, h('summary', { text: 'status and result endpoints (used by the forms above)' }), helpers.map((o) => operationCard(o.path, o.method, o.op))) : null));
    nav.append(link(id, tag));
  }
  main.append(lawPanel());
  nav.append(link('fam-law', 'Legal search'));
  for (const d of main.querySelectorAll('details.opcard')) if (main.querySelectorAll('details.opcard').length) { d.open = d.parentElement.querySelectorAll(':scope > details.opcard').length === 1; }
  show(location.hash.slice(1) || nav.querySelector('a').dataset.target);
  document.body.dataset.ready = 'true';
}
void main();
`;
