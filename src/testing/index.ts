/**
 * `anamnesis/testing`: what a backend plug-in's author tests their driver with — the backend contract
 * our own drivers pass (structured output, repair, format errors, cache, cancellation, embeddings,
 * logprobs, secrets kept out of records and errors).
 */
export {
  BACKEND_CONTRACT,
  ContractSkip,
  checkBackend,
  contractSchema,
  formatContractReport,
  type ContractCheck,
  type ContractOptions,
  type ContractReport,
  type ContractSubject,
  type ScriptedReply,
} from "./backend-contract.ts";
