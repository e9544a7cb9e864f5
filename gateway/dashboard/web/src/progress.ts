/**
 * Live progress: `batchProgress(id)` subscriptions over graphql-ws (graphql-transport-ws) on the
 * service's /graphql, authenticated with the API key in connection_init. One socket per key; every
 * watched job is one subscription on it, ending after the job's final event.
 */
import { createClient, type Client } from 'graphql-ws';
import { ApiError, subscriptionsUrl, type Job } from './api';

const PROGRESS = /* GraphQL */ `
  subscription DashboardProgress($id: ID!) {
    batchProgress(id: $id) { id status processed succeeded failed total ratePerSecond etaSeconds final at }
  }`;

export interface ProgressEvent extends Job {
  final: boolean;
  at: string;
}

/** Close codes the gateway uses for bad credentials and an exhausted quota: retrying won't help. */
const FATAL_CLOSES: Record<number, { code: string; message: string }> = {
  4403: { code: 'INVALID_API_KEY', message: 'The live progress connection refused the API key' },
  4429: { code: 'RATE_LIMITED', message: 'The quota of your plan is exhausted: live progress stopped' },
};

function isCloseEvent(value: unknown): value is CloseEvent {
  return typeof value === 'object' && value !== null && 'code' in value && 'reason' in value;
}

function errorOf(error: unknown): ApiError {
  if (isCloseEvent(error)) {
    const fatal = FATAL_CLOSES[error.code];
    if (fatal) return new ApiError(fatal.code, fatal.message);
    return new ApiError('CONNECTION_CLOSED', `The live progress connection closed (${error.code}${error.reason ? `: ${error.reason}` : ''})`);
  }
  if (Array.isArray(error) && error.length > 0) {
    const first = error[0] as { message?: string; extensions?: { code?: string } };
    return new ApiError(first.extensions?.code ?? 'GRAPHQL_ERROR', first.message ?? 'Subscription error');
  }
  return new ApiError('CONNECTION_ERROR', error instanceof Error ? error.message : 'The live progress connection failed');
}

export class ProgressWatcher {
  private readonly client: Client;
  private readonly active = new Map<string, () => void>();

  constructor(apiKey: string) {
    this.client = createClient({
      url: subscriptionsUrl(),
      connectionParams: { 'x-api-key': apiKey },
      lazy: true,
      retryAttempts: 5,
      shouldRetry: (event) => isCloseEvent(event) && !(event.code in FATAL_CLOSES),
    });
  }

  /** Follows one job until its final event; a second call for the same job is ignored. */
  watch(id: string, onEvent: (event: ProgressEvent) => void, onError: (error: ApiError) => void): void {
    if (this.active.has(id)) return;
    const unsubscribe = this.client.subscribe<{ batchProgress: ProgressEvent }>(
      { query: PROGRESS, variables: { id } },
      {
        next: (result) => {
          if (result.errors?.length) onError(errorOf(result.errors));
          else if (result.data) onEvent(result.data.batchProgress);
        },
        error: (error) => {
          this.active.delete(id);
          onError(errorOf(error));
        },
        complete: () => this.active.delete(id),
      },
    );
    this.active.set(id, unsubscribe);
  }

  isWatching(id: string): boolean {
    return this.active.has(id);
  }

  async close(): Promise<void> {
    for (const unsubscribe of this.active.values()) unsubscribe();
    this.active.clear();
    await this.client.dispose();
  }
}
