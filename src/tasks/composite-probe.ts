// Pool task: check an ad creative at upload (format, size) and shrink a very large one (see ./composite.ts probe).
export { probe as default } from './composite.js';
