/**
 * What an operation costs and what it does, and the plugin that refuses or charges it.
 * Cost (graphql-query-complexity): one per field, plus one per item of a list argument (inside input
 * objects too) and one per item a list field may return or skip (./list-prices.ts); bounded per
 * operation so one request cannot hold the event loop for long, and so is how often one operation
 * selects a heavy field.
 * Work: the homes, vehicles and points it values and the batch items it submits, charged against
 * the plan on every door by one OperationCharges: the plugin below for what Apollo Server runs,
 * ./apollo.ts's owner path for the REST routes' and MCP tools' persisted operations.
 * The document's shape was bounded before either runs (./document-limits.ts).
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import { GraphQLError, getOperationAST, getVariableValues, isObjectType, type DocumentNode, type GraphQLSchema } from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { heavySelectionCounter, listEstimator, MAX_HEAVY_SELECTIONS } from './list-prices';
import { QuotaExceededError, type OperationWork, type WorkMeter } from '../quota';
import type { GatewayContext } from './context';
import { QUERY_TOO_COMPLEX } from './document-limits';
import { refuseDeepVariables } from './refused-variables';

export interface OperationMeasure extends OperationWork {
  cost: number;
}

const itemsOf = (value: unknown): number => (Array.isArray(value) ? value.length : 0);

/**
 * Root fields that value or score: how many objects one selection of them values. Fields that read
 * what the model in service publishes (residentialModel, marketIndex, vehicleModel, …) value nothing:
 * they are priced like any field (one per selected field) and take no valuation allowance.
 */
const VALUING_ROOT_FIELDS: Readonly<Record<string, (args: Record<string, unknown>) => number>> = {
  homeValuation: () => 1,
  homeValuations: (args) => itemsOf(args.inputs),
  vehicleValuation: () => 1,
  vehicleValuations: (args) => itemsOf(args.inputs),
  locationIndex: () => 1,
  locationIndexes: (args) => itemsOf(args.points),
  // A revaluation values the record's object again, and records it (issue 33, finding 9).
  revalueValuation: () => 1,
  // Each observed price is valued by the model at its date to be scored (issue 33, finding 2).
  recordObservations: (args) => itemsOf((args.input as { observations?: unknown } | undefined)?.observations),
};
/** Root fields that submit batch items: a job filled in several calls is charged call by call. */
const BATCH_ROOT_FIELDS: Readonly<Record<string, (args: Record<string, unknown>) => number>> = {
  submitBatch: (args) => itemsOf((args.input as { items?: unknown } | undefined)?.items),
  appendBatchItems: (args) => itemsOf(args.items),
  // A backtest's observations are batch items too: each is valued, in the background, like a portfolio's home.
  submitBacktest: (args) => itemsOf((args.input as { observations?: unknown } | undefined)?.observations),
  appendBacktestObservations: (args) => itemsOf(args.observations),
};

/**
 * Cost and work of one operation. Throws a GraphQLError when it cannot be measured (variables that
 * do not fit, a document past graphql-query-complexity's node limit): the caller decides.
 */
function measureOperation(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>): OperationMeasure {
  const work: OperationWork = { valuations: 0, batchItems: 0 };
  const roots = new Set([schema.getQueryType(), schema.getMutationType()].filter(isObjectType));
  // Counts work as the complexity walk meets each root field (aliases and fragments included, @skip honoured); prices nothing itself.
  const workEstimator: ComplexityEstimator = ({ type, field, args }) => {
    if (!roots.has(type as never)) return undefined;
    work.valuations += VALUING_ROOT_FIELDS[field.name]?.(args) ?? 0;
    work.batchItems += BATCH_ROOT_FIELDS[field.name]?.(args) ?? 0;
    return undefined;
  };
  const cost = getComplexity({
    schema,
    query: document,
    operationName,
    variables,
    estimators: [workEstimator, heavySelectionCounter(refuseHeavySelections), listEstimator, simpleEstimator({ defaultComplexity: 1 })],
  });
  return { cost, ...work };
}

