/**
 * Currencies in the valuation subgraphs (issue 19): the Currency enum valuation inputs take, the
 * ExchangeRate a valuation in soʻm names, and the one conversion each valuation resolver makes at its
 * end, after the model and any market adjustment (models/currency inCurrency: the rate of the
 * valuation date, rounding, the warning when the table has no rate for that month).
 */
import { Directive, Field, Float, ObjectType, registerEnumType } from 'type-graphql';
export { askedCurrency, inCurrency } from '../../models/currency';
import { EXCHANGE_RATE_DESCRIPTIONS } from '../../schema/currency-contract';


/** One enum of one name and values in both valuation subgraphs: federation composes it. */
export enum CurrencyEnum {
  USD = 'USD',
  UZS = 'UZS',
}
registerEnumType(CurrencyEnum, { name: 'Currency', description: 'The currency a valuation is answered in: USD (the models\' own) or UZS (soʻm, at the Central Bank of Uzbekistan\'s official rate for the valuation date)' });

// A value type of both valuation subgraphs: federation wants it declared shareable in each.
@Directive('@shareable')
@ObjectType({ description: 'The USD/UZS rate a valuation in UZS was converted at' })
export class ExchangeRate {
  @Field(() => Float, { description: EXCHANGE_RATE_DESCRIPTIONS.usdToUzs }) usdToUzs!: number;
  @Field({ description: EXCHANGE_RATE_DESCRIPTIONS.date }) date!: string;
  @Field({ description: EXCHANGE_RATE_DESCRIPTIONS.source }) source!: string;
}

