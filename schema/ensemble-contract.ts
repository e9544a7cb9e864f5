/**
 * What every valuation (flat, house, vehicle) says of its ensemble, on every door: each member's own
 * estimate with the weight it carries (models[]), and their disagreement (anomaly.modelSpread).
 */

export const MEMBER_WEIGHT_DESCRIPTION = "The member's weight in the served consensus, 0 to 1 (3 decimals); 0 means computed and shown but not served, and not counted in the model spread";

export const MODEL_SPREAD_DESCRIPTION = "Disagreement of the served members: (highest − lowest estimate) / estimate among the members with weight > 0; 0 when one member carries all the weight, whatever the others' estimates";
