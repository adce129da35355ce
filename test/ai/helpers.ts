// Shared by the AI end-to-end tests: fakes + a server pointed at them, polling, mark checks.
import sharp from 'sharp';
import { startTestServer, type TestServer, type TestServerOptions } from '../helpers/server.js';
import { FamaFake } from '../fakes/fama.js';
import { FambFake } from '../fakes/famb.js';
import { FamcFake } from '../fakes/famc.js';
import { ai } from '../../src/providers/ai/service.js';
import { markBox } from '../../src/tasks/ai-mark.js';

export interface AiWorld {
  server: TestServer;
  fama: FamaFake;
  famb: FambFake;
  famc: FamcFake;
  close(): Promise<void>;
}

export async function startAiWorld(opts: TestServerOptions & { families?: Array<'a' | 'b' | 'c'> } = {}): Promise<AiWorld> {
  const [fama, famb, famc] = await Promise.all([new FamaFake().start(), new FambFake().start(), new FamcFake().start()]);
  const fam = opts.families ?? ['a', 'b', 'c'];
  const env: Record<string, string> = { SEJONG_AI_TIMEOUT_MS: '3000', ...opts.env };
  if (fam.includes('a')) Object.assign(env, { SEJONG_FAMA_URL: fama.url, SEJONG_FAMA_KEY: fama.key });
  if (fam.includes('b')) Object.assign(env, { SEJONG_FAMB_URL: famb.url, SEJONG_FAMB_KEY: famb.key });
  if (fam.includes('c')) Object.assign(env, { SEJONG_FAMC_URL: famc.url, SEJONG_FAMC_KEY: famc.key });
  const server = await startTestServer({ ...opts, env });
  // fast retries in tests
  Object.assign(ai(server.services).http, { backoffMs: 20, maxBackoffMs: 50 });
  return {
    server, fama, famb, famc,
    async close() {
      await server.close();
      await Promise.all([fama.close(), famb.close(), famc.close()]);
    },
  };
}

/** Poll a status URL until the job leaves processing. */
export async function poll(server: TestServer, path: string, init: { key?: string | null; headers?: Record<string, string> } = {}): Promise<any> {
  // backs off 15 → 200 ms like a polite client: the job access key's rate limit (300 a minute) counts every poll, and
  // under the manual clock of these tests its window never ends, so a job slowed by a loaded machine must not spend it
  for (let i = 0, wait = 15; i < 400; i++, wait = Math.min(200, Math.round(wait * 1.2))) {
    const r = await server.req(path, init);
    const body = (await r.json()) as any;
    if (r.status !== 200) throw new Error(`status ${r.status}: ${JSON.stringify(body)}`);
    if (body.status !== 'processing') return body;
    await new Promise((res) => setTimeout(res, wait));
  }
  throw new Error('job did not finish');
}

/** Differences between an upstream picture and the marked result, inside and outside the badge (or a given box). */
export async function markDiff(original: Uint8Array, marked: Uint8Array, at?: { left: number; top: number; width: number; height: number }) {
  const a = await sharp(Buffer.from(original)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const b = await sharp(Buffer.from(marked)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (a.info.width !== b.info.width || a.info.height !== b.info.height) throw new Error('size changed');
  const box = at ?? markBox(a.info.width, a.info.height);
  let inside = 0, outside = 0;
  for (let y = 0; y < a.info.height; y++) {
    for (let x = 0; x < a.info.width; x++) {
      const i = (y * a.info.width + x) * 3;
      const diff = a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2];
      const inBox = x >= box.left && x < box.left + box.width && y >= box.top && y < box.top + box.height;
      if (diff) inBox ? inside++ : outside++;
    }
  }
  return { inside, outside, area: box.width * box.height, width: a.info.width, height: a.info.height };
}

export async function errorOf(r: Response): Promise<{ status: number; code: string; field?: string; message: string }> {
  const b = (await r.json()) as any;
  return { status: r.status, code: b.error?.code, field: b.error?.field, message: b.error?.message };
}
