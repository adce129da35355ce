// A fake law.go.kr Open API (DRF): lawSearch.do (JSON list with the real quirks) and lawService.do (XML), with the
// HTML error pages the real service sends (status 200) for a wrong OC key or a missing Referer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeLawItem {
  법령일련번호: string;
  법령ID: string;
  법령명한글: string;
  공포일자: string; // YYYYMMDD
  공포번호: string;
  제개정구분명: string;
  법령구분명: string;
  소관부처명: string;
  시행일자: string;
}

export interface FakeLawGo {
  url: string;
  requests: Array<{ path: string; query: Record<string, string>; referer?: string }>;
  items: FakeLawItem[];
  xml: Map<string, string>;
  /** 'ok' | 'down' (HTTP 500 HTML page) */
  mode: 'ok' | 'down';
  close(): Promise<void>;
}

const errorPage = (msg: string) => `<!DOCTYPE html>
<html lang="ko"><head><meta charset="UTF-8"><title>국가법령정보 공동활용</title></head>
<body><div class="error"><h2>Open API 오류</h2><p>${msg}</p></div></body></html>`;

export async function startFakeLawGo(opts: { oc: string; referer?: string }): Promise<FakeLawGo> {
  const fake: FakeLawGo = { url: '', requests: [], items: [], xml: new Map(), mode: 'ok', close: async () => {} };
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const query = Object.fromEntries(u.searchParams);
    fake.requests.push({ path: u.pathname, query, referer: req.headers.referer });
    const html = (status: number, msg: string) => { res.writeHead(status, { 'content-type': 'text/html;charset=UTF-8' }); res.end(errorPage(msg)); };
    if (fake.mode === 'down') return html(500, '서비스 점검 중입니다. 잠시 후 다시 이용해 주십시오.');
    if (query.OC !== opts.oc) return html(200, '사용자 정보 검증에 실패하였습니다. OC 값을 확인하여 주십시오.');
    if (opts.referer && req.headers.referer !== opts.referer) return html(200, '등록된 도메인(Referer)과 요청 도메인이 일치하지 않습니다.');
    if (u.pathname === '/DRF/lawSearch.do') {
      if (query.type !== 'JSON') return html(200, '지원하지 않는 type 입니다.');
      let list = [...fake.items];
      const anc = /^(\d{8})~(\d{8})$/.exec(query.ancYd ?? '');
      if (anc) list = list.filter((x) => x.공포일자 >= anc[1]! && x.공포일자 <= anc[2]!);
      list.sort((a, b) => b.공포일자.localeCompare(a.공포일자));
      const display = Number(query.display ?? 20), page = Number(query.page ?? 1);
      const slice = list.slice((page - 1) * display, page * display).map((x, i) => ({
        id: String((page - 1) * display + i + 1), ...x, 현행연혁코드: '현행', 법령약칭명: '', 자법타법여부: '', 공동부령정보: '', 소관부처코드: '0000000',
        법령상세링크: `/DRF/lawService.do?OC=${opts.oc}&target=law&MST=${x.법령일련번호}&type=HTML&mobileYn=&efYd=${x.시행일자}`,
      }));
      // quirks: one hit is an object, none has no "law" key; every number is a string
      const body: Record<string, unknown> = { target: 'law', 키워드: '*', section: 'lawNm', totalCnt: String(list.length), page: String(page) };
      if (slice.length === 1) body.law = slice[0];
      else if (slice.length > 1) body.law = slice;
      res.writeHead(200, { 'content-type': 'application/json;charset=UTF-8' });
      return res.end(JSON.stringify({ LawSearch: body }));
    }
    if (u.pathname === '/DRF/lawService.do') {
      const xml = fake.xml.get(query.MST ?? '');
      res.writeHead(200, { 'content-type': 'application/xml;charset=UTF-8' });
      if (!xml) return res.end('<?xml version="1.0" encoding="UTF-8"?><Law>일치하는 법령이 없습니다.  법령명을 확인하여 주십시오.</Law>');
      return res.end(xml);
    }
    html(404, '페이지를 찾을 수 없습니다.');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise((r) => server.close(() => r()));
  return fake;
}
