import t from 'tap';
import fs from 'node:fs';
import { loadConfig, SETTINGS, ConfigError } from '../../src/config.js';

t.test('defaults and validation name the variable', async (t) => {
  const c = loadConfig({});
  t.equal(c.host, '127.0.0.1');
  t.equal(c.port, 8080);
  t.equal(c.dataDir, './data');
  t.equal(c.rateLimitPerMinute, 60);
  t.equal(c.rateLimitPerDay, 10000);
  t.ok(c.workers >= 1);
  t.throws(() => loadConfig({ SEJONG_PORT: 'eighty' }), /SEJONG_PORT: expected an integer/);
  t.ok((() => { try { loadConfig({ SEJONG_PORT: 'x' }); } catch (e) { return e instanceof ConfigError; } return false; })(), 'a ConfigError');
  t.throws(() => loadConfig({ SEJONG_PORT: '70000' }), /SEJONG_PORT: expected an integer between 0 and 65535, got 70000/);
  t.throws(() => loadConfig({ SEJONG_WORKERS: '0' }), /SEJONG_WORKERS/);
  t.throws(() => loadConfig({ SEJONG_FAMA_URL: 'ftp://x' }), /SEJONG_FAMA_URL: expected an http\(s\) URL/);
  t.throws(() => loadConfig({ SEJONG_LOG_LEVEL: 'loud' }), /SEJONG_LOG_LEVEL: expected one of/);
  t.same(loadConfig({ SEJONG_FETCH_ALLOW: '127.0.0.1, 10.0.0.0/8' }).fetchAllow, ['127.0.0.1', '10.0.0.0/8']);
});

t.test('the README documents every setting and every error code', async (t) => {
  const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  for (const s of Object.values(SETTINGS)) t.ok(readme.includes(`\`${s.env}\``), `${s.env} in README`);
  const { ERROR_CODES } = await import('../../src/domain/errors.js');
  for (const code of Object.keys(ERROR_CODES)) t.ok(readme.includes(`\`${code}\``), `${code} in README`);
});

t.test('the README tables are the generated ones (run `npx sejong docs tables --write README.md`)', async (t) => {
  const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const { settingsTable, errorsTable } = await import('../../src/cli/readme-tables.js');
  t.ok(readme.includes(settingsTable()), 'settings table up to date');
  t.ok(readme.includes(errorsTable()), 'errors table up to date');
});
