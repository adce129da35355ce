// The house's figures for docs/architecture.md: import cycles, `any` and `as` casts in src/, the longest functions.
// Run: npx tsx test/architecture/figures.ts [src-dir]   (not a test: prints the figures)
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import ts from 'typescript';
import { cycles, importGraph, SRC, walk } from './graph.js';

const root = resolve(process.argv[2] ?? SRC);

let anys = 0;
let casts = 0;
const fns: Array<{ where: string; lines: number }> = [];
for (const file of walk(root)) {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const line = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (n: ts.Node): void => {
    if (n.kind === ts.SyntaxKind.AnyKeyword) anys++;
    if ((ts.isAsExpression(n) && !(ts.isTypeReferenceNode(n.type) && n.type.typeName.getText(sf) === 'const')) || ts.isTypeAssertionExpression(n)) casts++;
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && n.body) {
      const name = (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) && n.name ? n.name.getText(sf) : '(anonymous)';
      fns.push({ where: `${relative(root, file)}:${line(n.getStart(sf))} ${name}`, lines: line(n.end) - line(n.getStart(sf)) + 1 });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
}

const found = cycles(importGraph(root));
{
  console.log(`import cycles: ${found.length}`);
  for (const c of found) console.log(`  ${c.join(' ↔ ')}`);
}
console.log(`any: ${anys}   as casts (not as const): ${casts}`);
console.log('longest functions:');
for (const f of fns.sort((a, b) => b.lines - a.lines).slice(0, 8)) console.log(`  ${String(f.lines).padStart(4)}  ${f.where}`);
