/**
 * The learned model's second opinion on the rules (`semantic.learnedVeto` in `ontology/red-flags.json`,
 * `src/clinical/learned-second-opinion.ts`), chosen on first looks: each development part written since
 * the learned model exists is read as the rules and the model were at the commit that added it (a
 * temporary git worktree of that commit, `bench/red-flags-first-look.ts`), before any rule was written
 * on it or the model trained on it. Per cut-off (a power of ten): the rules' readings set aside where
 * the model of the time gave the flag less, and what rules + learned then catch and raise, pooled. The
 * chosen cut-off is the largest that costs no first-look catch. Needs the repository's history; the
 * held-back test parts are never read.
 *
 *   npx tsx bench/red-flags-veto.ts            # the table and the cut-off chosen
 *   npx tsx bench/red-flags-veto.ts --json     # the table on stderr, its figures as JSON on stdout
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { scriptArgs } from "./script-args.ts";
import { LONGEST_RUN } from "../src/clinical/red-flags-learned.ts";

const { values } = scriptArgs({ options: { json: { type: "boolean", default: false } } });
const ROOT = resolve(import.meta.dirname, "..");
const CUT_OFFS = [0, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1];
/** The first part written after the learned model: `development-v21.json`. */
const FIRST_PART = 21;
const print = (line: string): void => void (values.json ? console.error(line) : console.log(line));
const git = (...args: string[]): string =>
  execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

interface FirstLook {
  readonly flag: string;
  readonly mustFire: boolean;
  readonly turns: number;
  readonly byRules: readonly string[];
  readonly byLearned: readonly string[];
  readonly highest: Readonly<Record<string, number>>;
}

/** The development parts since the learned model, with the commit that added each. */
function partsAndCommits(): { part: string; commit: string }[] {
  return readdirSync(join(ROOT, "data", "red-flag-corpus"))
    .map((name) => /^development-v(\d+)\.json$/.exec(name))
    .filter((match): match is RegExpExecArray => match !== null && Number(match[1]) >= FIRST_PART)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((match) => {
      const added = git("log", "--diff-filter=A", "--format=%H", "--", `data/red-flag-corpus/${match[0]}`);
      return { part: match[0].replace(/\.json$/, ""), commit: added.split("\n").at(-1)! };
    });
}

/** One part's first look, read in a temporary worktree of the commit that added it. */
function firstLookOf(part: string, commit: string): FirstLook[] {
  const worktree = mkdtempSync(join(tmpdir(), `first-look-${part}-`));
  rmSync(worktree, { recursive: true });
  git("worktree", "add", "--detach", worktree, commit);
  try {
    symlinkSync(join(ROOT, "node_modules"), join(worktree, "node_modules"));
    const reader = join(ROOT, "bench", "red-flags-first-look.ts");
    const tsx = join(ROOT, "node_modules", ".bin", "tsx");
    const out = execFileSync(tsx, [reader, "--root", worktree, "--part", part], {
      cwd: worktree,
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    return out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as FirstLook);
  } finally {
    git("worktree", "remove", "--force", worktree);
  }
}

/** Rules + learned on the first looks, the rules' readings set aside below a cut-off. */
function tally(looks: readonly FirstLook[], cutOff: number) {
  const counts = { caught: 0, fires: 0, falseAlarms: 0, nearMisses: 0 };
  for (const look of looks) {
    if (look.turns > LONGEST_RUN) throw new Error("a statement longer than the runs the model reads");
    const kept = look.byRules.filter((flag) => !(flag in look.highest) || look.highest[flag]! >= cutOff);
    const fired = new Set([...kept, ...look.byLearned]);
    if (look.mustFire) {
      counts.fires += 1;
      if (fired.has(look.flag)) counts.caught += 1;
    } else {
      counts.nearMisses += 1;
      if (fired.size > 0) counts.falseAlarms += 1;
    }
  }
  return counts;
}

const looks = partsAndCommits().flatMap(({ part, commit }) => {
  const read = firstLookOf(part, commit);
  print(`${part}: first look at ${commit.slice(0, 7)}, ${read.length} statements`);
  return read.map((look) => (look.flag === "everyday" ? { ...look, mustFire: false } : look));
});
const percent = (n: number, of: number): string => `${n}/${of} (${((100 * n) / of).toFixed(1)} %)`;
const rows = CUT_OFFS.map((cutOff) => ({ cutOff, ...tally(looks, cutOff) }));
for (const row of rows)
  print(
    `below ${row.cutOff}: caught ${percent(row.caught, row.fires)}, false alarms ${percent(row.falseAlarms, row.nearMisses)}`,
  );
const chosen = rows.filter((row) => row.caught === rows[0]!.caught).at(-1)!;
print(`chosen: ${chosen.cutOff} (the largest that costs no first-look catch)`);
if (values.json) console.log(JSON.stringify({ rows, chosen }, null, 2));
