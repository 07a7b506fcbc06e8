/**
 * Where a pain spreads to, kept inside MediTOD's CMAS schema, which has no radiation attribute: as
 * qualified values of the pain's `location` ("chest", "radiating to left arm"; "not radiating" when
 * the patient says it stays put). The state stays valid CMAS, the note lists the sites as said, and
 * the benchmark's dialogues (which never ask it) are read as before. A doctor's question about it is
 * a `location` check carrying the check value `radiation`, so that it is told apart from "where is
 * the pain?" by the simulated patients and by the planner.
 */

/** The qualifier of a site a pain spreads to. Example: "radiating to left arm". */
const RADIATING_TO = "radiating to ";

/** The location value of a pain that stays where it is. */
export const NOT_RADIATING = "not radiating";

/** The check value of a `location` check that asks whether the pain spreads. */
export const RADIATION_CHECK_VALUE = "radiation";

/** The name a case's fact of where its pain spreads goes by (`symptom:chest pain#radiation`), beside `#location`. */
export const RADIATION_FACT = "radiation";

/** The check types a question asks, a `location` check about spreading read as `radiation`. */
export function askedCheckTypes(checks: ReadonlyArray<{ type?: string; values?: readonly string[] }>): string[] {
  return checks
    .filter((check) => check.type !== undefined && check.type !== "")
    .map((check) =>
      check.type === "location" && check.values?.includes(RADIATION_CHECK_VALUE) ? RADIATION_FACT : check.type!,
    );
}

/** The sites a pain spreads to, from its location values ("radiating to back" → "back"). */
export function radiationSites(locations: readonly string[]): string[] {
  return locations
    .filter((location) => location.startsWith(RADIATING_TO))
    .map((location) => location.slice(RADIATING_TO.length));
}

/** The location value of a site a pain spreads to. Example: "left arm" → "radiating to left arm". */
export function radiatingTo(site: string): string {
  return `${RADIATING_TO}${site}`;
}

/** Whether a location value says where the pain spreads (or that it does not). */
export function isRadiation(location: string): boolean {
  return location.startsWith(RADIATING_TO) || location === NOT_RADIATING;
}

/**
 * A doctor's words asking whether a pain spreads. Example: "Does the pain spread or move anywhere
 * else?", "Does it go anywhere?", "Where does the pain go?", "Any radiation?" (not "radiotherapy").
 */
export const RADIATION_QUESTION =
  /\bradiat(?:e|es|ing|ion)\b|\b(?:spread|move|go|travel|shoot)(?:s|ing)?\b[^?.]{0,25}\b(?:anywhere|elsewhere|somewhere else)\b|\bwhere does (?:it|the \w+) (?:go|spread|move|travel|shoot)\b/i;
