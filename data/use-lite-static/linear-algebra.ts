/**
 * The little dense linear algebra `make-table.ts` needs, in plain loops over row-major Float64Arrays
 * (deterministic: every sum in a fixed order), so that making the table needs nothing but Node.
 */

/** A row-major matrix. */
export interface Matrix {
  readonly rows: number;
  readonly cols: number;
  readonly data: Float64Array;
}

/** A zero matrix. */
export function zeros(rows: number, cols: number): Matrix {
  return { rows, cols, data: new Float64Array(rows * cols) };
}

/** `a · b`. */
export function multiply(a: Matrix, b: Matrix): Matrix {
  if (a.cols !== b.rows) throw new Error(`cannot multiply ${a.rows}×${a.cols} by ${b.rows}×${b.cols}`);
  const out = zeros(a.rows, b.cols);
  for (let i = 0; i < a.rows; i++) {
    const into = out.data.subarray(i * b.cols, (i + 1) * b.cols);
    for (let k = 0; k < a.cols; k++) {
      const factor = a.data[i * a.cols + k]!;
      if (factor === 0) continue;
      const row = b.data.subarray(k * b.cols, (k + 1) * b.cols);
      for (let j = 0; j < b.cols; j++) into[j]! += factor * row[j]!;
    }
  }
  return out;
}

/**
 * The eigenvectors of a symmetric matrix with the largest eigenvalues, as the columns of a
 * `n × count` matrix, largest first (cyclic Jacobi rotations until the off-diagonal is negligible).
 */
export function topEigenvectors(symmetric: Matrix, count: number): Matrix {
  const n = symmetric.rows;
  const a = Float64Array.from(symmetric.data);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 50 && offDiagonal(a, n) > 1e-22 * diagonal(a, n); sweep++) {
    for (let p = 0; p < n - 1; p++) for (let q = p + 1; q < n; q++) rotate(a, v, n, p, q);
  }
  const order = Array.from({ length: n }, (_, index) => index).sort((x, y) => a[y * n + y]! - a[x * n + x]!);
  const out = zeros(n, count);
  for (let column = 0; column < count; column++) {
    for (let row = 0; row < n; row++) out.data[row * count + column] = v[row * n + order[column]!]!;
  }
  return out;
}

function offDiagonal(a: Float64Array, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) sum += a[i * n + j]! ** 2;
  return sum;
}

function diagonal(a: Float64Array, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += a[i * n + i]! ** 2;
  return sum;
}

/** One Jacobi rotation zeroing `a[p][q]` (both triangles kept), accumulated into the eigenvectors `v`. */
function rotate(a: Float64Array, v: Float64Array, n: number, p: number, q: number): void {
  const apq = a[p * n + q]!;
  if (Math.abs(apq) < 1e-300) return;
  const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
  const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
  const c = 1 / Math.sqrt(t * t + 1);
  const s = t * c;
  for (let k = 0; k < n; k++) {
    const akp = a[k * n + p]!;
    const akq = a[k * n + q]!;
    a[k * n + p] = c * akp - s * akq;
    a[k * n + q] = s * akp + c * akq;
  }
  for (let k = 0; k < n; k++) {
    const apk = a[p * n + k]!;
    const aqk = a[q * n + k]!;
    a[p * n + k] = c * apk - s * aqk;
    a[q * n + k] = s * apk + c * aqk;
  }
  for (let k = 0; k < n; k++) {
    const vkp = v[k * n + p]!;
    const vkq = v[k * n + q]!;
    v[k * n + p] = c * vkp - s * vkq;
    v[k * n + q] = s * vkp + c * vkq;
  }
}

/** The lower Cholesky factor of a symmetric positive definite matrix, in place of its lower triangle. */
export function choleskyInPlace(m: Matrix): void {
  const n = m.rows;
  const a = m.data;
  for (let j = 0; j < n; j++) {
    const rowJ = a.subarray(j * n, j * n + j);
    let sum = a[j * n + j]!;
    for (let k = 0; k < j; k++) sum -= rowJ[k]! * rowJ[k]!;
    if (!(sum > 0)) throw new Error(`not positive definite at ${j}`);
    const pivot = Math.sqrt(sum);
    a[j * n + j] = pivot;
    for (let i = j + 1; i < n; i++) {
      const rowI = a.subarray(i * n, i * n + j);
      let value = a[i * n + j]!;
      for (let k = 0; k < j; k++) value -= rowI[k]! * rowJ[k]!;
      a[i * n + j] = value / pivot;
    }
  }
}

/** Solves `L Lᵀ x = b` for each column of `b` (in place), `L` the factor {@link choleskyInPlace} left. */
export function choleskySolveInPlace(factor: Matrix, b: Matrix): void {
  const n = factor.rows;
  const l = factor.data;
  const x = b.data;
  const width = b.cols;
  for (let i = 0; i < n; i++) {
    const into = x.subarray(i * width, (i + 1) * width);
    for (let k = 0; k < i; k++) {
      const factorIk = l[i * n + k]!;
      if (factorIk === 0) continue;
      const from = x.subarray(k * width, (k + 1) * width);
      for (let j = 0; j < width; j++) into[j]! -= factorIk * from[j]!;
    }
    for (let j = 0; j < width; j++) into[j]! /= l[i * n + i]!;
  }
  for (let i = n - 1; i >= 0; i--) {
    const into = x.subarray(i * width, (i + 1) * width);
    for (let k = i + 1; k < n; k++) {
      const factorKi = l[k * n + i]!;
      if (factorKi === 0) continue;
      const from = x.subarray(k * width, (k + 1) * width);
      for (let j = 0; j < width; j++) into[j]! -= factorKi * from[j]!;
    }
    for (let j = 0; j < width; j++) into[j]! /= l[i * n + i]!;
  }
}
