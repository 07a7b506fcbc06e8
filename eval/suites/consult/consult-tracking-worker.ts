import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { loadMeditod } from "../../../src/data/meditod.ts";
import { serveStateTracking } from "../../../src/simulator/consultation/tracking-worker.ts";
import { consultEngine } from "./consult-engine.ts";

/**
 * Lowers this thread's scheduling priority (Linux, where niceness is per thread: the thread's own id from
 * /proc/thread-self). What it tracks is only written into the transcripts, while the main thread keeps
 * the model's requests going: on a machine with fewer cores than runnable threads, the requests come
 * first. Elsewhere it does nothing.
 */
function yieldToMainThread(): void {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").at(-1));
    if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, 10);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}

// The consultation suites' state-tracking worker (`tracking-worker.ts`): the embedded NLU, built as the
// main thread builds it, reading the patient turns the main thread sends.
if (parentPort) {
  yieldToMainThread();
  serveStateTracking(
    parentPort,
    consultEngine(loadMeditod()).then((engine) => engine.modules.nlu),
  );
}
