/**
 * The valuing pipeline every collateral kind's subgraph runs: normalise once → value → re-anchor →
 * convert currency → record (docs/ARCHITECTURE.md, "The life of a request", steps 6 to 10). A kind
 * declares its steps (`ValuingKind`: how an input is read, how the model values a batch, how the
 * organisation's observations move a valuation, what a record keeps of the request); this module runs
 * them, the same way for every kind, for one input, for a bulk call and for a record valued again.
 *
 * This is the hot path of every valuation (bench/subgraph-cost): per-item objects are built with
 * Object.assign rather than a spread followed by fields (V8, Node 20, adds each field after a spread
 * through its slow path), and a bulk call makes one model call and one record write for all its items.
 */
import type { Currency, ExchangeRate, PricedValuation } from '../../models/currency';
import { ApiError } from '../../schema/errors';
import { valueInBulk, withApiErrors, type BulkItem } from './bulk';
import { askedCurrency, inCurrency } from './currency';
import type { ObservationBook } from './observation-book';
import type { RecordCaller, ValuationRecorder } from './valuation-recorder';
import type { ValuationRecord } from './valuation-records';

/** What the pipeline reads of a valuing subgraph's request context. */
export interface ValuingContext {
  /** The caller's organisation (x-organisation); null for none: nothing is re-anchored or recorded for it. */
  organisation: string | null;
  /** Observed prices by organisation: they re-anchor that organisation's valuations. */
  observations: ObservationBook;
  /** Every valuation given, kept for its organisation. */
  records: ValuationRecorder;
  caller: RecordCaller;
}

/** An input as its kind reads it: the model's request (valued at `valuationDate`, null for today) and the warnings reading it gave. */
export interface NormalisedInput {
  request: { valuationDate?: string | null };
  warnings: string[];
}

/** What the client asks of the answer beside the valuation: its currency, and its own rate for soʻm. */
interface CurrencyAsk {
  currency?: Currency | null;
  exchangeRate?: number | null;
}

/** A valuation as answered: re-anchored, in the currency asked for, stamped with its record's id. */
export type Answered<A> = A & { exchangeRate: ExchangeRate | null; valuationId: string | null };

/** What one kind brings to the pipeline; C is its subgraph's request context, I its GraphQL input. */
export interface ValuingKind<C extends ValuingContext, I extends CurrencyAsk, N extends NormalisedInput, V extends { estimate: number }, A extends PricedValuation & { warnings: string[] }, Out> {
  /** The most inputs one bulk call takes (schema/bulk.ts's rule). */
  maxInputs: number;
  /** Reads one input (field checks, names, yes/no answers), once; a bad input throws its ApiError. */
  normalise(input: I): N;
  /** Values all the normalised inputs in one model call, in their order; a refusal (e.g. too little market data) in its place. */
  value(context: C, normalised: readonly N[]): Promise<(V | ApiError)[]>;
  /** The valuation as the organisation sees it: moved by its observed prices (unchanged without any). */
  adjust(book: ObservationBook, organisation: string | null, normalised: N, valuation: V): Promise<A>;
  /** What a record keeps of the request: the request as understood and what the kind keeps beside it, without warnings. */
  recorded(normalised: N): Omit<N, 'warnings'>;
  /** The answer as the kind's GraphQL type has it; omitted: the valuation as answered. */
  answer?(valuation: Answered<A>): Out;
}

/** A record valued again: its new record's id, and the model's own estimates (no adjustment) now and at the old record's date. */
export interface Revaluation {
  valuationId: string | null;
  modelAtThen: number;
  modelNow: number;
}

