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

/** A table of double-doubles: high parts and low parts. */
export interface DoubleDoubleTable {
  readonly high: Float64Array;
  readonly low: Float64Array;
}

// The tables the functions below interpolate from, as double-doubles, written out: log(j/64) for the
// points j/64 ∈ [45/64, 91/64], and 2^(j/64) for j = 0..63. Computing them at load time with long
// series (`logTableBySeries`, `exp2TableBySeries`) cost about 15 ms of every start of the command;
// tests/metrics/python-math.test.ts checks that these are the series' bits.
const LOG_TABLE_FIRST = 45;
/** log(j/64), j = 45..91, high parts. */
export const LOG_TABLE_H = Float64Array.of(
  -0.3522205935893521,
  -0.33024168687057687,
  -0.3087354816496133,
  -0.2876820724517809,
  -0.26706278524904525,
  -0.24686007793152578,
  -0.22705745063534608,
  -0.2076393647782445,
  -0.18859116980755003,
  -0.16989903679539747,
  -0.15154989812720093,
  -0.13353139262452263,
  -0.1158318155251217,
  -0.09844007281325252,
  -0.0813456394539524,
  -0.06453852113757118,
  -0.048009219186360606,
  -0.0317486983145803,
  -0.015748356968139168,
  0,
  0.015504186535965254,
  0.030771658666753687,
  0.0458095360312942,
  0.06062462181643484,
  0.07522342123758753,
  0.08961215868968714,
  0.10379679368164356,
  0.11778303565638346,
  0.13157635778871926,
  0.1451820098444979,
  0.15860503017663857,
  0.17185025692665923,
  0.184922338494012,
  0.19782574332991987,
  0.21056476910734964,
  0.22314355131420976,
  0.2355660713127669,
  0.24783616390458127,
  0.25995752443692605,
  0.27193371548364176,
  0.2837681731306446,
  0.2954642128938359,
  0.3070250352949119,
  0.3184537311185346,
  0.329753286372468,
  0.3409265869705932,
  0.3519764231571782,
);
/** log(j/64), j = 45..91, low parts. */
export const LOG_TABLE_L = Float64Array.of(
  -5.723331694918242e-18,
  1.0828321637483858e-17,
  1.6199186085148108e-17,
  -2.6071606164425637e-17,
  7.328915327320168e-18,
  -1.3617433717483679e-17,
  -9.551415762738488e-18,
  -1.205324321668613e-17,
  7.432164219196927e-18,
  4.868008764439064e-19,
  -5.166959368461559e-18,
  3.664457663660085e-18,
  -4.338484369808095e-18,
  4.439009633675135e-18,
  -5.07707635593117e-18,
  6.4704866616929345e-18,
  -1.439090334729221e-18,
  -3.0382263084680858e-18,
  -1.0021578630528974e-18,
  0,
  -3.2783210228924286e-19,
  1.0431732029005968e-18,
  1.902959866474257e-18,
  2.642402593872693e-18,
  -5.9306041962932415e-18,
  -5.426812933664715e-18,
  5.477724157266589e-18,
  -1.1971685747593673e-18,
  1.1123000879729588e-17,
  8.242418783022474e-18,
  1.1257003872182592e-17,
  -6.022453821011372e-18,
  3.0236614153574033e-18,
  1.2821194372980143e-17,
  -4.249405314729895e-18,
  -9.091270597324799e-18,
  -2.3943371495187378e-18,
  -1.2432209578702523e-17,
  2.0698069389789353e-17,
  7.833196376974429e-19,
  -2.0326655811266564e-17,
  -2.1646108604059897e-17,
  -1.2319916200101964e-17,
  2.7114779367326233e-17,
  2.122020616196948e-18,
  1.746713644354475e-17,
  -1.2953893030191963e-17,
);
/** 2^(j/64), j = 0..63, high parts. */
export const EXP2_TABLE_H = Float64Array.of(
  1,
  1.0108892860517005,
  1.0218971486541166,
  1.0330248790212284,
  1.0442737824274138,
  1.0556451783605572,
  1.0671404006768237,
  1.0787607977571199,
  1.0905077326652577,
  1.102382583307841,
  1.1143867425958924,
  1.1265216186082418,
  1.1387886347566916,
  1.1511892299529827,
  1.1637248587775775,
  1.1763969916502812,
  1.189207115002721,
  1.202156731452703,
  1.215247359980469,
  1.22848053610687,
  1.241857812073484,
  1.255380757024691,
  1.2690509571917332,
  1.2828700160787783,
  1.2968395546510096,
  1.3109612115247644,
  1.3252366431597413,
  1.339667524053303,
  1.3542555469368927,
  1.3690024229745905,
  1.383909881963832,
  1.3989796725383112,
  1.4142135623730951,
  1.42961333839197,
  1.4451808069770467,
  1.460917794180647,
  1.4768261459394993,
  1.4929077282912648,
  1.5091644275934228,
  1.5255981507445384,
  1.5422108254079407,
  1.559004400237837,
  1.5759808451078865,
  1.593142151342267,
  1.6104903319492543,
  1.6280274218573478,
  1.645755478153965,
  1.6636765803267364,
  1.681792830507429,
  1.7001063537185235,
  1.718619298122478,
  1.7373338352737062,
  1.7562521603732995,
  1.7753764925265212,
  1.7947090750031072,
  1.8142521755003989,
  1.8340080864093424,
  1.8539791250833855,
  1.8741676341103,
  1.8945759815869656,
  1.9152065613971474,
  1.9360617934922943,
  1.9571441241754002,
  1.978456026387951,
);
/** 2^(j/64), j = 0..63, low parts. */
export const EXP2_TABLE_L = Float64Array.of(
  0,
  -1.5234778603368577e-17,
  5.109225028973444e-17,
  7.600838874027088e-18,
  8.551889705537965e-17,
  1.759325738772092e-18,
  -7.899853966841582e-17,
  -6.656660436056593e-17,
  -3.046782079812471e-17,
  5.2660368715706944e-17,
  1.0410278456845571e-16,
  5.165856758795457e-17,
  8.912812676025408e-17,
  3.250710218863828e-17,
  3.829204836924094e-17,
  5.554203254218079e-17,
  3.982015231465646e-17,
  6.644981499252301e-17,
  -7.712630692681488e-17,
  -1.89878163130253e-17,
  4.658027591836937e-17,
  -6.7113898212968784e-18,
  2.6679321313421876e-18,
  1.7135949182435613e-17,
  2.5382502794888315e-17,
  -7.181536135519454e-17,
  -2.8587312100388614e-17,
  8.927282594831732e-17,
  7.70094837980299e-17,
  9.593797919118849e-17,
  -6.770511658794786e-17,
  -9.614213209051323e-17,
  -9.667293313452913e-17,
  -1.2031642489053663e-17,
  -3.023758134993988e-17,
  -5.600377186075217e-17,
  -3.483994556892796e-17,
  1.419292015428403e-17,
  -1.016455327754295e-16,
  -1.1024941712342561e-16,
  7.949834809697622e-17,
  3.781207053357527e-17,
  -1.0136916471278301e-17,
  -1.0094406542311964e-16,
  2.4707192569797888e-17,
  -6.712955084707085e-17,
  -1.0125679913674774e-16,
  5.890992696713101e-17,
  8.199010020581498e-17,
  -8.0237193703977e-18,
  -1.851380418263111e-17,
  3.164389299292955e-17,
  2.9601406954488745e-17,
  6.429731796556571e-17,
  1.822745842791209e-17,
  -9.969531538920349e-17,
  3.283107224245628e-17,
  9.761887490727596e-17,
  -6.122763413004143e-17,
  3.403403535216528e-17,
  -1.0619946056195963e-16,
  1.0332385960676326e-16,
  8.960767791036667e-17,
  4.0388753109278167e-17,
);

