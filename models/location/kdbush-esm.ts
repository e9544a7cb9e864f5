/**
 * kdbush 4 and geokdbush 2 are ES modules only; this project compiles to CommonJS. Node >= 20.19
 * (package.json "engines") require()s an ES module synchronously, so in the service a plain
 * `import` (compiled by tsc to require()) would do. Jest 29 runs tests through its own module
 * loader instead, which cannot read ES modules: its require() and its module.createRequire() fail
 * with "Unexpected token 'export'", and import() needs --experimental-vm-modules. So both packages
 * are loaded here through Node's own require (process.getBuiltinModule reaches the real
 * node:module, which Jest does not replace): one synchronous load, the same in the service and
 * in the tests, with the packages' own types. Once Jest can require() ES modules this file can
 * become two plain imports.
 */
import type KDBushType from 'kdbush';
import type * as Geokdbush from 'geokdbush';

const nodeRequire = process.getBuiltinModule('node:module').createRequire(__filename);

/** kdbush's index class: `new KDBush(count)`, `add(x, y)` in id order, `finish()`, then `range`/`within` return ids. */
export const KDBush: typeof KDBushType = (nodeRequire('kdbush') as { default: typeof KDBushType }).default;
export type KDBush = KDBushType;

/** geokdbush's great-circle distance in kilometres (haversine since geokdbush 2). */
export const { distance }: typeof Geokdbush = nodeRequire('geokdbush') as typeof Geokdbush;
