/**
 * Whole-process timings for the start-up and comparison scripts: a process is timed from spawn to exit,
 * as a user meets it, and its CPU seconds are read too when GNU time is installed.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { PACKAGE_ROOT } from "../src/foundation/package-paths.ts";
import { median } from "./json-output.ts";

/**
 * GNU time, when installed, reports the CPU seconds (user + system, all threads) a process used: a
 * figure that other jobs on a busy machine inflate far less than the wall time.
 */
const GNU_TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

/** One process's wall seconds and, with GNU time, its CPU seconds. */
export interface Timing {
  readonly wall: number;
  readonly cpu?: number;
}

/** How one process ended: its timing, exit status and output. */
export interface TimedRun extends Timing {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs one process to its end and times it; never throws for a non-zero exit (see {@link timeProcess}). */
export function runTimed(command: string, args: readonly string[], env?: NodeJS.ProcessEnv): TimedRun {
  const [file, fullArgs] = GNU_TIME ? [GNU_TIME, ["-f", "cpu %U %S", command, ...args]] : [command, args];
  const started = performance.now();
  const result = spawnSync(file, fullArgs, {
    cwd: PACKAGE_ROOT,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    env: env ?? process.env,
  });
  const wall = (performance.now() - started) / 1000;
  // GNU time appends its lines (the CPU line, and before it one about a failed exit) to the process's
  // stderr; they are taken off again here.
  const cpu = /(?:Command (?:exited with non-zero status|terminated by signal) \d+\n)?cpu ([\d.]+) ([\d.]+)\s*$/.exec(
    result.stderr,
  );
  const stderr = cpu ? result.stderr.slice(0, cpu.index) : result.stderr;
  const base = { wall, status: result.status, stdout: result.stdout, stderr };
  return cpu ? { ...base, cpu: Number(cpu[1]) + Number(cpu[2]) } : base;
}

/** Wall and CPU seconds of one process; throws with its stderr when it fails. */
export function timeProcess(command: string, args: readonly string[], env?: NodeJS.ProcessEnv): Timing {
  const run = runTimed(command, args, env);
  if (run.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (exit ${run.status}): ${run.stderr}`);
  return run.cpu === undefined ? { wall: run.wall } : { wall: run.wall, cpu: run.cpu };
}

/** The summary of several runs of one process, in seconds. */
export interface TimingSummary {
  readonly runs: number;
  readonly medianWall: number;
  readonly minWall: number;
  readonly maxWall: number;
  /** Median CPU seconds; absent without GNU time. */
  readonly medianCpu?: number;
}

/** Medians, minimum and maximum of some timings. */
export function summarise(timings: readonly Timing[]): TimingSummary {
  const walls = timings.map((timing) => timing.wall);
  const cpus = timings.flatMap((timing) => (timing.cpu === undefined ? [] : [timing.cpu]));
  const summary = {
    runs: timings.length,
    medianWall: median(walls),
    minWall: Math.min(...walls),
    maxWall: Math.max(...walls),
  };
  return cpus.length > 0 ? { ...summary, medianCpu: median(cpus) } : summary;
}

/** One line for a person: `label: median 0.083 s (min …, max …, 11 runs; CPU median … s)`. */
export function describeTimings(label: string, summary: TimingSummary): string {
  const cpu = summary.medianCpu === undefined ? "" : `; CPU median ${summary.medianCpu.toFixed(3)} s`;
  return `${label}: median ${summary.medianWall.toFixed(3)} s (min ${summary.minWall.toFixed(3)}, max ${summary.maxWall.toFixed(3)}, ${summary.runs} runs${cpu})`;
}

/**
 * Two processes run alternately, `runs` times each, so that a machine busy at one moment slows both
 * alike: the fair way to state how much faster one is than the other.
 */
export function alternate(
  runs: number,
  first: () => Timing,
  second: () => Timing,
): { first: TimingSummary; second: TimingSummary } {
  const a: Timing[] = [];
  const b: Timing[] = [];
  for (let run = 0; run < runs; run += 1) {
    a.push(first());
    b.push(second());
  }
  return { first: summarise(a), second: summarise(b) };
}
