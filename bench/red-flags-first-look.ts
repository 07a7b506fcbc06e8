/**
 * One development part's first look, read in a checkout of the commit that added it (`--root`): each
 * statement with the flags the rules fired then, and the learned model's highest probability of each
 * flag it knew (over the runs of turns the chat reads; `fired`: over its threshold and not set aside),
 * as JSON lines on stdout. Run by `bench/red-flags-veto.ts`; it uses only what every checkout since the
 * learned model has (the rules' `evaluateSaid`, the model's `matchesOfLastTurn`).
 *
 *   npx tsx bench/red-flags-first-look.ts --root /tmp/first-look-v26 --part development-v26
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { scriptArgs } from "./script-args.ts";

type RulesModule = typeof import("../src/clinical/red-flags.ts");
type LearnedModule = typeof import("../src/clinical/red-flags-learned.ts");
type Statement = string | string[];

const { values } = scriptArgs({ options: { root: { type: "string" }, part: { type: "string" } } });
if (!values.root || !values.part) throw new Error("give --root CHECKOUT and --part NAME");
const root = values.root;
const { loadRedFlags } = (await import(join(root, "src/clinical/red-flags.ts"))) as RulesModule;
const { loadLearnedRedFlags } = (await import(join(root, "src/clinical/red-flags-learned.ts"))) as LearnedModule;
const rules = loadRedFlags();
const model = await loadLearnedRedFlags();
const threshold = model.model.header.threshold;
/** Whether a flag lacks what it needs said; checkouts from before `learnedNeeds` had no such needs. */
const needsUnmet = (flag: string, heard: ReturnType<typeof rules.signs.readAll>): boolean =>
  typeof (rules as Partial<typeof rules>).learnedNeedsUnmet === "function" && rules.learnedNeedsUnmet(flag, heard);

/** The first look at one statement. */
function firstLook(turns: readonly string[]) {
  const highest: Record<string, number> = {};
  const fired = new Set<string>();
  for (let end = 1; end <= turns.length; end++) {
    const heard = rules.signs.readAll(turns.slice(0, end));
    for (const match of model.matchesOfLastTurn(turns.slice(0, end), 0)) {
      highest[match.flag] = Math.max(highest[match.flag] ?? 0, match.probability);
      const setAside = rules.learnedSetAside(match.flag, match.text) || needsUnmet(match.flag, heard);
      if (match.probability >= threshold && !setAside) fired.add(match.flag);
    }
  }
  const byRules = rules.evaluateSaid(turns).map((flag) => flag.id);
  return { byRules, byLearned: [...fired], highest };
}

const part = JSON.parse(readFileSync(join(root, "data", "red-flag-corpus", `${values.part}.json`), "utf8")) as {
  flags: Record<string, { fires: Statement[]; nearMisses: Statement[] }>;
};
for (const [flag, { fires, nearMisses }] of Object.entries(part.flags))
  for (const [statement, mustFire] of [
    ...fires.map((s) => [s, true] as const),
    ...nearMisses.map((s) => [s, false] as const),
  ]) {
    const turns = typeof statement === "string" ? [statement] : statement;
    console.log(JSON.stringify({ flag, mustFire, turns: turns.length, ...firstLook(turns) }));
  }
