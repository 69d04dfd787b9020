/** The attendance engine's public face: types, computeRange, the explanation keys and their English rendering. */
export type * from './types.ts';
export { computeRange } from './engine.ts';
export { describe, whyText } from './explain.ts';
export { CODED_PARAMS, WHY_EN, WHY_VALUE_EN, type WhyKey } from './why.ts';
