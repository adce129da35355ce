// autocannon ships no types; the benchmarks use only its promise API.
declare module 'autocannon' {
  interface Result {
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  }
  function autocannon(opts: { url: string; connections: number; duration: number; headers?: Record<string, string>; method?: string; body?: string }): Promise<Result>;
  export default autocannon;
}
