/** JSON Schemas of REST replies: fastify serialises with them, and OpenAPI publishes them. */

const number = { type: 'number' } as const;
const nullableNumber = { type: ['number', 'null'] } as const;
const string = { type: 'string' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const strings = { type: 'array', items: string } as const;

export function homeResponseJsonSchema(): Record<string, unknown> {
  return {
    type: 'object',
    required: ['estimate', 'currency', 'price_per_m2', 'interval', 'confidence', 'models', 'anomaly', 'location', 'model_version', 'valued_at', 'warnings'],
    properties: {
      estimate: { ...number, description: 'Estimated market value in USD' },
      currency: string,
      price_per_m2: number,
      interval: {
        type: 'object', required: ['low', 'high', 'coverage'],
        properties: { low: number, high: number, coverage: { ...number, description: 'Share of true prices the interval contains on held-out data' } },
      },
      confidence: {
        type: 'object', required: ['level', 'score'],
        properties: { level: { type: 'string', enum: ['high', 'medium', 'low'] }, score: number },
      },
      models: { type: 'array', items: { type: 'object', required: ['name', 'estimate'], properties: { name: string, estimate: number } } },
      anomaly: {
        type: 'object',
        required: ['district_median_price_per_m2', 'deviation_from_district_median', 'model_spread', 'flags'],
        properties: {
          district_median_price_per_m2: number,
          deviation_from_district_median: number,
          mahalla_median_price_per_m2: nullableNumber,
          deviation_from_mahalla_median: nullableNumber,
          model_spread: number,
          flags: strings,
        },
      },
      location: {
        type: 'object', required: ['district', 'matched'],
        properties: { district: string, mahalla: nullableString, mahalla_id: nullableString, matched: { type: 'string', enum: ['mahalla', 'district'] } },
      },
      model_version: string,
      valued_at: { type: 'string', format: 'date-time' },
      warnings: strings,
    },
  };
}

export function errorResponseJsonSchema(): Record<string, unknown> {
  return {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: string, message: string, field: string, suggestions: strings, request_id: string },
      },
    },
  };
}

export function tokenResponseJsonSchema(): Record<string, unknown> {
  return {
    type: 'object',
    required: ['access_token', 'token_type', 'expires_in'],
    properties: { access_token: string, token_type: { type: 'string', enum: ['Bearer'] }, expires_in: { type: 'integer', description: 'Seconds until the token expires' } },
  };
}
