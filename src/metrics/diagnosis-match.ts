import { loadOntologyFile, type OntologyFile } from "../ontology/ontology-files.ts";
import { porterStem } from "./porter-stemmer.ts";

/**
 * The offline judge of a free-text diagnosis against a case's correct one, by the rules of
 * `ontology/diagnosis-synonyms.json`: both are normalised (case, accents, British spellings,
 * possessives, punctuation and hyphens, inflection and word order), a leading hedge and an answer's
 * label are dropped, only the first of several named diagnoses is judged, a parenthesis is read both
 * as part of the name and on its own, a course or severity qualifier only one side has is ignored, and
 * each side is read as the concept of the synonym group it names. Deterministic and offline; an LLM
 * judge (`src/backends/llm-diagnosis-judge.ts`) is the other, labelled, reading.
 */

type Rules = OntologyFile<"diagnosis-synonyms.json">;

/** An answer's label, e.g. `DIAGNOSIS: `, `Diagnosis ready: `, `Answer: `. */
const LABEL = /^\s*(?:final\s+)?(?:diagnosis(?:\s+ready)?|answer)\s*:\s*/i;

/** A parenthesis in a name, e.g. ` (GERD)` in `Gastroesophageal reflux disease (GERD)`. */
const PARENTHESIS = /\s*\(([^)]*)\)\s*/g;

/** Marks that accents leave after Unicode decomposition (é → e + ◌́). */
const COMBINING_MARKS = /[\u0300-\u036f]/g;

/** Letters and digits, lower case; everything else separates words. */
const NOT_A_WORD = /[^a-z0-9]+/g;

/** Text lower-cased with accents, possessives, British digraphs and punctuation removed: `Crohn's Disease.` → `crohn disease`. */
function plain(text: string): string {
  return text
    .normalize("NFKD")
    .replace(COMBINING_MARKS, "")
    .toLowerCase()
    .replace(/['’]s\b/g, "")
    .replace(/ae/g, "e")
    .replace(/oe/g, "e")
    .replace(NOT_A_WORD, " ")
    .trim();
}

/** A phrase as a pattern of whole words at the start of a plain text. */
const leading = (phrase: string) => new RegExp(`^${plain(phrase).replace(/ /g, "\\s+")}\\b\\s*`);
/** A phrase as a pattern of whole words anywhere in a plain text. */
const anywhere = (phrase: string) => new RegExp(`\\b${plain(phrase).replace(/ /g, "\\s+")}\\b`, "g");

/** The compiled rules: see the module comment. */
export class DiagnosisMatcher {
  private readonly hedges: readonly RegExp[];
  private readonly qualifiers: readonly RegExp[];
  private readonly separators: readonly string[];
  private readonly concepts: ReadonlyMap<string, string>;

  constructor(rules: Rules = loadOntologyFile("diagnosis-synonyms.json")) {
    // Longest first, so that "the most likely diagnosis is" goes before "diagnosis".
    const longestFirst = (phrases: readonly string[]) => [...phrases].sort((a, b) => b.length - a.length);
    this.hedges = longestFirst([...rules.hedges, "a", "an", "the"]).map(leading);
    this.qualifiers = longestFirst(rules.qualifiers).map(anywhere);
    this.separators = rules.separators;
    this.concepts = new Map(
      rules.synonyms.flatMap(({ name, also }) =>
        [name, ...also].map((alias) => [this.key(plain(alias)), name] as const),
      ),
    );
  }

  /** A plain name as words that compare whatever their order and inflection. */
  private key(name: string): string {
    return name.split(" ").filter(Boolean).map(porterStem).sort().join(" ");
  }

  /** The first diagnosis a text names, its label and hedges removed. */
  private first(text: string): string {
    let rest = text.replace(LABEL, "");
    for (const separator of this.separators) rest = rest.split(separator)[0]!;
    return rest;
  }

  /** The names a diagnosis can be read as: with and without its parenthesis, and the parenthesis alone. */
  private readings(text: string): string[] {
    const first = this.first(text);
    const inside = [...first.matchAll(PARENTHESIS)].map((match) => match[1]!);
    const names = [first, first.replace(PARENTHESIS, " "), ...inside].map((name) => this.unhedged(plain(name)));
    return [...new Set(names.filter((name) => name !== ""))];
  }

  /** A plain name without the hedges it starts with. */
  private unhedged(name: string): string {
    let rest = name;
    for (let changed = true; changed;) {
      changed = false;
      for (const hedge of this.hedges) {
        const shorter = rest.replace(hedge, "");
        if (shorter !== rest) [rest, changed] = [shorter, true];
      }
    }
    return rest.trim();
  }

  /** A name as its concept: the synonym group's name when it names one, else its own words. */
  private concept(name: string): string {
    const key = this.key(name);
    const named = this.concepts.get(key);
    return named !== undefined ? this.key(plain(named)) : key;
  }

  /** A name without its course and severity qualifiers. */
  private unqualified(name: string): string {
    return this.qualifiers
      .reduce((rest, qualifier) => rest.replace(qualifier, " "), name)
      .replace(/\s+/g, " ")
      .trim();
  }

  /** Whether a predicted diagnosis names the correct one. */
  matches(correct: string, predicted: string): boolean {
    const gold = this.readings(correct);
    const said = this.readings(predicted);
    return gold.some((g) =>
      said.some((p) => {
        const [full, bare] = [this.concept(g), this.concept(this.unqualified(g))];
        const [saidFull, saidBare] = [this.concept(p), this.concept(this.unqualified(p))];
        return full === saidFull || bare === saidFull || full === saidBare;
      }),
    );
  }
}

let shared: DiagnosisMatcher | undefined;

/** The judge over the bundled rules, compiled once. */
export function diagnosisMatcher(): DiagnosisMatcher {
  shared ??= new DiagnosisMatcher();
  return shared;
}
