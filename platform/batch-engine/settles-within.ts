import { within } from '../within';

/** Whether `promise` settles within `ms`; it is not cancelled either way. */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return within(promise.then(() => true, () => true), ms, () => false);
}
