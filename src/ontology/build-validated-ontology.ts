/**
 * The build step that validates every ontology file and writes the copies the bundle reads
 * (`validated-ontology.ts`): `npm run build` runs it from the bundle, `node dist/bundle/build-validated-ontology.js`.
 */
import { writeValidatedOntology } from "./ontology-files.ts";

writeValidatedOntology();
