// Markdown frontmatter: the small YAML subset the corpus uses.

export function splitFrontmatter(text: string): { fm: Record<string, unknown>; body: string } {
  if (!text.startsWith('---')) return { fm: {}, body: text };
  const end = text.indexOf('\n---', 3);
  if (end < 0) return { fm: {}, body: text };
  const yaml = text.slice(text.indexOf('\n') + 1, end);
  const bodyStart = text.indexOf('\n', end + 4);
  return { fm: parseYamlSubset(yaml), body: bodyStart < 0 ? '' : text.slice(bodyStart + 1) };
}

function scalar(v: string): string {
  let t = v.trim();
  if ((t.startsWith("'") && t.endsWith("'") && t.length >= 2)) t = t.slice(1, -1).replace(/''/g, "'");
  else if (t.startsWith('"') && t.endsWith('"') && t.length >= 2) t = t.slice(1, -1).replace(/\\"/g, '"');
  return t;
}

/** key: value, key: [] , key:\n- item, key:\n- a: b\n  c: d. Values with an unquoted ': ' keep everything after the first ': '. */
export function parseYamlSubset(yaml: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const lines = yaml.split(/\r?\n/);
  let curKey: string | null = null;
  let curObj: Record<string, string> | null = null;
  for (const line of lines) {
    if (!line.trim()) continue;
    const top = /^([^\s:-][^:]*):(?:\s(.*))?$/.exec(line);
    if (top && !line.startsWith(' ')) {
      curKey = top[1]!.trim();
      curObj = null;
      const v = top[2]?.trim() ?? '';
      out[curKey] = v === '' ? [] : v === '[]' ? [] : scalar(v);
      continue;
    }
    const li = /^\s*-\s+(.*)$/.exec(line);
    if (li && curKey) {
      const arr = (Array.isArray(out[curKey]) ? out[curKey] : (out[curKey] = [])) as unknown[];
      const kv = /^([^:]+):\s?(.*)$/.exec(li[1]!);
      if (kv && !li[1]!.startsWith("'") && !li[1]!.startsWith('"')) {
        curObj = { [kv[1]!.trim()]: scalar(kv[2]!) };
        arr.push(curObj);
      } else {
        curObj = null;
        arr.push(scalar(li[1]!));
      }
      continue;
    }
    const cont = /^\s+([^:]+):\s?(.*)$/.exec(line);
    if (cont && curObj) curObj[cont[1]!.trim()] = scalar(cont[2]!);
  }
  return out;
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : Array.isArray(v) ? '' : String(v));
