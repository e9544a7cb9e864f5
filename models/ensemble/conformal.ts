/** Moved to models/intervals. Kept only while test/properties/math.test.ts imports it from here. */
export { conformalQuantile } from '../intervals/conformal';