export interface ValuingPipeline<C, I, Out> {
  /** Values one input; its error (a bad input, a refusal) is the call's GraphQL error. */
  one(context: C, input: I): Promise<Out>;
  /** Values up to `maxInputs` inputs, one model call and one record write for all; a bad input or a refusal gets an error in its place. */
  many(context: C, inputs: readonly I[]): Promise<BulkItem<Out>[]>;
  /**
   * A record's request valued again with the model in service: today as a fresh valuation (re-anchored,
   * in the currency the record was answered in, recorded), and by the model alone at the record's own
   * date and today, which is what separates the model's change from the market's. Throws ApiErrors.
   */
  revalue(context: C, record: ValuationRecord): Promise<Revaluation>;
}

/** One valued input on its way to the answer: as read, the currency asked for, and the model's valuation. */
interface Valued<N, V> {
  normalised: N;
  currency: Currency | null | undefined;
  ownRate: number | null;
  result: V;
}

export function valuingPipeline<C extends ValuingContext, I extends CurrencyAsk, N extends NormalisedInput, V extends { estimate: number }, A extends PricedValuation & { warnings: string[] }, Out = Answered<A>>(
  kind: ValuingKind<C, I, N, V, A, Out>,
): ValuingPipeline<C, I, Out> {
  /**
   * The model's valuations as answered: re-anchored by the organisation's observations, in the
   * currency asked for, then recorded (the request as understood, and the answer; one store call for
   * all) and stamped with their ids. A bulk answer's errors stay in their places.
   */
  async function answered(context: C, items: readonly (Valued<N, V> | ApiError)[]): Promise<(Answered<A> | ApiError)[]> {
    const views = await Promise.all(items.map(async (item) => (item instanceof ApiError ? item : {
      input: kind.recorded(item.normalised),
      valuation: inCurrency(await kind.adjust(context.observations, context.organisation, item.normalised, item.result), item.currency, item.ownRate),
    })));
    return context.records.stamp(context.caller, views) as Promise<(Answered<A> | ApiError)[]>;
  }
  const answer = kind.answer;

  return {
    one(context, input) {
      return withApiErrors(async () => {
        const normalised = kind.normalise(input);
        const asked = askedCurrency(input);
        const [result] = await kind.value(context, [normalised]);
        const [valuation] = await answered(context, [result instanceof ApiError ? result : Object.assign({ normalised }, asked, { result })]);
        if (valuation instanceof ApiError) throw valuation;
        return answer ? answer(valuation) : (valuation as unknown as Out);
      });
    },

    many(context, inputs) {
      return withApiErrors(async () => {
        const normalise = (input: I) => Object.assign({ normalised: kind.normalise(input) }, askedCurrency(input));
        const items = await valueInBulk(inputs, kind.maxInputs, normalise, async (valid) => {
          const results = await kind.value(context, valid.map((v) => v.normalised));
          return answered(context, results.map((result, i) => (result instanceof ApiError ? result : Object.assign({}, valid[i], { result }))));
        });
        if (!answer) return items as unknown as BulkItem<Out>[];
        return items.map((item) => ({ ...item, valuation: item.valuation && answer(item.valuation) }));
      });
    },

    async revalue(context, record) {
      // The record keeps `recorded(normalised)`: the request as understood and what the kind keeps beside it.
      const stored = record.input as unknown as Omit<N, 'warnings'>;
      const then = (record.valuation.marketLevel as { valuationDate: string }).valuationDate;
      const now = Object.assign({}, stored, { request: Object.assign({}, stored.request, { valuationDate: null }), warnings: [] }) as unknown as N;
      const atThen = Object.assign({}, now, { request: Object.assign({}, stored.request, { valuationDate: then }) });
      const [today, before] = await kind.value(context, [now, atThen]);
      if (today instanceof ApiError) throw today;
      if (before instanceof ApiError) throw before;
      // In the currency the record was answered in.
      const [valuation] = await answered(context, [{ normalised: now, currency: record.valuation.currency as Currency, ownRate: null, result: today }]);
      if (valuation instanceof ApiError) throw valuation;
      return { valuationId: valuation.valuationId, modelAtThen: before.estimate, modelNow: today.estimate };
    },
  };
}
