/**
 * The gateway's own subscription schema: `batchProgress(id)`. It is served by the gateway over
 * graphql-ws on /graphql and is NOT part of the federated supergraph (Apollo Gateway does not
 * federate subscriptions): queries and mutations go over HTTP to the supergraph, subscriptions
 * over WebSocket to this schema. Events come from the batch engine (over Redis pub/sub from the
 * workers when the engine runs on Redis).
 */
import { type GraphQLNullableType, GraphQLBoolean, GraphQLError, GraphQLFloat, GraphQLID, GraphQLInt, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, getNamedType, printType } from 'graphql';
import type { Principal } from '../auth/principal';
import type { ProgressEvent } from '../../platform/batch-engine';

/** What the subscription reads: BatchEngine has this shape. */
export interface BatchProgressSource {
  get(organisation: string, id: string): Promise<unknown>;
  progress(organisation: string, id: string): AsyncIterable<ProgressEvent>;
}

export interface SubscriptionContext {
  principal: Principal | null;
}

const nonNull = <T extends GraphQLNullableType>(type: T) => new GraphQLNonNull(type);

const BatchProgress = new GraphQLObjectType<ProgressEvent>({
  name: 'BatchProgress',
  description: "A snapshot of a batch job's counters: at least one a second while it runs, then exactly one final event",
  fields: {
    id: { type: nonNull(GraphQLID) },
    status: { type: nonNull(GraphQLString), description: 'queued, running, completed, failed or cancelled' },
    processed: { type: nonNull(GraphQLInt), description: 'Items with a result: succeeded + failed' },
    succeeded: { type: nonNull(GraphQLInt) },
    failed: { type: nonNull(GraphQLInt) },
    total: { type: nonNull(GraphQLInt) },
    ratePerSecond: { type: nonNull(GraphQLFloat), description: 'Items per second since the job started running; 0 before' },
    etaSeconds: { type: GraphQLFloat, description: 'Seconds to go at that rate; null while unknown, 0 on the final event' },
    final: { type: nonNull(GraphQLBoolean), description: 'True on the last event (the job ended); the subscription completes after it' },
    at: { type: nonNull(GraphQLString), description: 'ISO 8601' },
  },
});

const notFound = (id: string) => new GraphQLError(`No batch job ${id.slice(0, 100)}`, { extensions: { code: 'NOT_FOUND', field: 'id' } });

async function* events(source: BatchProgressSource, organisation: string, id: string): AsyncGenerator<{ batchProgress: ProgressEvent }> {
  for await (const event of source.progress(organisation, id)) yield { batchProgress: event };
}

/** The subscription schema over a progress source (the stack's batch engine). */
export function batchProgressSchema(source: BatchProgressSource): GraphQLSchema {
  const Subscription = new GraphQLObjectType<unknown, SubscriptionContext>({
    name: 'Subscription',
    fields: {
      batchProgress: {
        type: nonNull(BatchProgress),
        description: "Progress of one of your organisation's batch jobs until it ends; another organisation's or an unknown id: NOT_FOUND, and no events",
        args: { id: { type: nonNull(GraphQLID) } },
        subscribe: async (_root, args: { id: string }, context) => {
          if (!context.principal) throw new GraphQLError('Authenticate in connection_init', { extensions: { code: 'INVALID_API_KEY' } });
          // Checked before the first event, so a foreign id fails the subscribe and nothing is sent.
          if (!(await source.get(context.principal.org, args.id))) throw notFound(args.id);
          return events(source, context.principal.org, args.id);
        },
        resolve: (payload) => (payload as { batchProgress: ProgressEvent }).batchProgress,
      },
    },
  });
  // A schema needs a query type; this one answers only what the supergraph does not.
  const Query = new GraphQLObjectType({ name: 'Query', fields: { _subscriptionsOnly: { type: GraphQLBoolean, description: 'Queries go to POST /graphql', resolve: () => true } } });
  return new GraphQLSchema({ query: Query, subscription: Subscription });
}

/**
 * The subscription's SDL as this code defines it (the Subscription root and its types, without the
 * placeholder query): the gateway adds it to the supergraph it serves on POST /graphql, so that
 * introspection shows it, and the OpenAPI document quotes it.
 */
export const BATCH_PROGRESS_SDL: string = (() => {
  const schema = batchProgressSchema({ get: unreachable, progress: unreachable });
  const subscription = schema.getSubscriptionType()!;
  return [getNamedType(subscription.getFields().batchProgress.type), subscription].map((type) => printType(type)).join('\n\n');
})();

/** Not REST, but clients of /api/batch want to know: the OpenAPI document's `x-graphql-subscriptions`. */
export const SUBSCRIPTIONS_NOTE = {
  protocol: 'graphql-ws (graphql-transport-ws subprotocol)',
  url: 'ws(s)://<host>/graphql',
  authentication: 'connection_init payload { "x-api-key": "<key>" } or { "authorization": "Bearer <jwt>" }; bad credentials close the socket with 4403, and so does a subscribe (or the next event of a running subscription) once the key is revoked',
  served_by: 'the gateway itself (Apollo Gateway does not federate subscriptions); its types are in /graphql introspection',
  schema: BATCH_PROGRESS_SDL,
  notes: "Events at least once a second while the job runs, then exactly one with final: true, after which the subscription completes. Another organisation's or an unknown id: an error with extensions.code NOT_FOUND and no events.",
};

function unreachable(): never {
  throw new Error('the SDL is printed, never executed');
}
