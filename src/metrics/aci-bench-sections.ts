/**
 * ACI-Bench's division of a visit note, as its official scorer (`evaluation/evaluate_fullnote.py`)
 * gets it from the section tagger of `baselines/sectiontagger.py`: the note is cut into four
 * divisions — subjective, objective_exam, objective_results, assessment_and_plan — at the lines that
 * start a known section header, and each division is scored on its own.
 *
 * The steps, as the official code takes them:
 * 1. Every line (the note split on `"\n"`) is tried against the subsection headers in a fixed order
 *    (cc, hpi, ros, other_histories, pe, vitals, findings, assessment, plan, ap), then against
 *    `IMPRESSION`; the first that matches names the line. A header matches case-insensitively after
 *    leading whitespace, either as the start of the line (`CHIEF COMPLAINT`, `results :`, `hpi` — so
 *    "Results of the MRI…" starts a results section), or, for a header written with a colon, without
 *    its colon as the whole line (`cc`, `a`, `p`). `IMPRESSION` alone is case-sensitive and counts as
 *    assessment and plan. `sectiontagger.py` defines all of this twice; Python keeps the second
 *    definition, the one with `IMPRESSION`, and that is the one implemented here.
 * 2. A section runs from its header's line to the next header's line. Text before the first header
 *    is subjective.
 * 3. Only the FIRST section of each division is kept; the kept ones, in the order they appear, each
 *    run to the start of the next kept one, and the last to the end of the note — so text of a later
 *    section of another division is scored with whichever kept division precedes it.
 * 4. A division's text has its line breaks written as `__lf1__` (rouge_score then reads it as the
 *    token `lf1`), and a division a note lacks is scored as `#####EMPTY#####` — which rouge_score reads
 *    as the one token `empty`, so a division both notes lack scores 1 and one only one of them lacks
 *    scores 0 — or, when no note of the set has that division, as the empty string (0 either way).
 */
/** The four divisions the official scorer scores beside the full note, in its order. */
export const ACI_DIVISIONS = ["subjective", "objective_exam", "objective_results", "assessment_and_plan"] as const;
export type AciDivision = (typeof ACI_DIVISIONS)[number];

/** What a division the note lacks is scored as, when another note of the set has it (pandas' `fillna`). */
export const MISSING_DIVISION = "#####EMPTY#####";

/** How the official scorer writes a line break inside a division's text. */
export const LINE_BREAK_MARK = "__lf1__";

/**
 * The tagger's subsection headers, each with its division, in the order a line is tried against them.
 * Within a subsection the order does not change which lines match; across subsections it decides which
 * subsection names a line that several match.
 */
const SUBSECTION_HEADERS: ReadonlyArray<{ readonly division: AciDivision; readonly headers: readonly string[] }> = [
  { division: "subjective", headers: ["cc :", "chief complaint :", "reason for visit :", "CHIEF COMPLAINT"] },
  {
    division: "subjective",
    headers: [
      "history :",
      "history of present illness :",
      "history of present illness",
      "hpi :",
      "hpi",
      "hpi notes :",
      "interval history :",
      "interval hx :",
      "subjective :",
      "HISTORY OF PRESENT ILLNESS",
    ],
  },
  { division: "subjective", headers: ["ros :", "review of system :", "review of systems :"] },
  { division: "subjective", headers: ["SOCIAL HISTORY", "PAST HISTORY"] },
  {
    division: "objective_exam",
    headers: [
      "physical exam :",
      "physical examination :",
      "pe :",
      "physical findings :",
      "examination :",
      "exam :",
      "PHYSICAL EXAMINATION",
      "PHYSICAL EXAM",
    ],
  },
  { division: "objective_exam", headers: ["VITALS REVIEWED"] },
  { division: "objective_results", headers: ["results :", "findings :", "RESULTS"] },
  { division: "assessment_and_plan", headers: ["assessment :", "a:"] },
  {
    division: "assessment_and_plan",
    headers: ["plan :", "plan of care :", "p:", "medical decision-making plan :", "summary plan"],
  },
  {
    division: "assessment_and_plan",
    headers: [
      "ap :",
      "a / p :",
      "assessment and plan :",
      "assessment & plan :",
      "disposition / plan :",
      "ASSESSMENT AND PLAN",
    ],
  },
];

/** Python's `\s` for `str` patterns, as a character class (JavaScript's `\s` differs: it adds U+FEFF and lacks U+001C–U+001F and U+0085). */
const PY_SPACE_CLASS =
  "[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";

/** Letters that CPython 3.11's `re.IGNORECASE` matches beyond their two ASCII cases. */
const EXTRA_CASES: Readonly<Record<string, string>> = { i: "\u0130\u0131", k: "\u212a", s: "\u017f" };

/** One header character as Python's case-insensitive pattern matches it: `a` → `[aA]`, `i` → `[iIİı]`, `:` → `:`. */
function caselessCharacter(character: string): string {
  const lower = character.toLowerCase();
  if (lower >= "a" && lower <= "z" && lower.length === 1)
    return `[${lower}${lower.toUpperCase()}${EXTRA_CASES[lower] ?? ""}]`;
  return character.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}

