/**
 * What the layers above use of the backends: building a backend from its id, the id syntaxes for
 * help text, the settings, the attribute judge, and the spec's types. The library's public API
 * (`src/index.ts`) names its exports file by file.
 */
export * from "./spec.ts";
export { createBackend, describeBackendIds } from "./registry.ts";
export { type BackendOptions } from "./config.ts";
export { createAttributeJudge } from "./llm-attribute-judge.ts";
