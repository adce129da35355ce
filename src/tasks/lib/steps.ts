// Pipelines as step lists (chroma-key, receipt, composite): an ordered list of small named functions over one context
// object, run in order; each step's wall time is recorded under its function name (the answer's timings_ms).

export type Step<C> = (c: C) => void | Promise<void>;

/** Run the steps in order on c; returns milliseconds per step (one decimal), keyed by step name. */
export async function runSteps<C>(steps: ReadonlyArray<Step<C>>, c: C): Promise<Record<string, number>> {
  const timings: Record<string, number> = {};
  for (const step of steps) {
    const t0 = performance.now();
    await step(c);
    timings[step.name] = Math.round((performance.now() - t0) * 10) / 10;
  }
  return timings;
}
