import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { AnamnesisError } from "../../foundation/errors.ts";

/**
 * The official prompt text, read at run time from the user's checkout of dair-iitd/MediTOD: the three
 * module-level triple-quoted strings of `src/prompting/commons.py` (`task_description` for NLU,
 * `pol_task_description`, `nlg_task_description`), parsed as Python string literals without running
 * Python. None of that text is part of this repository.
 */

export const COMMONS_PATH = "src/prompting/commons.py";

/** The variable in commons.py holding each task's system message. */
export const TASK_DESCRIPTION_NAMES = {
  nlu: "task_description",
  policy: "pol_task_description",
  nlg: "nlg_task_description",
} as const;
export type OfficialTask = keyof typeof TASK_DESCRIPTION_NAMES;

/** The official prompt text read from a checkout of dair-iitd/MediTOD, and the commit it came from. */
export interface MeditodCheckout {
  /** Absolute path of the checkout. */
  readonly dir: string;
  /** The system message of each task, exactly as Python evaluates the literal. */
  readonly taskDescriptions: Readonly<Record<OfficialTask, string>>;
  /** The commit the checkout's git HEAD points at, when it is a git checkout. */
  readonly commit: string | null;
}

const EXPECTED = `a checkout of dair-iitd/MediTOD (git clone https://github.com/dair-iitd/MediTOD) whose ${COMMONS_PATH} defines ${Object.values(TASK_DESCRIPTION_NAMES).join(", ")} as triple-quoted strings`;

/**
 * `name = """…"""` at the start of a line, with an optional string prefix (r, u) and either quote.
 * Example: `pol_task_description = """You are …"""`. The body is matched lazily up to the first closing
 * triple quote not preceded by a backslash escape.
 */
function findAssignment(source: string, name: string): { prefix: string; body: string } | null {
  const pattern = new RegExp(`^${name}[ \\t]*=[ \\t]*([rRuU]?)("""|''')((?:\\\\[\\s\\S]|(?!\\2)[\\s\\S])*?)\\2`, "m");
  const match = pattern.exec(source);
  return match ? { prefix: match[1]!, body: match[3]! } : null;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

/**
 * One escape sequence of a Python string literal: a backslash-newline (line continuation), an octal,
 * `\xhh`, `\uhhhh`, `\Uhhhhhhhh` or a single character. Examples: `\t`, `\x41`, `\u00e9`, `\"`.
 */
const PYTHON_ESCAPE = /\\(\r\n|\n|[0-7]{1,3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[\s\S])/g;

/** Python's escape sequences in a non-raw string literal; unknown escapes stay as written, as in Python. */
export function evaluatePythonString(body: string, raw = false): string {
  if (raw) return body;
  return body.replace(PYTHON_ESCAPE, (whole, escape: string) => {
    if (escape === "\n" || escape === "\r\n") return "";
    if (escape in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[escape]!;
    if (/^[0-7]/.test(escape)) return String.fromCodePoint(parseInt(escape, 8));
    if (/^[xuU]./.test(escape)) return String.fromCodePoint(parseInt(escape.slice(1), 16));
    return whole;
  });
}

/** The commit of a git checkout's HEAD, read from `.git` without running git; null when there is none. */
export function gitHeadCommit(dir: string): string | null {
  let gitDir = join(dir, ".git");
  if (!existsSync(gitDir)) return null;
  if (statSync(gitDir).isFile()) {
    // A worktree or submodule: `.git` is a file saying `gitdir: <path>`.
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(gitDir, "utf8"));
    if (!pointer) return null;
    gitDir = resolve(dir, pointer[1]!.trim());
  }
  const head = readFileSync(join(gitDir, "HEAD"), "utf8").trim();
  if (/^[0-9a-f]{40}$/.test(head)) return head;
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  if (!ref) return null;
  const commonDir = existsSync(join(gitDir, "commondir"))
    ? resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim())
    : gitDir;
  for (const base of [gitDir, commonDir]) {
    const loose = join(base, ref);
    if (existsSync(loose)) return readFileSync(loose, "utf8").trim();
  }
  const packed = join(commonDir, "packed-refs");
  if (!existsSync(packed)) return null;
  const line = readFileSync(packed, "utf8")
    .split("\n")
    .find((entry) => entry.endsWith(` ${ref}`));
  return line ? line.slice(0, 40) : null;
}

/**
 * Reads the official prompt text from a MediTOD checkout. A missing directory, a missing commons.py or
 * a commons.py without the three strings raises one error naming what was expected.
 */
export function readMeditodCheckout(dir: string): MeditodCheckout {
  const absolute = resolve(dir);
  const commons = join(absolute, COMMONS_PATH);
  if (!existsSync(absolute))
    throw new AnamnesisError("FILE_NOT_FOUND", `MediTOD checkout not found: ${absolute} (expected ${EXPECTED})`);
  if (!existsSync(commons))
    throw new AnamnesisError(
      "FILE_NOT_FOUND",
      `${absolute} is not a MediTOD checkout: no ${COMMONS_PATH} (expected ${EXPECTED})`,
    );
  // Python reads source with universal newlines: a CRLF file's literals hold plain "\n".
  const source = readFileSync(commons, "utf8").replace(/\r\n?/g, "\n");
  const descriptions: Partial<Record<OfficialTask, string>> = {};
  for (const [task, name] of Object.entries(TASK_DESCRIPTION_NAMES) as Array<[OfficialTask, string]>) {
    const assignment = findAssignment(source, name);
    if (!assignment)
      throw new AnamnesisError(
        "INVALID_DATA",
        `${commons} does not define ${name} as a triple-quoted string (expected ${EXPECTED})`,
      );
    descriptions[task] = evaluatePythonString(assignment.body, /r/i.test(assignment.prefix));
  }
  return {
    dir: absolute,
    taskDescriptions: descriptions as Record<OfficialTask, string>,
    commit: gitHeadCommit(absolute),
  };
}
