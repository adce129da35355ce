// A workaround for a leak in the MCP SDK's web-standard Streamable HTTP transport (1.32.2; upstream
// modelcontextprotocol/typescript-sdk#2559, fixed on the SDK's main branch, not released on v1.x): in JSON-response
// mode (`enableJsonResponse: true`, which this server uses) every POST puts an entry in the transport's private
// `_streamMapping` and answers through its `resolveJson`, but nothing deletes the entry afterwards, so a session
// keeps one entry (its resolver and what the closure holds, ~45 KB measured) per call until it ends; an agent's long
// session grows the law thread's heap without bound (speed17: 130 → 164 MB over 1,158 calls, flat with this).
// Hand-written because the fix is in the SDK's private state: when the SDK's shape changes, this does nothing.
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

interface StreamEntry { resolveJson?: (r: Response) => void; cleanup: () => void }

/** Make t's JSON-mode stream entries delete themselves once their answer is handed over. Returns whether it applied. */
export function releaseSettledJsonStreams(t: WebStandardStreamableHTTPServerTransport): boolean {
  const map = (t as unknown as { _streamMapping?: unknown })._streamMapping;
  if (!(map instanceof Map)) return false;
  const streams = map as Map<string, StreamEntry>;
  const set = streams.set.bind(streams);
  streams.set = (id: string, entry: StreamEntry) => {
    const resolve = entry.resolveJson;
    if (resolve) {
      entry.resolveJson = (r: Response) => {
        if (streams.get(id) === entry) streams.delete(id);
        resolve(r);
      };
    }
    return set(id, entry);
  };
  return true;
}