/** log(j/64) for j = 45..91 by a long series: log(c) = 2 atanh((c-1)/(c+1)); |s| ≤ 0.18, 40 terms reach far below 2^-110. */
export function logTableBySeries(): DoubleDoubleTable {
  const high = new Float64Array(91 - LOG_TABLE_FIRST + 1);
  const low = new Float64Array(91 - LOG_TABLE_FIRST + 1);
  for (let j = LOG_TABLE_FIRST; j <= 91; j++) {
    const c = j / 64;
    ddDiv(c - 1, 0, c + 1, 0); // c ± 1 are exact for these c
    twoAtanh(RH, RL, 40);
    high[j - LOG_TABLE_FIRST] = RH;
    low[j - LOG_TABLE_FIRST] = RL;
  }
  return { high, low };
}

// 2/3 and 1/6 as double-doubles, for the leading series terms at run time.
ddDiv(2, 0, 3, 0);
const TWO_THIRDS_H = RH;
const TWO_THIRDS_L = RL;
ddDiv(1, 0, 6, 0);
const SIXTH_H = RH;
const SIXTH_L = RL;

/** Terms of the Taylor series of exp used for the table (40 terms for |r| < 0.7 leave an error far below 2^-110). */
const SETUP_TERMS = 40;

/** 1/n! for n = 0..`SETUP_TERMS` as double-doubles. */
function inverseFactorials(): DoubleDoubleTable {
  const high = new Float64Array(SETUP_TERMS + 1);
  const low = new Float64Array(SETUP_TERMS + 1);
  high[0] = 1;
  for (let n = 1; n <= SETUP_TERMS; n++) {
    ddDiv(high[n - 1] as number, low[n - 1] as number, n, 0);
    high[n] = RH;
    low[n] = RL;
  }
  return { high, low };
}

/** exp(r) for a double-double r by the Taylor series with the given 1/n! (table computation only). */
function expSeries(rh: number, rl: number, inverse: DoubleDoubleTable): void {
  let ph = inverse.high[SETUP_TERMS] as number;
  let pl = inverse.low[SETUP_TERMS] as number;
  for (let n = SETUP_TERMS - 1; n >= 0; n--) {
    ddMul(ph, pl, rh, rl);
    ddAdd(RH, RL, inverse.high[n] as number, inverse.low[n] as number);
    ph = RH;
    pl = RL;
  }
}

/** 2^(j/64) for j = 0..63 by a long series: exp(j·ln2/64) by the Taylor series of exp. */
export function exp2TableBySeries(): DoubleDoubleTable {
  const inverse = inverseFactorials();
  const high = new Float64Array(64);
  const low = new Float64Array(64);
  for (let j = 0; j < 64; j++) {
    // j·ln2/64 as a double-double: both products kept exact with twoProd.
    twoProd(j, LN2_H / 64);
    const ah = RH;
    const al = RL;
    twoProd(j, LN2_M / 64);
    const bh = RH;
    const bl = RL + (j * LN2_L) / 64;
    ddAdd(ah, al, bh, bl);
    expSeries(RH, RL, inverse);
    high[j] = RH;
    low[j] = RL;
  }
  return { high, low };
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
