/**
 * The build step that writes the snapshot of the NLU's tables for the bundled sample's training
 * dialogues (`nlu/nlu-snapshot.ts`): `npm run build` runs it from the bundle,
 * `node dist/bundle/build-nlu-snapshot.js`.
 */
import { loadMeditod } from "../../data/meditod.ts";
import { buildNluTables } from "./nlu/nlu-tables.ts";
import { writeNluSnapshot } from "./nlu/nlu-snapshot.ts";
import { loadTrainingData } from "./training-data.ts";

writeNluSnapshot(buildNluTables(loadTrainingData(loadMeditod(), "train")));
