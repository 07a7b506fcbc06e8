/**
 * `math.log` and `math.exp` as CPython computes them on glibc (2.28+), i.e. correctly rounded results.
 *
 * V8's `Math.log` / `Math.exp` (fdlibm ports) are only faithfully rounded: on random inputs about 7% of
 * their results differ from glibc's by one ulp, which moves BLEU values in the last bit. These versions
 * evaluate the function in double-double arithmetic (about 100 significant bits, using only IEEE
 * additions and multiplications, so they give the same bits on every platform) and round once, which
 * matches glibc wherever glibc's result is correctly rounded (all but a vanishing fraction of inputs).
 *
 * Outside what the metrics need they follow `Math.*` semantics instead of raising like Python: log of 0
 * is -Infinity, of a negative number NaN, and exp overflows to Infinity.
 */

// ---- double-double arithmetic on "registers" (no allocation in the hot path) ---------------------
// A double-double (hi, lo) represents hi + lo with |lo| ≤ ulp(hi)/2. Each operation leaves its result in
// RH/RL.
let RH = 0;
let RL = 0;

const SPLITTER = 134217729; // 2^27 + 1, Dekker's splitting constant

/** Exact product: a*b = RH + RL. */
function twoProd(a: number, b: number): void {
  const p = a * b;
  let t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b);
  const bl = b - bh;
  RL = ah * bh - p + ah * bl + al * bh + al * bl;
  RH = p;
}

/** (ah, al) + (bh, bl), the accurate double-double sum. */
function ddAdd(ah: number, al: number, bh: number, bl: number): void {
  let s = ah + bh;
  let v = s - ah;
  let e = ah - (s - v) + (bh - v);
  const t = al + bl;
  v = t - al;
  const f = al - (t - v) + (bl - v);
  e += t;
  let u = s + e;
  e -= u - s;
  s = u;
  e += f;
  u = s + e;
  RL = e - (u - s);
  RH = u;
}

/** (ah, al) × (bh, bl). */
function ddMul(ah: number, al: number, bh: number, bl: number): void {
  twoProd(ah, bh);
  const p = RH;
  const e = RL + (ah * bl + al * bh);
  RH = p + e;
  RL = e - (RH - p);
}

/** (ah, al) × b. */
function ddMulNumber(ah: number, al: number, b: number): void {
  twoProd(ah, b);
  const p = RH;
  const e = RL + al * b;
  RH = p + e;
  RL = e - (RH - p);
}

/** (ah, al) / (bh, bl), by long division with three quotient terms. */
function ddDiv(ah: number, al: number, bh: number, bl: number): void {
  const q1 = ah / bh;
  ddMulNumber(bh, bl, q1);
  ddAdd(ah, al, -RH, -RL);
  const r1h = RH;
  const r1l = RL;
  const q2 = r1h / bh;
  ddMulNumber(bh, bl, q2);
  ddAdd(r1h, r1l, -RH, -RL);
  const q3 = RH / bh;
  const s = q1 + q2;
  const e = q2 - (s - q1);
  ddAdd(s, e, q3, 0);
}

// ---- exponent manipulation -----------------------------------------------------------------------
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
f64[0] = 1;
const HIGH = u32[1] === 0x3ff00000 ? 1 : 0; // index of the word holding sign and exponent

/** 2^k for -1022 ≤ k ≤ 1023, built from the exponent bits (exact). */
function powerOfTwo(k: number): number {
  u32[HIGH] = (k + 1023) << 20;
  u32[1 - HIGH] = 0;
  return f64[0] as number;
}

/** x × 2^k for k ≥ -1022, exact unless the result overflows (k may be 1024 for exp near its limit). */
function scale(x: number, k: number): number {
  if (k > 1023) return x * powerOfTwo(1023) * powerOfTwo(k - 1023);
  return x * powerOfTwo(k);
}

// ---- constants -----------------------------------------------------------------------------------
// ln 2 to ~160 bits as three doubles.
const LN2_H = 0.6931471805599453;
const LN2_M = 2.3190468138462996e-17;
const LN2_L = 5.707708438416212e-34;

/** 2·atanh(s) = log((1+s)/(1-s)) for a double-double s, summing `terms` odd powers. */
function twoAtanh(sh: number, sl: number, terms: number): void {
  ddMul(sh, sl, sh, sl);
  const s2h = RH;
  const s2l = RL;
  // Horner on 1 + s²/3 + s⁴/5 + …
  ddDiv(1, 0, 2 * terms + 1, 0);
  let ph = RH;
  let pl = RL;
  for (let i = terms - 1; i >= 0; i--) {
    ddMul(ph, pl, s2h, s2l);
    const th = RH;
    const tl = RL;
    ddDiv(1, 0, 2 * i + 1, 0);
    ddAdd(th, tl, RH, RL);
    ph = RH;
    pl = RL;
  }
  ddMul(ph, pl, sh, sl);
  RH *= 2;
  RL *= 2;
}

