/**
 * The public error catalogue: every error code a client can see, on every surface
 * (REST bodies, GraphQL `extensions.code`, MCP tool errors). Pure data plus one class.
 * Internal failures never leave the service with their own message: they become INTERNAL.
 */
export const ERROR_CATALOGUE = {
  INVALID_JSON: { status: 400, message: 'The request body is not valid JSON' },
  INVALID_PARAMETER: { status: 400, message: 'A parameter has the wrong type or is out of range' },
  MISSING_PARAMETER: { status: 400, message: 'A required parameter is missing' },
  UNKNOWN_DISTRICT: { status: 400, message: 'The district is not a Tashkent district' },
  UNKNOWN_VEHICLE: { status: 400, message: 'The make or model is not in the vehicle catalogue (see suggestions, or the vehicleCatalog query)' },
  PERSONAL_DATA_NOT_ACCEPTED: { status: 400, message: 'Personal data is not accepted' },
  OUTSIDE_TASHKENT: { status: 400, message: 'The coordinate is outside Tashkent city: the location index covers its 12 districts' },
  UNRESOLVABLE_ADDRESS: { status: 400, message: 'The address cannot be placed in Tashkent' },
  INVALID_API_KEY: { status: 401, message: 'The API key is missing or invalid' },
  INVALID_TOKEN: { status: 401, message: 'The bearer token is missing, invalid or expired' },
  ORIGIN_NOT_ALLOWED: { status: 403, message: 'Requests from this web origin are not accepted (MCP_ALLOWED_ORIGINS lists the ones that are)' },
  NOT_FOUND: { status: 404, message: 'No such route' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than this route accepts' },
  OBSERVATION_QUOTA_EXCEEDED: { status: 413, message: 'Your organisation keeps as many observations of this kind as its plan allows: retract some, or wait for the oldest to pass the retention' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Send Content-Type: application/json' },
  JOB_NOT_FINISHED: { status: 409, message: 'The job has not completed yet: what it produces comes once it has' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, message: 'The Idempotency-Key was used for another submission, or its first submission is still being made' },
  INSUFFICIENT_MARKET_DATA: { status: 422, message: 'Too little market data to value this honestly' },
  RATE_LIMITED: { status: 429, message: 'The quota of your plan is exhausted' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large' },
  INTERNAL: { status: 500, message: 'Internal error' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is not ready' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  field?: string;
  suggestions?: string[];
  request_id?: string;
}

/** Every error reply: `{ "error": { code, message, field?, suggestions?, request_id? } }` with the catalogue's status. */
export interface ApiErrorReply {
  error: ApiErrorBody;
}

/** An error meant for the client: its code, message and field are safe to show. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_CATALOGUE[code].message,
    readonly field?: string,
    readonly suggestions?: string[],
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_CATALOGUE[code].status;
  }

  toBody(requestId?: string): ApiErrorBody {
    return {
      code: this.code,
      message: this.message,
      ...(this.field !== undefined && { field: this.field }),
      ...(this.suggestions !== undefined && { suggestions: this.suggestions }),
      ...(requestId !== undefined && { request_id: requestId }),
    };
  }

  /** The body of every error reply the service sends (REST, and the JSON of an MCP tool error). */
  toReply(requestId?: string): ApiErrorReply {
    return { error: this.toBody(requestId) };
  }

  /** An error reply's body read back (a gateway's reply to the MCP stdio server); a code not in the catalogue: INTERNAL. */
  static fromBody(body: { code?: unknown; message?: unknown; field?: unknown; suggestions?: unknown }): ApiError {
    if (!isErrorCode(body.code)) return new ApiError('INTERNAL');
    return new ApiError(body.code, typeof body.message === 'string' ? body.message : undefined, typeof body.field === 'string' ? body.field : undefined, Array.isArray(body.suggestions) ? body.suggestions.map(String) : undefined);
  }

  /** The GraphQL `extensions` carrying the same information. */
  toExtensions(): Record<string, unknown> {
    return {
      code: this.code,
      ...(this.field !== undefined && { field: this.field }),
      ...(this.suggestions !== undefined && { suggestions: this.suggestions }),
    };
  }
}

/** PAYLOAD_TOO_LARGE naming the limit of the route that refused (64 KB, 2 MB…), and what to do instead if there is advice. */
export function payloadTooLarge(limitBytes: number, advice?: string): ApiError {
  return new ApiError('PAYLOAD_TOO_LARGE', `The request body is larger than ${formatBytes(limitBytes)}${advice ? `: ${advice}` : ''}`);
}

/** A size as people say it: whole megabytes in MB, anything else in KB. */
export function formatBytes(bytes: number): string {
  const MB = 1024 * 1024;
  return bytes % MB === 0 ? `${bytes / MB} MB` : `${Math.round(bytes / 1024)} KB`;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CATALOGUE, value);
}
