/**
 * The package's entry (`import { … } from "anamnesis"`): the library (`src/`, layer by layer) and the
 * benchmark runner (`eval/`). The backend contract kit for plug-in authors is `anamnesis/testing`.
 */
export * from "./src/index.ts";
export * from "./eval/index.ts";
