import { parentPort } from "node:worker_threads";
import { loadMeditod } from "../../../src/data/meditod.ts";
import { serveStateTracking } from "../../../src/simulator/consultation/tracking-worker.ts";
import { consultEngine } from "./consult-engine.ts";

// The consultation suites' state-tracking worker (`tracking-worker.ts`): the embedded NLU, built as the
// main thread builds it, reading the patient turns the main thread sends.
if (parentPort)
  serveStateTracking(
    parentPort,
    consultEngine(loadMeditod()).then((engine) => engine.modules.nlu),
  );
