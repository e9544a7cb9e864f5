/**
 * The models in service and their held-out accuracy, as MCP's get_model_accuracy reads them (no
 * REST route has them; /graphql does). Each is owned by its model's subgraph.
 */

/** The held-out metrics get_model_accuracy reports, the same for both kinds (Metrics below). */
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

interface Metrics { n: number; r2: number | null; mape: number; medianApe: number; maeUsd: number; ppe10: number; ppe20: number; intervalCoverage: number; medianIntervalWidth: number }
interface ModelInfo { version: string; trainedAt: string; dataSnapshot: string; evaluation: string; metrics: Metrics }
/** What RESIDENTIAL_MODEL_OPERATION selects. */
export interface ResidentialModelData { residentialModel: ModelInfo & { districts: { district: string; accuracyClass: string; metrics: Metrics }[] } }
/** What VEHICLE_MODEL_OPERATION selects. */
export interface VehicleModelData { vehicleModel: ModelInfo & { groups: { group: string; accuracyClass: string; metrics: Metrics }[] } }
