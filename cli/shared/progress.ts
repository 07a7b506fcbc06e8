import type cliProgressModule from "cli-progress";
import { createRequire } from "node:module";
import type { ProgressEvent } from "../../eval/runner.ts";

/**
 * Progress on stderr (stdout may carry JSON): a bar on a terminal; on a pipe or in CI, plain lines.
 */
export function createProgressReporter(stream: NodeJS.WriteStream = process.stderr): {
  update(event: ProgressEvent): void;
  stop(): void;
} {
  if (stream.isTTY && !process.env.CI) {
    // Loaded only for a terminal: on a pipe or in CI no bar is drawn, and loading the package is start-up wasted.
    const cliProgress = createRequire(import.meta.url)("cli-progress") as typeof cliProgressModule;
    const multibar = new cliProgress.MultiBar(
      {
        stream,
        format: " {suite} [{bar}] {value}/{total} {note}",
        hideCursor: true,
        clearOnComplete: false,
        barsize: 30,
      },
      cliProgress.Presets.shades_classic,
    );
    const bars = new Map<string, cliProgressModule.SingleBar>();
    return {
      update(event) {
        let bar = bars.get(event.suite);
        const note = event.resumed > 0 ? `(${event.resumed} resumed)` : "";
        if (!bar) {
          bar = multibar.create(event.total, event.done, { suite: event.suite.padEnd(11), note });
          bars.set(event.suite, bar);
        }
        bar.update(event.done, { note });
      },
      stop: () => multibar.stop(),
    };
  }
  // Plain lines: the end of each suite, and every 10 % of a suite that has run for more than 2 s.
  const started = new Map<string, number>();
  const reported = new Map<string, number>();
  return {
    update(event) {
      if (!started.has(event.suite)) started.set(event.suite, performance.now());
      const step = Math.floor((event.done / Math.max(1, event.total)) * 10);
      const finished = event.done === event.total;
      const slow = performance.now() - started.get(event.suite)! > 2000;
      if ((!finished && !slow) || reported.get(event.suite) === step) return;
      reported.set(event.suite, step);
      const note = event.resumed > 0 ? ` (${event.resumed} resumed)` : "";
      stream.write(`${event.suite}: ${event.done}/${event.total}${note}\n`);
    },
    stop() {},
  };
}
