// The print module's state of one running server (services.ext.print), filled by api/composite.ts start().
import type { PrintRepo } from './repo.js';

export interface PrintResult {
  body: Record<string, unknown>;
  album_id: string;
  key_id?: string;
}

export interface PrintState {
  store: PrintRepo;
  secret: Buffer;
  /** job_id → the print in progress in this process (a concurrent repeat waits for it) */
  inflight: Map<string, Promise<PrintResult>>;
  /** shared mode: the periodic recovery of prints whose lease ran out */
  timer?: NodeJS.Timeout;
}