// log(j/64) for the table points j/64 ∈ [45/64, 91/64], computed once with a long series.
const LOG_TABLE_FIRST = 45;
const LOG_TABLE_H = new Float64Array(91 - LOG_TABLE_FIRST + 1);
const LOG_TABLE_L = new Float64Array(91 - LOG_TABLE_FIRST + 1);
for (let j = LOG_TABLE_FIRST; j <= 91; j++) {
  // log(c) = 2 atanh((c-1)/(c+1)); |s| ≤ 0.18, 40 terms reach far below 2^-110.
  const c = j / 64;
  ddDiv(c - 1, 0, c + 1, 0); // c ± 1 are exact for these c
  twoAtanh(RH, RL, 40);
  LOG_TABLE_H[j - LOG_TABLE_FIRST] = RH;
  LOG_TABLE_L[j - LOG_TABLE_FIRST] = RL;
}

// 2/3 and 1/6 as double-doubles, for the leading series terms at run time.
ddDiv(2, 0, 3, 0);
const TWO_THIRDS_H = RH;
const TWO_THIRDS_L = RL;
ddDiv(1, 0, 6, 0);
const SIXTH_H = RH;
const SIXTH_L = RL;

// 2^(j/64) for j = 0..63 as double-doubles: exp(j·ln2/64) by a long Taylor series at load time
// (40 terms for |r| < 0.7 leave an error far below 2^-110).
const SETUP_TERMS = 40;
const INV_FACTORIAL_H = new Float64Array(SETUP_TERMS + 1);
const INV_FACTORIAL_L = new Float64Array(SETUP_TERMS + 1);
INV_FACTORIAL_H[0] = 1;
for (let n = 1; n <= SETUP_TERMS; n++) {
  ddDiv(INV_FACTORIAL_H[n - 1] as number, INV_FACTORIAL_L[n - 1] as number, n, 0);
  INV_FACTORIAL_H[n] = RH;
  INV_FACTORIAL_L[n] = RL;
}

/** exp(r) for a double-double r by the Taylor series above (setup only). */
function expSeries(rh: number, rl: number): void {
  let ph = INV_FACTORIAL_H[SETUP_TERMS] as number;
  let pl = INV_FACTORIAL_L[SETUP_TERMS] as number;
  for (let n = SETUP_TERMS - 1; n >= 0; n--) {
    ddMul(ph, pl, rh, rl);
    ddAdd(RH, RL, INV_FACTORIAL_H[n] as number, INV_FACTORIAL_L[n] as number);
    ph = RH;
    pl = RL;
  }
}
const EXP2_TABLE_H = new Float64Array(64);
const EXP2_TABLE_L = new Float64Array(64);
for (let j = 0; j < 64; j++) {
  // j·ln2/64 as a double-double: both products kept exact with twoProd.
  twoProd(j, LN2_H / 64);
  const ah = RH;
  const al = RL;
  twoProd(j, LN2_M / 64);
  const bh = RH;
  const bl = RL + (j * LN2_L) / 64;
  ddAdd(ah, al, bh, bl);
  expSeries(RH, RL);
  EXP2_TABLE_H[j] = RH;
  EXP2_TABLE_L[j] = RL;
}

const SQRT2 = Math.SQRT2;
const MIN_NORMAL = 2.2250738585072014e-308;

