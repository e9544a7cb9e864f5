import type { JobStatus, TerminalJobStatus } from './types';

/** The only moves a job's status may make; both stores refuse every other one. */
const LEGAL_NEXT: Readonly<Record<JobStatus, readonly JobStatus[]>> = {
  queued: ['running', 'cancelled', 'failed'],
  running: ['completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

const STATUSES = Object.keys(LEGAL_NEXT) as JobStatus[];

export function canTransition(from: JobStatus, to: JobStatus): boolean {
  return LEGAL_NEXT[from].includes(to);
}

/** The statuses `to` may be reached from: what the Redis script checks the current status against. */
export function statusesLeadingTo(to: JobStatus): JobStatus[] {
  return STATUSES.filter((from) => canTransition(from, to));
}

export function isTerminal(status: JobStatus): status is TerminalJobStatus {
  return LEGAL_NEXT[status].length === 0;
}

export function isJobStatus(value: unknown): value is JobStatus {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(LEGAL_NEXT, value);
}
