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

const APP_STYLE = `
header .key{margin-left:auto}header a.docs{color:#fff}header form{margin:0}
.layout{display:grid;grid-template-columns:210px 1fr;min-height:calc(100vh - 48px)}
nav{background:#fff;border-right:1px solid #e3e5e8;padding:10px 0}nav a{display:block;padding:6px 16px;color:#1b1d21;text-decoration:none}
nav a.on{background:#e8eef7;font-weight:600}#panels{padding:16px 20px}#panels section{display:block}
details.opcard{background:#fff;border-radius:8px;margin:0 0 10px;box-shadow:0 1px 3px #0002;padding:8px 12px}
details.opcard summary{cursor:pointer}summary code{font-size:13px}.sum{color:#555;font-size:13px}
form.op{display:grid;gap:6px;margin-top:8px}label.field{display:grid;grid-template-columns:170px 1fr;gap:8px;align-items:start}
label.field span{font-size:13px;color:#333;padding-top:5px}textarea{font:12px monospace;width:100%}
img.thumb{max-height:60px;margin-top:4px}.pair{display:flex;gap:12px;flex-wrap:wrap;margin:8px 0}
figure{margin:0;position:relative;background:repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0 0/16px 16px}
figure img{max-width:420px;max-height:420px;display:block}figure canvas.boxes{position:absolute;left:0;top:0;pointer-events:none}
figcaption{font-size:12px;background:#fff;padding:2px 4px}progress.job{width:200px}
tr.retired td{color:#999;text-decoration:line-through}.match{font-size:13px;margin-left:12px}
pre.article-text{white-space:pre-wrap;max-height:none}`;


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
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>sejong console</title><style>${STYLE}${APP_STYLE}</style></head>
<body><header><h1>sejong test console</h1><span>interface ${esc(version)}</span><span id="health">…</span>
<label class="key">API key <input id="key" size="36" placeholder="sk_…" autocomplete="off"></label>
<a href="/docs" class="docs">API reference</a>
<form method="post" action="/console/logout"><button>Sign out</button></form></header>
<div class="layout"><nav id="families"></nav><div id="panels"></div></div>
<script src="/console/app.js"></script></body></html>`;
}
