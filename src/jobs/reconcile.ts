// The job queues' reconciler: a job left `processing` with nothing behind it is settled, queued again while it has
// requeues left, else failed with a reason, so that no job stays processing for ever whatever failed when: a node
// killed between two steps, an engine outage that outlasted a run's wait (and was still on when the attempt gave
// up, so that recording the failure failed too), Redis losing its data. Every node runs it periodically, once the
// engines answer again (queue-bullmq.ts: under a PostgreSQL advisory lock, one node at a time; queue-local.ts: the
// jobs of this process). What to do with one job is decided here, purely, for both queues.

/** What a reconciler pass did. */
export interface Reconciled {
  requeued: number;
  failed: number;
}

export interface JobFacts {
  /** the record has not changed for longer than the reconciler's grace period */
  stale: boolean;
  /** a run of it is in progress in this process */
  runningHere: boolean;
  /** shared mode: the job's BullMQ job, if any: 'failed' (BullMQ gave up on it), 'pending' (waiting, active, delayed…) */
  queued?: { state: 'failed' | 'pending'; failedReason?: string; attemptsMade?: number };
  /** shared mode: its stored input (runner name, or `local:<node>` for a run in a node's request) and requeues so far */
  input?: { runner: string; requeues: number };
  /** shared mode: nodes with a worker connected to Redis now, and this node's name */
  liveNodes?: ReadonlySet<string>;
  node?: string;
  /** shared mode: how many times a job lost from the queue is queued again before it is failed */
  maxRequeues: number;
}

export type Action = { do: 'leave' } | { do: 'requeue' } | { do: 'fail'; message: string };

const AGAIN = 'please submit it again';
const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;

export function reconcileAction(f: JobFacts): Action {
  if (f.runningHere) return { do: 'leave' };
  // BullMQ gave up on it but no node could record that (the engine was away then)
  if (f.queued?.state === 'failed') {
    const n = f.queued.attemptsMade ?? 1;
    return { do: 'fail', message: `The job was given up after ${plural(n, 'attempt')}: ${f.queued.failedReason || 'unknown reason'}; ${AGAIN}` };
  }
  if (f.queued || !f.stale) return { do: 'leave' };
  if (f.liveNodes === undefined) {
    // embedded: this process alone runs its jobs, and none runs this one
    return { do: 'fail', message: `The job stopped without a recorded outcome (the store could not be written when it ended); ${AGAIN}` };
  }
  const runner = f.input?.runner;
  if (runner?.startsWith('local:')) {
    const node = runner.slice('local:'.length);
    // a live node settles its own requests' jobs (a run in progress there is not ours to judge)
    if (node !== f.node && f.liveNodes.has(node)) return { do: 'leave' };
    return { do: 'fail', message: `The job stopped without a recorded outcome: the request running it on node ${node} ended while the storage was unreachable, or the node stopped; ${AGAIN}` };
  }
  if (runner !== undefined) {
    if (f.input!.requeues < f.maxRequeues) return { do: 'requeue' };
    return { do: 'fail', message: `The job was lost from the work queue (Redis) ${plural(f.input!.requeues + 1, 'time')}; ${AGAIN}` };
  }
  return { do: 'fail', message: `The job was never queued, or its node stopped before recording the outcome; ${AGAIN}` };
}
