// Who is calling: set by the server's auth step, read by the job engine and handlers (no HTTP in it).

export interface Principal {
  kind: 'anonymous' | 'key' | 'admin' | 'token';
  keyId?: string;
  keyName?: string;
  /** a Bearer/query token that is not an API key: maybe a job access key, checked by the job engine */
  token?: string;
  /** sha256 (hex) of token, when the auth step computed it already */
  tokenHash?: string;
}
