// HTML of the web test console: a login page and one page to try the API by hand (no framework, no CDN).
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1d21}
header{background:#1f3a5f;color:#fff;padding:12px 20px;display:flex;gap:16px;align-items:center}
header h1{font-size:18px;margin:0}main{padding:20px;display:grid;gap:16px;grid-template-columns:repeat(auto-fit,minmax(360px,1fr))}
section{background:#fff;border-radius:8px;padding:14px 16px;box-shadow:0 1px 3px #0002}
h2{font-size:15px;margin:0 0 10px}input,select,button{font:inherit;padding:5px 8px}button{cursor:pointer}
table{border-collapse:collapse;width:100%;font-size:13px}td,th{border-bottom:1px solid #e3e5e8;padding:3px 6px;text-align:left}
pre{background:#f0f1f3;padding:8px;overflow:auto;max-height:220px;font-size:12px}.err{color:#b00020}.ok{color:#0a7d32}
img.qr{width:200px;height:200px;image-rendering:pixelated;border:1px solid #ddd}`;

export function loginPage(message = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>sejong console: sign in</title><style>${STYLE}</style></head>
<body><header><h1>sejong test console</h1></header><main><section>
<h2>Sign in</h2>
<form id="login"><label>Password <input id="password" name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form><p id="msg" class="err">${esc(message)}</p></section></main>
<script>
document.getElementById('login').addEventListener('submit', async (e) => {
  e.preventDefault();
  const r = await fetch('/console/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: document.getElementById('password').value }) });
  if (r.ok) location.href = '/console';
  else document.getElementById('msg').textContent = (await r.json()).error.message;
});
</script></body></html>`;
}

export function consolePage(version: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>sejong console</title><style>${STYLE}</style></head>
<body><header><h1>sejong test console</h1><span>interface ${esc(version)}</span><span id="health">…</span>
<form method="post" action="/console/logout" style="margin-left:auto"><button>Sign out</button></form></header>
<main>
<section><h2>API key</h2><input id="key" size="40" placeholder="sk_…" autocomplete="off"> <button id="saveKey">Use</button>
<p>Calls from this page send it as X-API-Key. It stays in this tab only.</p></section>
<section><h2>QR code</h2><input id="qrData" value="https://example.org/ticket/42" size="30"> <input id="qrText" placeholder="centre text" size="10">
<button id="qrGo">Generate</button><div><img id="qrImg" class="qr" alt="QR code"></div>
<p>Recognize: <input id="qrFile" type="file" accept="image/*"> <button id="qrRead">Read</button></p><pre id="qrOut"></pre></section>
<section><h2>Models</h2><select id="cap"><option value="">any capability</option><option>text_generation</option><option>image_generation</option><option>image_to_image</option><option>vision_analysis</option></select>
<label><input id="active" type="checkbox"> active only</label> <button id="modelsGo">List</button><table id="models"></table></section>
<section><h2>My jobs</h2><button id="jobsGo">Refresh</button><table id="jobs"></table><pre id="jobsErr" class="err"></pre></section>
</main>
<script>
const $ = (id) => document.getElementById(id);
$('key').value = sessionStorage.getItem('sejongKey') || '';
$('saveKey').onclick = () => sessionStorage.setItem('sejongKey', $('key').value.trim());
const keyed = () => ({ 'x-api-key': $('key').value.trim() });
const cell = (v) => { const td = document.createElement('td'); td.textContent = v == null ? '' : String(v); return td; };
function fill(table, cols, rows) {
  table.replaceChildren();
  const head = document.createElement('tr');
  cols.forEach((c) => { const th = document.createElement('th'); th.textContent = c; head.append(th); });
  table.append(head);
  rows.forEach((r) => { const tr = document.createElement('tr'); cols.forEach((c) => tr.append(cell(r[c]))); table.append(tr); });
}
fetch('/health').then((r) => r.json()).then((h) => { $('health').textContent = 'health: ' + h.status; $('health').className = h.status === 'ok' ? 'ok' : 'err'; });
$('qrGo').onclick = () => {
  const q = new URLSearchParams({ data: $('qrData').value, size: '400x400' });
  if ($('qrText').value) q.set('center_text', $('qrText').value);
  $('qrImg').src = '/api/v1/qrcode/generate?' + q;
};
$('qrRead').onclick = async () => {
  const f = $('qrFile').files[0];
  if (!f) return;
  const fd = new FormData(); fd.append('image', f);
  const r = await fetch('/api/v1/qrcode/recognize', { method: 'POST', headers: keyed(), body: fd });
  $('qrOut').textContent = JSON.stringify(await r.json(), null, 2);
};
$('modelsGo').onclick = async () => {
  const q = new URLSearchParams();
  if ($('cap').value) q.set('capability', $('cap').value);
  if ($('active').checked) q.set('status', 'active');
  const r = await (await fetch('/api/v1/models?' + q)).json();
  fill($('models'), ['apiId', 'provider', 'status', 'cost'], r.models || []);
};
$('jobsGo').onclick = async () => {
  const r = await fetch('/api/v1/jobs?limit=20', { headers: keyed() });
  const b = await r.json();
  $('jobsErr').textContent = r.ok ? '' : b.error.message;
  fill($('jobs'), ['jobId', 'status', 'createdAt', 'actualCost'], b.jobs || []);
};
</script></body></html>`;
}
