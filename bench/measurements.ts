/**
 * Runs the measurement scripts of `bench/` and writes `docs/measurements.md` and the README's measured
 * blocks from what they print, so that no figure in the README or `docs/` is typed by hand.
 *
 *   npx tsx bench/measurements.ts [--only NAME,…] [--quick] [--list]
 *                                 [--python python3] [--python-refs DIR] [--against DIR] [--npm-test]
 *                                 [--meditod-repo DIR]
 *                                 [--out FILE] [--readme FILE]
 *
 * - Each measurement is one command, run from the package's folder as a user would type it, one after
 *   another (never two at once: they would slow each other). Its section on the page names the command,
 *   and is stamped with the date, the commit, the CPU count and model, the Node version and the load
 *   average before and after it.
 * - `--only` runs some measurements; the page keeps the other sections of the page before, each with
 *   its own stamp, and README blocks quoting a measurement that did not run are left as they were.
 * - `--quick` runs every script with small settings to show that the whole chain works. Its page and
 *   README copy say SMOKE RUN and go to `runs/` (never to `docs/measurements.md` or `README.md`).
 * - Ratios are measured side by side: `metrics-python` runs `metrics pairs` and the Python references
 *   alternately (`--python`, `--python-refs DIR` or PYTHONPATH say where they are; without them the
 *   figure is printed with the reason there is no ratio), and `--against DIR` times the bench command
 *   of another built checkout alternately with this one.
 * - Optional measurements (`llamacpp`, which needs node-llama-cpp; `official-prompt-parity`, which
 *   needs a MediTOD checkout given by `--meditod-repo DIR` or MEDITOD_REPO) are skipped, with the
 *   reason, when what they need is missing.
 *
 * Run `npm run build` first: the commands run the compiled CLI.
 */
import { scriptArgs } from "./script-args.ts";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { PACKAGE_ROOT } from "../src/foundation/package-paths.ts";
import {
  describeStamp,
  fillMeasuredBlocks,
  renderMeasurementsPage,
  type MeasurementSection,
  type MeasurementStamp,
} from "../test-support/measurements-page.ts";
import { NOTE_VISIT_SCORES, NOTE_VISIT_TIMINGS } from "./aci-bench-plan.ts";
import { CHAT_TIMINGS } from "./chat-plan.ts";
import { CONSULT_MEASUREMENTS } from "./consult-plan.ts";
import { SCORE_MEASUREMENTS, type Measurement, type PlanOptions } from "./measurement-plan.ts";
import { readmeBlocks, type MeasuredRun } from "./readme-blocks.ts";
import { RED_FLAG_MEASUREMENTS } from "./red-flags-plan.ts";
import { ENGINE_TIMINGS } from "./timing-plan.ts";

/** Every measurement, in the order of the page. */
const MEASUREMENTS: readonly Measurement[] = [
  ...SCORE_MEASUREMENTS,
  ...NOTE_VISIT_SCORES,
  ...CONSULT_MEASUREMENTS,
  ...ENGINE_TIMINGS,
  ...NOTE_VISIT_TIMINGS,
  ...CHAT_TIMINGS,
  ...RED_FLAG_MEASUREMENTS,
];

const { values } = scriptArgs({
  options: {
    only: { type: "string" },
    quick: { type: "boolean", default: false },
    list: { type: "boolean", default: false },
    python: { type: "string" },
    "python-refs": { type: "string" },
    against: { type: "string" },
    "npm-test": { type: "boolean", default: false },
    "meditod-repo": { type: "string", default: process.env.MEDITOD_REPO },
    out: { type: "string" },
    readme: { type: "string" },
  },
});
const options: PlanOptions = {
  quick: values.quick,
  python: values.python,
  pythonRefs: values["python-refs"],
  against: values.against,
  npmTest: values["npm-test"],
  meditodRepo: values["meditod-repo"],
};

/** The commit measured: HEAD, and whether the working tree differed from it. */
function commitOf(): string {
  const git = (...args: string[]) => spawnSync("git", args, { cwd: PACKAGE_ROOT, encoding: "utf8" });
  const head = git("rev-parse", "--short=12", "HEAD");
  if (head.status !== 0) throw new Error(`git rev-parse failed: ${head.stderr}`);
  const dirty = git("status", "--porcelain", "--untracked-files=no").stdout.trim() !== "";
  return `${head.stdout.trim()}${dirty ? " + uncommitted changes" : ""}`;
}

/** The machine's part of a stamp, with the load average at `before` and now. */
function stampNow(commit: string, date: string, before: number): MeasurementStamp {
  return {
    date,
    commit,
    cpuCount: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() || "unknown",
    node: process.version,
    loadAverage: { before, after: loadavg()[0]! },
    smoke: options.quick,
  };
}

