import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A stand-in for a checkout of dair-iitd/MediTOD: a `src/prompting/commons.py` with three made-up
 * task descriptions of the same shape as the real ones (module-level triple-quoted strings, a fenced
 * block inside, escapes), and a `.git` whose HEAD names a branch. None of the official text is here.
 */

const COMMONS = `# Made-up stand-in, written by the tests.
task_description = """Stand-in NLU instructions.
\`\`\`
intents = [{"name": "inform"}]
\`\`\`
Answer with a list.\\tTabbed \\"quoted\\" \\\\ backslash, continued \\
line."""


pol_task_description = r'''Stand-in policy instructions with a raw \\n that stays.'''

nlg_task_description = """Stand-in NLG instructions: "reply as the doctor"."""
`;

export const STAND_IN = {
  commit: "0123456789abcdef0123456789abcdef01234567",
  expected: {
    nlu: 'Stand-in NLU instructions.\n```\nintents = [{"name": "inform"}]\n```\nAnswer with a list.\tTabbed "quoted" \\ backslash, continued line.',
    policy: "Stand-in policy instructions with a raw \\n that stays.",
    nlg: 'Stand-in NLG instructions: "reply as the doctor".',
  },
} as const;

/** Writes the stand-in checkout into `dir` and returns `dir`. */
export function writeStandInCheckout(dir: string): string {
  mkdirSync(join(dir, "src", "prompting"), { recursive: true });
  writeFileSync(join(dir, "src", "prompting", "commons.py"), COMMONS);
  mkdirSync(join(dir, ".git", "refs", "heads"), { recursive: true });
  writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(dir, ".git", "refs", "heads", "main"), `${STAND_IN.commit}\n`);
  return dir;
}
