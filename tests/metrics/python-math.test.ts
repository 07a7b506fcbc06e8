import { describe, expect, it } from "vitest";
import {
  EXP2_TABLE_H,
  EXP2_TABLE_L,
  exp2TableBySeries,
  LOG_TABLE_H,
  LOG_TABLE_L,
  logTableBySeries,
  pyExp,
  pyLog,
} from "../../src/metrics/python-math.ts";

// [x, correctly rounded log(x)] and [x, correctly rounded exp(x)]: Python `float(Decimal(x).ln())` /
// `float(Decimal(x).exp())` at 80 digits, i.e. what CPython's math.log/math.exp give on glibc. Chosen
// among random inputs where V8's Math.log / Math.exp return a neighbouring double instead.
const LOG_CASES: ReadonlyArray<readonly [number, number]> = [
  [1.3571934225741047, 0.3054189075959063],
  [0.5540625655302444, -0.5904776644413204],
  [1.585190960384819, 0.4607048798101994],
  [2.29888703044258, 0.8324251060102347],
  [1.1923334217990353, 0.17591224580421302],
  [2.274145746929577, 0.8216044860315613],
  [0.9125050350979813, -0.09156167562511817],
  [2.5631452674135216, 0.9412351244388578],
  [0.30108822327643037, -1.2003519565926994],
  [1.4512252273343087, 0.3724081840026588],
  [2.7252803504543546, 1.0025713037240112],
  [0.5898497272294257, -0.5278874741349694],
];
const EXP_CASES: ReadonlyArray<readonly [number, number]> = [
  [-14.244775695365174, 6.509873052153853e-7],
  [-2.898503307049481, 0.055105634581215014],
  [-2.9119195139903695, 0.0543712632382261],
  [3.8696153067145573, 47.92394651382207],
  [-17.074318959886753, 3.84341688236153e-8],
  [-26.946713638888845, 1.9823985035799033e-12],
  [-18.410348493864074, 1.0103858120973155e-8],
  [-19.9345515426857, 2.20056532719492e-9],
  [1.5608763476974943, 4.762993455065083],
  [-1.0781859400997007, 0.34021213138110834],
  [-8.658783978501834, 0.00017359527419252773],
  [-35.69616019428345, 3.1430739739083003e-16],
  // From the research notes: glibc 0.3457913759237496 (checked against 50 digits), V8 0.34579137592374953.
  [-1.0619196455357007, 0.3457913759237496],
];

describe("correctly rounded log and exp (CPython on glibc)", () => {
  it.each(LOG_CASES)("log(%d) = %d", (x, expected) => {
    expect(pyLog(x)).toBe(expected);
    expect(Math.log(x)).not.toBe(expected); // why Math.log is not used
  });

  it.each(EXP_CASES)("exp(%d) = %d", (x, expected) => {
    expect(pyExp(x)).toBe(expected);
    expect(Math.exp(x)).not.toBe(expected);
  });

  it("is exact where the result is exact, and follows Math semantics at the edges", () => {
    expect(pyLog(1)).toBe(0);
    expect(pyExp(0)).toBe(1);
    expect(pyLog(2.2250738585072014e-308)).toBe(-708.3964185322641); // log(sys.float_info.min)
    expect(pyLog(5e-324)).toBe(-744.4400719213812); // smallest subnormal
    expect(pyLog(0)).toBe(-Infinity);
    expect(pyLog(-1)).toBeNaN();
    expect(pyExp(-1e10)).toBe(0);
    expect(pyExp(710)).toBe(Infinity);
    expect(pyExp(NaN)).toBeNaN();
  });

  it("stays within half an ulp of Math.exp/Math.log (which are within one ulp) over many inputs", () => {
    let seed = 99;
    const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
    for (let i = 0; i < 20000; i++) {
      const x = random() * 4;
      const y = (random() - 0.5) * 100;
      const log = pyLog(x);
      const exp = pyExp(y);
      expect(Math.abs(log - Math.log(x))).toBeLessThanOrEqual(Math.abs(log) * 2.3e-16);
      expect(Math.abs(exp - Math.exp(y))).toBeLessThanOrEqual(exp * 2.3e-16);
    }
  });
});

describe("the written-out tables", () => {
  /** The bits of a table, so that a difference in the last bit (or of the sign of a zero) shows. */
  const bits = (table: Float64Array) => [...new Uint32Array(table.buffer, table.byteOffset, table.length * 2)];

  it("are the bits their long series give", () => {
    const log = logTableBySeries();
    const exp2 = exp2TableBySeries();
    expect(bits(LOG_TABLE_H)).toEqual(bits(log.high));
    expect(bits(LOG_TABLE_L)).toEqual(bits(log.low));
    expect(bits(EXP2_TABLE_H)).toEqual(bits(exp2.high));
    expect(bits(EXP2_TABLE_L)).toEqual(bits(exp2.low));
  });
  it("would show one entry off by one unit in the last place (negative control)", () => {
    const nudged = Float64Array.from(LOG_TABLE_L);
    nudged[3] = nudged[3]! + Math.abs(nudged[3]!) * Number.EPSILON;
    expect(bits(nudged)).not.toEqual(bits(logTableBySeries().low));
  });
});
