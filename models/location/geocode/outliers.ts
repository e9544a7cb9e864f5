/**
 * Points farther than this from a group's first median are another place's (a listing the source
 * geocoder put in the wrong quarter): a street can run for kilometres, a quarter is well under
 * one, a massif's quarters together span a few, a mahalla lies in between.
 */
export const OUTLIER_DISTANCE_M = {
  street: 2500,
  quarter: 1200,
  massif: 3000, // Chilanzar's quarters span four kilometres
  mahalla: 1500,
} as const;
