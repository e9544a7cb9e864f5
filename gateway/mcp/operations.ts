/**
 * The GraphQL operations the MCP tools run. Tools with a REST twin run that route's persisted
 * operation (gateway/rest/*.ts), so both doors ask the graph the same question; these are the
 * ones no REST route has. Each names its owning subgraph: inside the gateway it goes straight
 * there (gateway/graph/executor.ts), from the stdio server through the gateway's /graphql.
 */
export { BATCH_JOB_OPERATION, BATCH_RESULTS_OPERATION, SUBMIT_BATCH_OPERATION } from '../rest/batch';
export { HOME_VALUATION_OPERATION } from '../rest/home';
export { LOCATION_INDEX_BY_ADDRESS_OPERATION, LOCATION_INDEX_OPERATION } from '../rest/location';
export { VEHICLE_VALUATION_OPERATION } from '../rest/vehicle';
export { RECORD_OBSERVATIONS_OPERATION } from '../rest/observations';
export { VALUATION_RECORD_OPERATION } from '../rest/valuations';
export { BACKTEST_OPERATION, SUBMIT_BACKTEST_OPERATION } from '../rest/backtest';

/** The caller's live accuracy of one kind (null overall: no observations), for get_model_accuracy. */
export const LIVE_ACCURACY_OPERATION = { owner: 'observations', query: /* GraphQL */ `
  query McpLiveAccuracy($kind: ObservationKind!) {
    liveAccuracy(kind: $kind) {
      asOf level driftRule
      overall { service { observations medianApe within10 meanBias meanBiasLow meanBiasHigh coverage coverageLow coverageHigh } base { observations medianApe meanBias coverage } drift { judged flagged bias coverage reasons } }
      groups { group service { observations medianApe meanBias coverage } drift { flagged bias coverage } }
    }
  }` };

export const GEOCODE_OPERATION = { owner: 'location', query: /* GraphQL */ `
  query McpGeocode($address: String!) {
    geocode(address: $address) {
      address lat lon precision confidence
      matched { district { name } quarter street mahalla { id name } }
      candidates { name precision district { name } lat lon confidence }
    }
  }` };

/** A district's fields; the mahallas' details only when asked for (their ids always, to count them). */
const DISTRICT_FIELDS = /* GraphQL */ `
  fragment McpDistrict on District {
    name id
    names { english uzbekLatin russian }
    centroid { lat lon }
    mahallas { id ... @include(if: $withMahallas) { name cyrillic centre { lat lon } } }
  }`;

export const DISTRICTS_OPERATION = { owner: 'location', query: /* GraphQL */ `
  query McpDistricts($withMahallas: Boolean!) {
    districts { ...McpDistrict }
  }${DISTRICT_FIELDS}` };

export const DISTRICT_OPERATION = { owner: 'location', query: /* GraphQL */ `
  query McpDistrict($name: String!, $withMahallas: Boolean!) {
    district(name: $name) { ...McpDistrict }
  }${DISTRICT_FIELDS}` };

/** The held-out metrics get_model_accuracy reports, the same for both kinds (replies.ts: Metrics). */
const ACCURACY_FIELDS = 'n r2 mape medianApe maeUsd ppe10 ppe20 intervalCoverage medianIntervalWidth';

export const RESIDENTIAL_MODEL_OPERATION = { owner: 'residential', query: /* GraphQL */ `
  query McpResidentialModel {
    residentialModel {
      version trainedAt dataSnapshot evaluation
      metrics { ...McpAccuracy }
      districts { district accuracyClass metrics { ...McpAccuracy } }
    }
  }
  fragment McpAccuracy on AccuracyMetrics { ${ACCURACY_FIELDS} }` };

export const VEHICLE_MODEL_OPERATION = { owner: 'vehicle', query: /* GraphQL */ `
  query McpVehicleModel {
    vehicleModel {
      version trainedAt dataSnapshot evaluation
      metrics { ...McpVehicleAccuracy }
      groups { group accuracyClass metrics { ...McpVehicleAccuracy } }
    }
  }
  fragment McpVehicleAccuracy on VehicleAccuracyMetrics { ${ACCURACY_FIELDS} }` };