/** A header as the tagger matches it: its words case-insensitively, any whitespace (or none) where it has a space. */
function headerPattern(header: string): string {
  return header
    .split(" ")
    .map((word) => [...word].map(caselessCharacter).join(""))
    .join(`${PY_SPACE_CLASS}*`);
}

/**
 * The two ways a line starts a subsection: one of its headers at the start of the line (after
 * whitespace), or a header written with a colon, without the colon, as the whole line. For cc the
 * first is `^\s*(?:cc\s*:|chief\s*complaint\s*:|…)` (each letter in both cases), so "CC: knee pain"
 * and "Chief complaint : …" match; the second is `^\s*(?:cc\s*|chief\s*complaint\s*|…)\s*$`, so a line
 * "CC" alone matches but "CCU admission" does not.
 */
function subsectionMatcher(headers: readonly string[]): (line: string) => boolean {
  const atStart = new RegExp(`^${PY_SPACE_CLASS}*(?:${headers.map(headerPattern).join("|")})`);
  const withoutColon = headers.filter((header) => header.endsWith(":")).map((header) => header.slice(0, -1));
  const wholeLine =
    withoutColon.length > 0
      ? new RegExp(`^${PY_SPACE_CLASS}*(?:${withoutColon.map(headerPattern).join("|")})${PY_SPACE_CLASS}*$`)
      : undefined;
  return (line) => atStart.test(line) || (wholeLine?.test(line) ?? false);
}

/** The tagger's IMPRESSION header: case-sensitive, after leading whitespace, e.g. "  IMPRESSION: …". */
const IMPRESSION_LINE = new RegExp(`^${PY_SPACE_CLASS}*IMPRESSION`);

/** A division and how a line that starts one of its sections is recognised. */
type LineMatcher = { readonly division: AciDivision; readonly matches: (line: string) => boolean };

let lineMatchers: readonly LineMatcher[] | undefined;

/**
 * Each subsection's matcher and division, in the tagger's order, then IMPRESSION (assessment and plan);
 * built on first use: the patterns spell every header letter in its cases, and every command that
 * loads the metrics would otherwise build them, ACI-Bench notes or not.
 */
function lineMatchersOf(): readonly LineMatcher[] {
  lineMatchers ??= [
    ...SUBSECTION_HEADERS.map(({ division, headers }) => ({ division, matches: subsectionMatcher(headers) })),
    { division: "assessment_and_plan", matches: (line: string) => IMPRESSION_LINE.test(line) },
  ];
  return lineMatchers;
}

/** The division a line starts a section of, or undefined when it is no header. */
export function headerDivision(line: string): AciDivision | undefined {
  return lineMatchersOf().find((matcher) => matcher.matches(line))?.division;
}

/** A division of a note: its name and where its text starts and ends (UTF-16 offsets into the note). */
export interface DivisionSpan {
  readonly division: AciDivision;
  readonly start: number;
  readonly end: number;
}

/** The sections of a note: each header line's division and offset, text before the first header as subjective. */
function sectionStarts(note: string): Array<{ division: AciDivision; start: number }> {
  const starts: Array<{ division: AciDivision; start: number }> = [];
  let offset = 0;
  for (const [index, line] of note.split("\n").entries()) {
    const division = headerDivision(line);
    if (division !== undefined) starts.push({ division, start: offset });
    else if (index === 0) starts.push({ division: "subjective", start: 0 });
    offset += line.length + 1;
  }
  return starts;
}

/**
 * `SectionTagger.divide_note_by_metasections`: the first section of each division, in the order they
 * appear, each running to the start of the next (the last to the end of the note). `note` has real
 * line breaks (the scorer turns `__lf1__` into them first).
 */
export function divideNote(note: string): DivisionSpan[] {
  const firsts = new Map<AciDivision, number>();
  for (const { division, start } of sectionStarts(note)) if (!firsts.has(division)) firsts.set(division, start);
  const kept = [...firsts].sort(([, left], [, right]) => left - right);
  return kept.map(([division, start], index) => ({ division, start, end: kept[index + 1]?.[1] ?? note.length }));
}

/**
 * A note's divisions as the official scorer scores them: `__lf1__` read as a line break, the note
 * divided, each division's text with its line breaks written back as `__lf1__`. Divisions the note
 * lacks are absent.
 */
export function noteDivisions(note: string): Partial<Record<AciDivision, string>> {
  const text = note.replaceAll(LINE_BREAK_MARK, "\n");
  const divisions: Partial<Record<AciDivision, string>> = {};
  for (const { division, start, end } of divideNote(text))
    divisions[division] = text.slice(start, end).replaceAll("\n", LINE_BREAK_MARK);
  return divisions;
}

/**
 * One division's texts over a set of notes, as the scorer's table column holds them: the note's
 * division, `#####EMPTY#####` where a note lacks it, or `""` for every note when none has it.
 */
export function divisionColumn(
  divided: ReadonlyArray<Partial<Record<AciDivision, string>>>,
  division: AciDivision,
): string[] {
  const anyHas = divided.some((divisions) => divisions[division] !== undefined);
  return divided.map((divisions) => divisions[division] ?? (anyHas ? MISSING_DIVISION : ""));
}