/** A command as the page shows it: shell-quoted where it must be. */
function shown(argv: readonly string[]): string {
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`)).join(" ");
}

/** Runs one measurement; its progress lines pass through to this terminal (stderr). */
function run(measurement: Measurement, commit: string): { section: MeasurementSection; measured: MeasuredRun } {
  const argv = measurement.command(options);
  const date = new Date().toISOString();
  const before = loadavg()[0]!;
  process.stderr.write(`\n── ${measurement.name}: ${shown(argv)}\n`);
  const result = spawnSync(argv[0]!, argv.slice(1), {
    cwd: PACKAGE_ROOT,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const stamp = stampNow(commit, date, before);
  const accepted = [0, ...(measurement.acceptExit ?? [])];
  if (result.error || result.status === null || !accepted.includes(result.status)) {
    throw new Error(
      `${measurement.name}: ${shown(argv)} failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`,
    );
  }
  const data = measurement.json ? (JSON.parse(result.stdout) as unknown) : measurement.read?.();
  const output = { stdout: result.stdout, data };
  const command = shown(argv);
  const section = {
    name: measurement.name,
    title: measurement.title,
    command,
    stamp,
    figures: measurement.figures(output),
    ...(measurement.note ? { note: measurement.note } : {}),
  };
  return { section, measured: { ...output, command, stamp } };
}

/** The measurements `--only` names (all without it); an unknown name is an error listing the known. */
function selected(): readonly Measurement[] {
  if (!values.only) return MEASUREMENTS;
  const names = values.only.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !MEASUREMENTS.some((m) => m.name === name));
  if (unknown.length > 0)
    throw new Error(
      `unknown measurement(s) ${unknown.join(", ")}; known: ${MEASUREMENTS.map((m) => m.name).join(", ")}`,
    );
  return MEASUREMENTS.filter((m) => names.includes(m.name));
}

/** Where the page and the README go: a smoke run never overwrites the committed ones. */
function destinations(): { page: string; readme: string; readmeSource: string } {
  const readmeSource = join(PACKAGE_ROOT, "README.md");
  const page = resolve(
    values.out ?? join(PACKAGE_ROOT, values.quick ? "runs/measurements-smoke.md" : "docs/measurements.md"),
  );
  const readme = resolve(values.readme ?? (values.quick ? join(PACKAGE_ROOT, "runs/README-smoke.md") : readmeSource));
  if (values.quick && (page === join(PACKAGE_ROOT, "docs/measurements.md") || readme === readmeSource)) {
    throw new Error("--quick figures are a smoke run: they never go to docs/measurements.md or README.md");
  }
  return { page, readme, readmeSource };
}

/** Runs the measurements one after another; a failed optional one is skipped, a failed other one noted. */
function measureAll(commit: string): {
  sections: MeasurementSection[];
  runs: Map<string, MeasuredRun>;
  failures: string[];
} {
  const sections: MeasurementSection[] = [];
  const runs = new Map<string, MeasuredRun>();
  const failures: string[] = [];
  for (const measurement of selected()) {
    try {
      const { section, measured } = run(measurement, commit);
      sections.push(section);
      runs.set(measurement.name, measured);
    } catch (error) {
      const message = (error as Error).message;
      if (measurement.optional) process.stderr.write(`skipped (optional): ${message}\n`);
      else failures.push(message);
    }
  }
  return { sections, runs, failures };
}

function main(): void {
  if (values.list) {
    for (const m of MEASUREMENTS) console.log(`${m.name.padEnd(20)} ${shown(m.command(options))}`);
    return;
  }
  if (!existsSync(join(PACKAGE_ROOT, "dist", "bundle", "cli.js")))
    throw new Error("no build: run `npm run build` first (the commands run the compiled CLI)");
  const { page, readme, readmeSource } = destinations();
  const commit = commitOf();
  const started = { date: new Date().toISOString(), load: loadavg()[0]! };
  const { sections, runs, failures } = measureAll(commit);
  const stamp = stampNow(commit, started.date, started.load);
  const previous = existsSync(page) ? readFileSync(page, "utf8") : "";
  mkdirSync(dirname(page), { recursive: true });
  writeFileSync(
    page,
    renderMeasurementsPage(
      stamp,
      sections,
      MEASUREMENTS.map((m) => m.name),
      previous,
    ),
  );
  const { blocks, left } = readmeBlocks(runs);
  // A smoke run fills a copy of the README as it is now; a real one fills the README in place.
  const base = values.quick || !existsSync(readme) ? readmeSource : readme;
  writeFileSync(readme, fillMeasuredBlocks(readFileSync(base, "utf8"), blocks));
  console.log(
    `\n${values.quick ? "SMOKE RUN: " : ""}${sections.length} measurement(s) written to ${relative(PACKAGE_ROOT, page)}; README blocks ${[...blocks.keys()].join(", ") || "none"} written to ${relative(PACKAGE_ROOT, readme)}`,
  );
  console.log(`stamp: ${describeStamp(stamp)}`);
  if (left.length > 0) console.log(`README blocks left as they were: ${left.join("; ")}`);
  for (const failure of failures) console.log(`FAILED: ${failure}`);
  if (failures.length > 0) process.exitCode = 1;
}

main();
