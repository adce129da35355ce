// A small legalize-kr-like git repository built at test time from the sample's history files (index.json order).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { SAMPLE } from './fixture.js';

export interface HistEntry { date: string; commit: string; file: string | null; subject: string; 공포일자: string; 공포번호: string; 법령MST: string; 시행일자: string }

/** Stored versions of the given statute paths (kr/…/법률.md), oldest first. */
export function sampleVersions(paths: string[]): Array<HistEntry & { path: string }> {
  const index = JSON.parse(fs.readFileSync(`${SAMPLE}/history/index.json`, 'utf8')) as Record<string, HistEntry[]>;
  const out: Array<HistEntry & { path: string }> = [];
  for (const p of paths) for (const e of index[p] ?? []) if (e.file) out.push({ ...e, path: p });
  return out.sort((a, b) => a.공포일자.localeCompare(b.공포일자) || Number(a.법령MST) - Number(b.법령MST));
}

export class TestRepo {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-legalize-'));
  constructor() {
    this.git('init', '-q', '-b', 'main');
  }

  git(...args: string[]): string {
    return execFileSync('git', ['-C', this.dir, ...args], { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: this.dir, GIT_AUTHOR_NAME: 'legalize-kr-bot', GIT_AUTHOR_EMAIL: 'bot@example.invalid', GIT_COMMITTER_NAME: 'legalize-kr-bot', GIT_COMMITTER_EMAIL: 'bot@example.invalid', GIT_AUTHOR_DATE: this.when, GIT_COMMITTER_DATE: this.when } }).trim();
  }

  private when = '2026-01-01T12:00:00+09:00';

  /** Commit one version as legalize-kr does (subject, body fields, the file at kr/<path>). */
  commitVersion(e: HistEntry & { path: string }): string {
    const target = path.join(this.dir, e.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(`${SAMPLE}/history/${e.file}`, target);
    this.when = `${e.공포일자 < '1970-01-01' ? '1970-01-01' : e.공포일자}T12:00:00+09:00`;
    this.git('add', '-A');
    const body = `공포일자: ${e.공포일자}\n공포번호: ${e.공포번호}\n소관부처: 개인정보보호위원회\n법령분야: 미분류\n법령MST: ${e.법령MST}`;
    this.git('commit', '-q', '-m', e.subject, '-m', body);
    return this.git('rev-parse', 'HEAD');
  }

  /** A commit outside kr/ (skipped by the importer). */
  commitOther(name: string, text: string): string {
    fs.writeFileSync(path.join(this.dir, name), text);
    this.git('add', '-A');
    this.git('commit', '-q', '-m', `docs: ${name}`);
    return this.git('rev-parse', 'HEAD');
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
