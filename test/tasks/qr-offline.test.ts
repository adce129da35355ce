// zxing-wasm must load its .wasm from node_modules: with fetch (and XHR) failing, recognition still works.
import t from 'tap';

t.test('qr-recognize loads its wasm without the network', async (t) => {
  const calls: string[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (u: unknown) => {
    calls.push(String(u));
    throw new Error('network disabled in this test');
  }) as typeof fetch;
  t.teardown(() => { globalThis.fetch = realFetch; });
  const { default: qrGenerate } = await import('../../src/tasks/qr-generate.js');
  const { default: qrRecognize } = await import('../../src/tasks/qr-recognize.js');
  const g = qrGenerate({ data: 'offline', width: 256, height: 256 });
  const r = await qrRecognize({ image: g.png, enablePreprocessing: false });
  t.equal(r.data, 'offline');
  t.same(calls, [], 'no fetch was attempted');
});
