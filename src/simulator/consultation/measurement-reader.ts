import { porterStem } from "../../metrics/porter-stemmer.ts";
import { loadOntologyFile, type OntologyFile } from "../../ontology/ontology-files.ts";
import type { CaseMeasurement } from "./consult-case.ts";

/**
 * The measurement role of AgentClinic's consultations, offline: the doctor requests an examination or
 * a test in words ("REQUEST TEST: Chest_X-Ray", "CBC", "vital signs"), and the reader answers with the
 * case's recorded findings whose field names best match the request (abbreviations read as full names
 * on both sides, by `ontology/test-names.json`), as `RESULTS: …`; a request the case has no record of
 * is answered `NORMAL READINGS`, as AgentClinic's measurement agent is told to. It never looks at a
 * finding's value to choose it.
 */

type TestNames = OntologyFile<"test-names.json">;

/** What the reader answered: its words and the ids of the findings it gave. */
export interface MeasurementReply {
  readonly text: string;
  readonly revealed: readonly string[];
}

/** AgentClinic's answer for a request the case holds no result for. */
export const NORMAL_READINGS = "NORMAL READINGS";

/** Words of a request or a field name: letters and digits (underscores, hyphens and slashes split them). */
const WORD = /[a-z0-9]+/g;

/** Reads requests against a case's findings; compiled once from the rules. */
export class MeasurementReader {
  private readonly ignored: ReadonlySet<string>;
  private readonly expansions: ReadonlyMap<string, readonly string[]>;

  constructor(rules: TestNames = loadOntologyFile("test-names.json")) {
    this.ignored = new Set(rules.generic_words.map(porterStem));
    this.expansions = new Map(
      rules.abbreviations.map(({ short, long }) => [short, long.toLowerCase().match(WORD) ?? []]),
    );
  }

  /** The salient stems of a text: abbreviations expanded, generic words dropped. */
  stems(text: string): Set<string> {
    const words = (
      text
        .toLowerCase()
        .replace(/x[- ]?ray/g, "x ray")
        .match(WORD) ?? []
    ).flatMap((word) => this.expansions.get(word) ?? [word]);
    return new Set(words.map(porterStem).filter((stem) => !this.ignored.has(stem)));
  }

  /** The findings a request asks for: those sharing the most salient words with it (at least one). */
  select(request: string, measurements: readonly CaseMeasurement[]): CaseMeasurement[] {
    const asked = this.stems(request);
    const scored = measurements.map((measurement) => {
      const named = this.stems(measurement.path.join(" "));
      return { measurement, score: [...asked].filter((stem) => named.has(stem)).length };
    });
    const best = Math.max(0, ...scored.map(({ score }) => score));
    return best === 0 ? [] : scored.filter(({ score }) => score === best).map(({ measurement }) => measurement);
  }

  /** The reader's answer to a request. */
  answer(request: string, measurements: readonly CaseMeasurement[]): MeasurementReply {
    const found = this.select(request, measurements);
    if (found.length === 0) return { text: NORMAL_READINGS, revealed: [] };
    const lines = found.map((measurement) => `${fieldName(measurement)}: ${measurement.value}`);
    return { text: `RESULTS: ${lines.join("; ")}`, revealed: found.map((measurement) => measurement.id) };
  }
}

/** A finding's name as it is read out: its path below the section, underscores as spaces. */
export function fieldName(measurement: CaseMeasurement): string {
  return measurement.path
    .slice(1)
    .map((name) => name.replace(/_/g, " "))
    .join(" > ");
}

let shared: MeasurementReader | undefined;

/** The reader over the bundled rules, compiled once. */
export function measurementReader(): MeasurementReader {
  shared ??= new MeasurementReader();
  return shared;
}