/**
 * The first error coercing the variables, as the client's error (400 BAD_USER_INPUT, the message
 * graphql-js words); none when they fit. The cost walk and execution coerce every item and report
 * each one's errors: 30,000 empty observations (90 KB) held the event loop for minutes. Coercion
 * stops here at the first. No operation to coerce for: none either (Apollo Server answers that).
 */
function variableError(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>): GraphQLError | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation) return undefined;
  const first = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1 }).errors?.[0];
  return first && new GraphQLError(first.message, { nodes: first.nodes, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
}

function tooComplex(message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code: QUERY_TOO_COMPLEX, ...extensions, http: { status: 400 } } });
}

function refuseHeavySelections(coordinate: string, selections: number): never {
  throw tooComplex(`The operation selects ${coordinate} ${selections} times (aliases and fragments counted); the limit is ${MAX_HEAVY_SELECTIONS}: read further pages in further requests`);
}

/**
 * Measures an operation for execution: refuses it (QUERY_TOO_COMPLEX) when it cannot be measured or
 * costs more than `maxCost`, and variables that do not fit (BAD_USER_INPUT, the first error only);
 * returns undefined when the document has no such operation (nothing will run).
 */
export function measureForExecution(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>, maxCost: number): OperationMeasure | undefined {
  // First: graphql-query-complexity coerces the variables without a bound on the errors either.
  const refused = variableError(schema, document, operationName, variables);
  if (refused) throw refused;
  let measure: OperationMeasure;
  try {
    measure = measureOperation(schema, document, operationName, variables);
  } catch (error) {
    if (!getOperationAST(document, operationName)) return undefined;
    if (error instanceof GraphQLError && error.extensions.code === QUERY_TOO_COMPLEX) throw error;
    // A failure to price the operation must never let it run unpriced.
    throw tooComplex(`The operation's cost cannot be computed: ${(error as Error).message}`);
  }
  if (measure.cost > maxCost) throw tooComplex(`query cost ${measure.cost} exceeds the limit of ${maxCost}`, { cost: measure.cost, maxCost });
  return measure;
}

/** A refused charge as GraphQL reports it: code RATE_LIMITED, HTTP 429 with Retry-After. */
function rateLimitedError(error: QuotaExceededError): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: { code: error.code, http: { status: 429, headers: new HeaderMap([['retry-after', String(error.retryAfterSeconds)]]) } },
  });
}

/**
 * Measures operations for execution, remembering each document's measures by what of the variables
 * they depend on (variableSignature below): a bank's valuations send the same document with other
 * numbers and names again and again, and pricing one walks the document and coerces its arguments
 * again (a tenth of the gateway's CPU for a single valuation). Keyed weakly: documents come from
 * Apollo's cache or a persisted operation; at most MEASURES_PER_DOCUMENT signatures a document.
 */
export class OperationMeasures {
  private readonly byDocument = new WeakMap<DocumentNode, Map<string, OperationMeasure>>();

  constructor(readonly maxCost = 20_000) {}

  /** As measureForExecution: undefined when there is no such operation (nothing will run). */
  measure(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>): OperationMeasure | undefined {
    // First, as nothing below walks a value thousands of levels deep without running out of stack.
    refuseDeepVariables(variables);
    const key = `${operationName ?? ''}\u0000${variableSignature(variables)}`;
    const known = this.byDocument.get(document)?.get(key);
    if (known) {
      // The variables must still fit the operation (the measure says nothing of them): the first error only, as below.
      const refused = variableError(schema, document, operationName, variables);
      if (refused) throw refused;
      return known;
    }
    const measure = measureForExecution(schema, document, operationName, variables, this.maxCost);
    if (measure) {
      const measures = this.byDocument.get(document) ?? new Map<string, OperationMeasure>();
      if (measures.size < MEASURES_PER_DOCUMENT) this.byDocument.set(document, measures.set(key, measure));
    }
    return measure;
  }
}

/** Signatures remembered per document: a document sent with ever other list lengths is measured each time past this. */
const MEASURES_PER_DOCUMENT = 64;

