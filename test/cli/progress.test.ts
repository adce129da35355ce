// Progress of long CLI work (law import, git import, sync, db migrate), on a manual clock: off a terminal a plain
// line when the work moves on (at most one per 5 s) and a heartbeat through silent stretches, so no gap reaches
// 10 s; on a terminal one line redrawn in place.
import t from 'tap';
import { Progress, type ProgressSink } from '../../src/domain/progress.js';

function sink(tty: boolean) {
  const s = { tty, now: 0, lines: [] as Array<{ at: number; text: string }>, raw: '' };
  const out: ProgressSink = { tty, now: () => s.now, write: (text) => { s.raw += text; s.lines.push({ at: s.now, text }); } };
  return { s, out };
}

t.test('off a terminal: a first line, lines as the work moves (at most one per 5 s), a heartbeat when silent', async (t) => {
  const { s, out } = sink(false);
  const p = new Progress('law import', out).start();
  t.teardown(() => p.stop());
  t.same(s.lines.map((l) => l.text), ['law import: starting, 0 s\n']);
  // busy work: updates every 100 ms for 12 s, one line per 5 s
  for (let ms = 100; ms <= 12_000; ms += 100) {
    s.now = ms;
    p.update('files', ms / 100, 120);
  }
  t.same(s.lines.map((l) => l.text), ['law import: starting, 0 s\n', 'law import: files 50/120 (41 %), 5 s\n', 'law import: files 100/120 (83 %), 10 s\n']);
  // a long silent step (an index build): the timer's ticks every 2.5 s print the state again once 5 s passed
  p.update('index', 0, 900);
  for (let ms = 12_500; ms <= 40_000; ms += 2500) {
    s.now = ms;
    p.tick();
  }
  const at = s.lines.map((l) => l.at);
  const gaps = at.slice(1).map((x, i) => x - at[i]!);
  t.ok(gaps.every((g) => g <= 10_000), `no gap over 10 s: ${gaps.join(', ')}`);
  t.equal(s.lines.at(-1)!.text, 'law import: index 0/900 (0 %), 40 s\n', 'the heartbeat names the step it is in');
  // an event line (a statute added by a sync) counts as a line
  s.now = 41_000;
  p.note('added 민법 (001706, MST 123)');
  t.equal(s.lines.at(-1)!.text, 'law import: added 민법 (001706, MST 123)\n');
  s.now = 43_500;
  p.tick();
  t.equal(s.lines.length, at.length + 1, 'no heartbeat 2.5 s after a note');
  p.stop();
  s.now = 60_000;
  p.tick();
  p.update('files', 1, 2);
  t.equal(s.lines.length, at.length + 1, 'nothing after stop');
  t.notMatch(s.raw, /\r|\x1b/, 'no terminal control characters in logs');
});

t.test('on a terminal: one line redrawn in place with a bar, ended by a newline', async (t) => {
  const { s, out } = sink(true);
  const p = new Progress('db migrate', out).start();
  s.now = 200;
  p.update('migration 0003-jobs', 2, 4);
  s.now = 250;
  p.update('migration 0004-keys', 3, 4); // under 100 ms since the last redraw: skipped
  s.now = 2500;
  p.tick();
  p.stop();
  p.stop();
  t.equal(s.lines.length, 4, 'start, one update, one tick, the final newline (once)');
  t.equal(s.lines[1]!.text, `\r\x1b[Kdb migrate: ${'█'.repeat(15)}${'░'.repeat(15)} migration 0003-jobs 2/4 (50 %), 0 s`);
  t.match(s.lines[2]!.text, /^\r\x1b\[Kdb migrate: .* migration 0004-keys 3\/4 \(75 %\), 3 s$/);
  t.equal(s.lines[3]!.text, '\n');
});
