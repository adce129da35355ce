// Issue 12: a server whose task time budget ends while a worker is inside onnxruntime. Before src/pool/native-gate.ts
// the worker was terminated mid-call and the whole server aborted ("terminate called after throwing an instance of
// 'Napi::Error'"). A separate server process with a short SEJONG_TASK_TIMEOUT_MS gets ID-card OCR requests (each
// runs the text detector and recogniser for longer than the budget); reported: the answers and whether it lived.
// Run: nice -n 19 node --import tsx bench/ocr-budget-abort.ts [requests=12] [budgetMs=400]
import { spawnServer } from './lib/server-proc.js';
import { renderCard } from '../test/helpers/id-cards.js';

const n = Number(process.argv[2] ?? 12), budget = process.argv[3] ?? '400';
const s = await spawnServer({ workers: 2, env: { SEJONG_RATE_LIMIT_PER_MINUTE: '1000000', SEJONG_TASK_TIMEOUT_MS: budget } });
const card = (await renderCard('jumin', { seed: 3 })).image;
const statuses: Record<string, number> = {};
for (let i = 0; i < n; i++) {
  const f = new FormData();
  f.append('doc_type', 'jumin');
  f.append('image', new Blob([card], { type: 'image/png' }), 'card.png');
  const r = await s.req('/api/v1/ekyc/ocr', { method: 'POST', body: f }).catch(() => null);
  const k = String(r?.status ?? 'no answer');
  statuses[k] = (statuses[k] ?? 0) + 1;
  await r?.arrayBuffer().catch(() => undefined);
}
let alive = true;
try {
  process.kill(s.pid, 0);
} catch {
  alive = false;
}
console.log(JSON.stringify({ requests: n, budgetMs: Number(budget), statuses, serverAlive: alive }));
if (alive) await s.close();
process.exit(0);
