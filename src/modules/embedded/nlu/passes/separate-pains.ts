import type { TurnRecord } from "../turn-record.ts";

/**
 * Pass "separate pains": "My shoulder hurts." … "My knee hurts as well." A generic pain at sites that
 * share none with the pain already on record is a second pain, not a move of the first: it becomes its
 * own entry, named by its site ("knee pain"), so the state tracker (which keys entries by value) keeps
 * the first pain and its site. A pain at a site that makes it specific (the head: headache) is
 * already its own concept; an answer to "where is the pain?" places the pain asked about.
 */

/** A site as said in a concept name: UMLS body-structure names lose their anatomy wording ("structure of calf of leg" → "calf"). */
function siteWord(site: string): string {
  return site.replace(/^(?:entire |set of )?structure of (?:the )?(.+?)(?: of .+)?$/, "$1");
}

/** Renames each second pain of the turn by its site. */
export function separatePains(turn: TurnRecord): void {
  const { context, entries, lexicon } = turn;
  const earlier = context.painSites;
  if (earlier.length === 0 || context.question.attribute === "location") return;
  const specific = lexicon.specificByLocation.get("pain");
  for (const { entry } of turn.found) {
    const sites = entry.attributes.location;
    if (
      entry.base !== "symptom" ||
      entry.status !== "positive" ||
      entry.attributes.value !== "pain" ||
      !Array.isArray(sites) ||
      sites.length === 0
    )
      continue;
    if (sites.some((site) => earlier.includes(site) || specific?.[site] !== undefined)) continue;
    entries.rename(entry, `${siteWord(sites[0]!)} pain`);
  }
}
