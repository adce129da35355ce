// A sync keeps the derived name tables current (issue #15): the index build it runs derives the short names the
// corpus declares from the documents as they are after the sync, and stores them, so an instrument the sync adds that
// declares 「full name」(이하 "X법"이라 한다) makes X법 name the statute for every process that reloads the store.
import fs from 'node:fs';
import t from 'tap';
import { loadConfig } from '../../src/config.js';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';
import { syncLaw } from '../../src/law/sync.js';
import { startFakeLawGo } from '../fakes/lawgo.js';
import { SAMPLE, reopenedLaw, sampleDataDir } from './fixture.js';
import { skipFileWithoutShared } from '../helpers/shared.js';

await skipFileWithoutShared('law-corpus', 'sample');

const FULL = '전공의의 수련환경 개선 및 지위 향상을 위한 법률';
const dir = await sampleDataDir([`${SAMPLE}/statutes/kr/전공의의수련환경개선및지위향상을위한법률`]);
const fake = await startFakeLawGo({ oc: 'test-oc', referer: 'https://sejong.example' });
t.teardown(() => fake.close());

// a decree the sync brings: law.go.kr's XML of another decree, renamed, whose first article declares a short name
const xml = fs.readFileSync(`${SAMPLE}/lawgo-api/detail/285213.xml`, 'utf8')
  .replace('<법령ID>010674</법령ID>', '<법령ID>099002</법령ID>')
  .replaceAll('<![CDATA[금융위원회와 그 소속기관 직제]]>', '<![CDATA[전공의 수련 지원 규정]]>')
  .replace('이 영은 「금융위원회의 설치 등에 관한 법률」 제15조제1항에 따라', `이 영은 「${FULL}」(이하 "수련환경법"이라 한다) 제7조에 따라`);
fake.xml.set('999002', xml);
fake.items = [{ 법령일련번호: '999002', 법령ID: '099002', 법령명한글: '전공의 수련 지원 규정', 공포일자: '20261120', 공포번호: '1', 제개정구분명: '제정', 법령구분명: '대통령령', 소관부처명: '보건복지부', 시행일자: '20261120' }];
const env = { SEJONG_DATA_DIR: dir, SEJONG_LAW_OC: 'test-oc', SEJONG_LAW_API_URL: fake.url, SEJONG_LAW_REFERER: 'https://sejong.example' };

t.test('an instrument a sync adds declares a short name: found after the reload, stored with the new generation', async (t) => {
  const before = reopenedLaw(t, dir);
  const gen = before.indexGen();
  t.equal(before.search.fullNameOf('수련환경법'), undefined, 'nothing declares it yet');
  t.notOk(before.derivedNames()?.declared.some(([short]) => short === '수련환경법'));

  const store = new Store(dir);
  const law = openLaw(store);
  law.reload();
  const r = await syncLaw(loadConfig(env), law, { now: Date.UTC(2026, 10, 21, 3), since: '20261101' });
  t.equal(r.added, 1);
  t.equal(law.get('099002')?.name, '전공의 수련 지원 규정');
  t.equal(law.search.fullNameOf('수련환경법'), FULL, 'the syncing process: at once');
  await store.close();

  // another process (the server, a law worker) reloading the store reads the stored table
  before.reload();
  t.equal(before.indexGen(), gen + 1);
  t.same(before.derivedNames()?.declared, [['수련환경법', FULL, 1]]);
  t.equal(before.search.fullNameOf('수련환경법'), FULL);
  const hits = before.search.query('수련환경법', {}, null);
  t.equal(hits[0]?.doc.name, FULL);
  t.equal(hits[0]?.match, 'abbreviation');
  t.equal(before.search.query('수련환경법 수련시간', {}, null)[0]?.doc.name, FULL, 'expanded inside a phrase too');
});
