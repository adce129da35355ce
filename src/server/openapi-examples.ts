// Examples for /openapi.json, synthesised from the JSON schemas generated out of the routes' zod schemas: a value
// for every request body, parameter and JSON answer that the route's own schema accepts (test/server/
// openapi-examples.test.ts parses each one with it). A schema's own `examples` (zod `.meta({ examples })`),
// `default` or `const` wins; otherwise the value is built from the type, bounds, formats and the property's name.
type Schema = Record<string, unknown>;

const ID = 'txt2img_20261122_k3v9q2m8x1z7';

/** a plausible string for a property, by its name and format */
function stringFor(name: string, s: Schema): string {
  const fmt = s.format as string | undefined;
  let v: string;
  if (fmt === 'date-time') v = '2026-11-22T09:00:00.000Z';
  else if (fmt === 'date') v = '2026-11-22';
  else if (fmt === 'uri' || fmt === 'url' || /url$/i.test(name)) v = /callback/i.test(name) ? 'https://client.example.com/hooks/sejong' : 'https://images.example.com/photo.jpg';
  else if (fmt === 'email') v = 'ops@example.com';
  else if (fmt === 'uuid') v = '5b0c2f1e-8d4a-4c1b-9f3e-2a7d6c5b4e3f';
  else if (/^job_?id$/i.test(name)) v = ID;
  else if (/access_?key/i.test(name)) v = 'ak_3f9c1e7b5d2a8c4e6f0b1d3a5c7e9f2b';
  else if (/date$/i.test(name)) v = '20261122';
  else if (/^(from|since|start)$/i.test(name)) v = '2026-11-01';
  else if (/^(to|until|end)$/i.test(name)) v = '2026-11-22';
  else if (/(^|_)at$/i.test(name) || /[a-z]At$/.test(name) || /time/i.test(name)) v = '2026-11-22T09:00:00.000Z';
  else if (/prompt/i.test(name)) v = 'a hanok village at dusk, watercolour';
  else if (/name$/i.test(name)) v = 'example';
  else if (/id$/i.test(name)) v = 'id_0001';
  else v = 'example';
  if (typeof s.pattern === 'string') {
    const re = new RegExp(s.pattern);
    v = [v, '2026-11-22', '20261122', '2026-11-22T09:00:00.000Z', '512x512', ID, '1', 'example', 'a'].find((c) => re.test(c)) ?? v;
  }
  const min = (s.minLength as number | undefined) ?? 0;
  const max = (s.maxLength as number | undefined) ?? Infinity;
  if (v.length < min) v = v.padEnd(min, 'x');
  if (v.length > max) v = v.slice(0, max);
  return v;
}

function numberFor(s: Schema, integer: boolean): number {
  const lo = (s.minimum as number | undefined) ?? (s.exclusiveMinimum !== undefined ? (s.exclusiveMinimum as number) + (integer ? 1 : 0.5) : undefined);
  const hi = (s.maximum as number | undefined) ?? (s.exclusiveMaximum !== undefined ? (s.exclusiveMaximum as number) - (integer ? 1 : 0.5) : undefined);
  let v = lo ?? (hi !== undefined ? Math.min(hi, 1) : 1);
  if (lo !== undefined && hi !== undefined) v = integer ? Math.round((lo + hi) / 2) : (lo + hi) / 2;
  if (v === 0 && (hi === undefined || hi >= 1)) v = 1; // 0 is rarely a telling example (and often refused)
  return integer ? Math.ceil(v) : v;
}

/** An example value of `schema` (a JSON Schema as z.toJSONSchema writes it); `root` holds its $defs. `full`: the
 * optional properties too (more telling; callers check it against the zod schema and fall back to required only). */
export function exampleOf(schema: Schema | undefined, name = '', root: Schema = schema ?? {}, depth = 0, full = false): unknown {
  const s = schema ?? {};
  const sub = (x: Schema | undefined, n: string) => exampleOf(x, n, root, depth + 1, full);
  if (depth > 12) return null;
  if (typeof s.$ref === 'string') {
    const key = s.$ref.replace(/^#\/(\$defs|definitions)\//, '');
    return sub(((root.$defs ?? root.definitions) as Record<string, Schema> | undefined)?.[key], name);
  }
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.example !== undefined) return s.example;
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum)) return s.enum[0];
  for (const k of ['anyOf', 'oneOf'] as const) {
    const opts = s[k] as Schema[] | undefined;
    if (opts?.length) return sub(opts.find((o) => o.type !== 'null') ?? opts[0], name);
  }
  if (Array.isArray(s.allOf)) return Object.assign({}, ...(s.allOf as Schema[]).map((o) => sub(o, name)));
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : (s.type as string | undefined);
  switch (type ?? (s.properties ? 'object' : undefined)) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const required = new Set((s.required as string[] | undefined) ?? []);
      const out: Record<string, unknown> = {};
      for (const [k, p] of Object.entries(props)) if (full || required.has(k)) out[k] = sub(p, k);
      return out;
    }
    case 'array': {
      if (Array.isArray(s.prefixItems)) return (s.prefixItems as Schema[]).map((p) => sub(p, name));
      const n = Math.max(1, (s.minItems as number | undefined) ?? 1);
      return Array.from({ length: Math.min(n, (s.maxItems as number | undefined) ?? n) }, () => sub(s.items as Schema, name.replace(/s$/, '')));
    }
    case 'string': return stringFor(name, s);
    case 'integer': return numberFor(s, true);
    case 'number': return numberFor(s, false);
    case 'boolean': return true;
    case 'null': return null;
    default: return {};
  }
}

/** The fullest example the route's own zod schema accepts: every property, else the required ones only. */
export function checkedExample(json: Schema, accepts: ((v: unknown) => boolean) | undefined): unknown {
  const full = exampleOf(json, '', json, 0, true);
  if (accepts?.(JSON.parse(JSON.stringify(full)))) return full;
  return exampleOf(json);
}
