/**
 * The body of one OpenAI chat-completions request (`POST {baseUrl}/chat/completions`) for a
 * {@link CompletionRequest}. Members are written in a fixed order, the one LangChain's `ChatOpenAI`
 * used before this driver replaced it, so that servers, proxies and response caches keyed on the
 * body's bytes see exactly the requests they saw before; unset members are left out.
 */
import type { ChatMessage, CompletionRequest } from "./spec.ts";
import { toStrictJsonSchema } from "./structured.ts";

/**
 * OpenAI's reasoning models (`o1`, `o3-mini`, `gpt-5`, not `gpt-5-chat…`) take `max_completion_tokens`
 * and a `developer` message where others take `max_tokens` and `system`.
 * @example `o3-mini`, `gpt-5-nano`
 */
const REASONING_MODEL = /^(o\d|gpt-5(?!-chat))/;

/** The members that ask for structured output, by method (none for a schema given in the prompt). */
function structuredMembers(structured: CompletionRequest["structured"]): Record<string, unknown> {
  if (!structured) return {};
  const { method, name, jsonSchema } = structured;
  switch (method) {
    case "jsonSchema": {
      const { schema, strict } = toStrictJsonSchema(jsonSchema);
      return { response_format: { type: "json_schema", json_schema: { name, strict, schema } } };
    }
    case "functionCalling":
      return {
        tools: [{ type: "function", function: { name, parameters: jsonSchema } }],
        tool_choice: { type: "function", function: { name } },
      };
    case "jsonMode":
      return { response_format: { type: "json_object" } };
    case "prompt":
      return {};
  }
}

function wireMessages(messages: readonly ChatMessage[], reasoning: boolean) {
  return messages.map(({ role, content }) => ({
    role: reasoning && role === "system" ? "developer" : role,
    content,
  }));
}

/**
 * The request body as JSON text. `stream` asks for server-sent events with the usage in a last chunk;
 * logprobs are always asked for without streaming (they are read from the whole answer).
 */
export function chatCompletionBody(model: string, request: CompletionRequest, stream: boolean): string {
  const reasoning = REASONING_MODEL.test(model);
  const { tools, tool_choice, response_format } = structuredMembers(request.structured);
  // JSON.stringify leaves out undefined members: every optional one keeps its place when present.
  const body = {
    model,
    temperature: request.temperature,
    logprobs: request.logprobs ? true : undefined,
    top_logprobs: request.logprobs?.top,
    stop: request.stop,
    stream,
    tools,
    tool_choice,
    response_format,
    seed: request.seed,
    stream_options: stream ? { include_usage: true } : undefined,
    [reasoning ? "max_completion_tokens" : "max_tokens"]: request.maxTokens,
    messages: wireMessages(request.messages, reasoning),
  };
  return JSON.stringify(body);
}
