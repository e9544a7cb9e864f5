/** The error the API layer maps to 400: a coordinate the index cannot score because it is not in Tashkent city. */
export class OutsideTashkentError extends Error {
  readonly code = 'OUTSIDE_TASHKENT';

  constructor(
    readonly lat: number,
    readonly lon: number,
    /** The position in a scoreMany batch. */
    readonly index?: number,
    /** True when the coordinate would be in the city with latitude and longitude swapped: a likely client mistake. */
    readonly swapped = false,
  ) {
    const where = index === undefined ? '' : ` (point ${index})`;
    const hint = swapped ? ': latitude and longitude look swapped' : '';
    super(`lat ${lat}, lon ${lon}${where} is not inside any Tashkent district polygon${hint}`);
    this.name = 'OutsideTashkentError';
  }
}
