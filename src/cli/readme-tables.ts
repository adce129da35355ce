// The README's settings and error tables, generated from src/config.ts and src/domain/errors.ts
// (`sejong docs tables` prints them; `--write README.md` replaces the marked sections in place).
import fs from 'node:fs';
import { SETTINGS } from '../config.js';
import { ERROR_CODES } from '../domain/errors.js';

export function settingsTable(): string {
  const rows = Object.values(SETTINGS).map((s) => {
    const def = s.env === 'SEJONG_WORKERS' ? 'number of cores' : s.default === '' ? '(unset)' : `\`${s.default}\``;
    return `| \`${s.env}\` | ${def} | ${s.doc.replace(/\|/g, '\\|')} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

export function errorsTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([c, v]) => `| \`${c}\` | ${v.status} | ${v.meaning} | ${v.spec ? 'spec' : 'sejong'} |`);
  return ['| code | HTTP | meaning | from |', '|---|---|---|---|', ...rows].join('\n');
}

function replaceBetween(text: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`README has no ${start} … ${end} section`);
  return text.slice(0, a + start.length) + '\n' + body + '\n' + text.slice(b);
}

export async function run(args: string[]): Promise<number> {
  const help = args.includes('--help') || args.includes('-h');
  if (args[0] !== 'tables' || help) {
    process.stdout.write('Usage: sejong docs tables [--write README.md]\n  prints (or writes into README.md) the settings and error-code tables\n');
    return help ? 0 : 2;
  }
  const i = args.indexOf('--write');
  if (i >= 0) {
    const file = args[i + 1] ?? 'README.md';
    let text = fs.readFileSync(file, 'utf8');
    text = replaceBetween(text, 'settings', settingsTable());
    text = replaceBetween(text, 'errors', errorsTable());
    fs.writeFileSync(file, text);
    return 0;
  }
  process.stdout.write(settingsTable() + '\n\n' + errorsTable() + '\n');
  return 0;
}
