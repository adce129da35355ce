#!/usr/bin/env node
// sejong command: runs the TypeScript sources through tsx (no build step needed).
import { register } from 'tsx/esm/api';
register();
const { main } = await import('../src/main.ts');
const code = await main(process.argv.slice(2));
if (typeof code === 'number') process.exitCode = code;