/** CPython `math.log(x)` on glibc: the correctly rounded natural logarithm. */
export function pyLog(x: number): number {
  if (!(x > 0) || x === Infinity) return Math.log(x); // 0, negatives, NaN, +Infinity
  if (x === 1) return 0;
  let m = x;
  let k = 0;
  if (m < MIN_NORMAL) {
    m *= 18014398509481984; // 2^54
    k = -54;
  }
  // m = 2^e · f with f ∈ [1, 2), then f moved into [√½, √2).
  f64[0] = m;
  const high = u32[HIGH] as number;
  k += ((high >>> 20) & 0x7ff) - 1023;
  u32[HIGH] = (high & 0x000fffff) | 0x3ff00000;
  m = f64[0];
  if (m > SQRT2) {
    m /= 2;
    k += 1;
  }
  // log(m) = log(c) + 2 atanh((m - c)/(m + c)) with c = j/64 the nearest table point: |s| < 0.006.
  const j = Math.round(m * 64);
  const c = j / 64;
  const num = m - c; // exact (Sterbenz)
  const den = m + c;
  const v = den - m;
  const denLow = m - (den - v) + (c - v);
  // s = num/den as a double-double: the quotient plus the correctly signed remainder over den.
  const sh = num / den;
  twoProd(sh, den);
  const sl = (num - RH - RL - sh * denLow) / den;
  // 2·atanh(s) = 2s + (2/3)s³ + (2/5)s⁵ + …: the first two terms in double-double, the rest (below
  // 2^-35 of the result) in double.
  twoProd(sh, sh);
  const qh = RH;
  const ql = RL + 2 * sh * sl;
  twoProd(sh, qh);
  const ch = RH;
  const cl = RL + (sh * ql + sl * qh);
  ddMul(ch, cl, TWO_THIRDS_H, TWO_THIRDS_L);
  const th = RH;
  const tl = RL;
  const rest = 2 * sh * qh * qh * (1 / 5 + qh * (1 / 7 + qh * (1 / 9 + qh * (1 / 11))));
  ddAdd(2 * sh, 2 * sl, th, tl + rest);
  ddAdd(LOG_TABLE_H[j - LOG_TABLE_FIRST] as number, LOG_TABLE_L[j - LOG_TABLE_FIRST] as number, RH, RL);
  if (k === 0) return RH;
  const lh = RH;
  const ll = RL;
  // k·ln2 with k·LN2_H exact via twoProd, plus the lower parts.
  twoProd(k, LN2_H);
  const kh = RH;
  const kl = RL;
  twoProd(k, LN2_M);
  ddAdd(kh, kl, RH, RL + k * LN2_L);
  ddAdd(RH, RL, lh, ll);
  return RH;
}

const EXP_OVERFLOW = 709.782712893384;
const EXP_UNDERFLOW = -745.1332191019412;
const INV_LN2_64 = 64 / LN2_H;

/** CPython `math.exp(x)` on glibc: the correctly rounded exponential. */
export function pyExp(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x > EXP_OVERFLOW) return Infinity;
  if (x < EXP_UNDERFLOW) return 0;
  if (x === 0) return 1;
  // x = N·ln2/64 + r with |r| ≤ ln2/128; N = 64k + j.
  const n = Math.round(x * INV_LN2_64);
  const k = Math.floor(n / 64);
  const j = n - 64 * k;
  // r = x - n·ln2/64 using three parts of ln2/64; n·(LN2_H/64) is exact through twoProd.
  twoProd(n, LN2_H / 64);
  const ph = RH;
  const pl = RL;
  ddAdd(x, 0, -ph, -pl);
  const rh = RH;
  const rl = RL;
  twoProd(n, LN2_M / 64);
  const mh = RH;
  const ml = RL;
  ddAdd(rh, rl, -mh, -ml - (n * LN2_L) / 64);
  // exp(r) = 1 + r + r²/2 + r³/6 + …: the first terms in double-double, the rest (below 2^-33) in double.
  const rh2 = RH;
  const rl2 = RL;
  twoProd(rh2, rh2);
  const qh = RH;
  const ql = RL + 2 * rh2 * rl2;
  twoProd(qh, rh2);
  const ch = RH;
  const cl = RL + (qh * rl2 + ql * rh2);
  ddMul(ch, cl, SIXTH_H, SIXTH_L);
  const th = RH;
  const tl = RL;
  const rest =
    qh * qh * (1 / 24 + rh2 * (1 / 120 + rh2 * (1 / 720 + rh2 * (1 / 5040 + rh2 * (1 / 40320 + rh2 * (1 / 362880))))));
  ddAdd(qh / 2, ql / 2, th, tl + rest);
  ddAdd(rh2, rl2, RH, RL);
  ddAdd(1, 0, RH, RL);
  ddMul(EXP2_TABLE_H[j] as number, EXP2_TABLE_L[j] as number, RH, RL);
  if (k >= -1021) return scale(RH, k);
  // Possibly subnormal: round (RH + RL)·2^k to the grid of multiples of 2^-1074 directly, half to even,
  // so that the double-double is rounded only once.
  const unit = powerOfTwo(k + 1074);
  const wh = RH * unit;
  const wl = RL * unit;
  let units = Math.floor(wh);
  const fraction = wh - units + wl;
  if (fraction > 0.5 || (fraction === 0.5 && units % 2 === 1)) units += 1;
  return units * 5e-324;
}
