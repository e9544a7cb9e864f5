/** Dense row-major feature matrix: element (i, j) is data[i * cols + j]; NaN marks a missing value. */
export interface Matrix {
  readonly data: Float64Array;
  readonly rows: number;
  readonly cols: number;
}

/** Wraps row-major data as a Matrix after checking that the shape fits. */
export function matrix(data: Float64Array, rows: number, cols: number): Matrix {
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) {
    throw new RangeError(`matrix shape must be non-negative integers, got ${rows}x${cols}`);
  }
  if (data.length !== rows * cols) throw new RangeError(`matrix data has ${data.length} values, ${rows}x${cols} needs ${rows * cols}`);
  return { data, rows, cols };
}

/** Builds a matrix from nested rows; null and undefined become NaN (missing). */
export function fromRows(rows: ReadonlyArray<ReadonlyArray<number | null | undefined>>): Matrix {
  const cols = rows.length > 0 ? rows[0].length : 0;
  const data = new Float64Array(rows.length * cols);
  rows.forEach((row, i) => {
    if (row.length !== cols) throw new RangeError(`row ${i} has ${row.length} values, expected ${cols}`);
    for (let j = 0; j < cols; j++) data[i * cols + j] = row[j] ?? NaN;
  });
  return { data, rows: rows.length, cols };
}

/** Copies the given rows (in order) into a new matrix. */
export function takeRows(X: Matrix, indices: ArrayLike<number>): Matrix {
  const out = new Float64Array(indices.length * X.cols);
  for (let k = 0; k < indices.length; k++) {
    const from = indices[k] * X.cols;
    out.set(X.data.subarray(from, from + X.cols), k * X.cols);
  }
  return { data: out, rows: indices.length, cols: X.cols };
}