/**
 * What of the variables an operation's measure can depend on. The cost and work estimators read
 * list lengths (of a list argument, or of lists inside an input object: ./list-prices.ts, itemsOf)
 * and the values of top-level size arguments (limit, n, first, offset: an Int variable of its own),
 * and the complexity walk honours @skip and @include (a Boolean variable of its own). So: a
 * top-level number, boolean or null is kept as it is; a list is kept as its length (nothing reads
 * inside list items); an object by its keys, each value as below; any other value by its kind only
 * (null or not: a single value coerces to a list of one). Two variable sets with one signature
 * have one measure.
 */
export function variableSignature(variables: Record<string, unknown>): string {
  let signature = '';
  for (const [name, value] of Object.entries(variables)) {
    signature += `${JSON.stringify(name)}:`;
    if (typeof value === 'number' || typeof value === 'boolean' || value === null) signature += `=${String(value)}`;
    else signature += shapeOf(value);
    signature += ',';
  }
  return signature;
}

function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return `[${value.length}]`;
  if (value === null) return 'z';
  if (typeof value !== 'object') return typeof value === 'undefined' ? 'u' : 's';
  let shape = '{';
  for (const [key, inner] of Object.entries(value)) shape += `${JSON.stringify(key)}:${shapeOf(inner)},`;
  return `${shape}}`;
}

/**
 * A batch operation that submitted nothing gives back the batch items it was charged: a submitBatch
 * answered as an idempotent replay (its idempotentReplay selected and true), and a batch field that
 * answered null, refused before anything was stored (a bad item, a bad callback URL, an idempotency
 * conflict), or an operation that never ran (no data). Only for an operation whose one field it is,
 * so the items given back are that field's.
 */
async function refundUnsubmitted(meter: WorkMeter | undefined, principal: GatewayContext['principal'], measure: OperationMeasure, data: Record<string, unknown> | null | undefined): Promise<void> {
  if (!meter || measure.batchItems === 0) return;
  // Fields that are not objects or null (a top-level __typename) are no batch field's answer.
  const answers = data ? Object.values(data).filter((value) => value === null || typeof value === 'object') : [null];
  if (answers.length !== 1) return;
  const [answer] = answers;
  if (answer === null || (answer as { idempotentReplay?: unknown }).idempotentReplay === true) await meter.refundBatchItems(principal, measure.batchItems);
}

/**
 * What an operation is charged, on both of its paths: the plugin below (POST /graphql and the
 * operations Apollo Server runs for the other doors) and ./apollo.ts's owner path (a REST route's or
 * MCP tool's persisted operation sent straight to its subgraph, where no plugin runs).
 */
export class OperationCharges {
  constructor(
    private readonly measures: OperationMeasures,
    private readonly meter?: WorkMeter,
  ) {}

  /**
   * Measures the operation (refusing it as OperationMeasures does, with a GraphQLError) and takes its
   * work from the principal's plan: a refusal is thrown as QuotaExceededError, the API's RATE_LIMITED.
   * Returns the measure to settle the response with; undefined when there is no such operation.
   */
  async charge(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>, principal: GatewayContext['principal']): Promise<OperationMeasure | undefined> {
    const measure = this.measures.measure(schema, document, operationName, variables);
    if (measure) await this.meter?.charge(principal, measure);
    return measure;
  }

  /** After the operation ran: gives back the batch items of a submission that stored nothing (see refundUnsubmitted). */
  async settle(principal: GatewayContext['principal'], measure: OperationMeasure | undefined, data: Record<string, unknown> | null | undefined): Promise<void> {
    if (measure) await refundUnsubmitted(this.meter, principal, measure, data);
  }
}

/** Refuses operations that cost too much or cannot be priced, and charges the others' work; a refused charge as GraphQL reports it. */
export function operationLimitsPlugin(charges: OperationCharges): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      let measure: OperationMeasure | undefined;
      return {
        async didResolveOperation({ request, document, schema, contextValue }) {
          try {
            measure = await charges.charge(schema, document, request.operationName ?? undefined, request.variables ?? {}, contextValue.principal);
          } catch (error) {
            throw error instanceof QuotaExceededError ? rateLimitedError(error) : error;
          }
        },
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind === 'single') await charges.settle(contextValue.principal, measure, response.body.singleResult.data);
        },
      };
    },
  };
}
