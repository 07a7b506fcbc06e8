/**
 * Reading an OpenAI chat-completions answer: the whole JSON answer, or its server-sent events when
 * streaming, checked with zod (a 200 answer that is not the protocol's is a {@link MalformedAnswerError}
 * naming what is wrong), and an error answer turned into an {@link ApiCallError} whose message reads as
 * the OpenAI SDK's did (`400 <the server's message>`), so final error messages are unchanged.
 */
import * as z from "zod";
import { notJsonError, notTheProtocolError } from "./answer-shapes.ts";
import { ApiCallError } from "./errors.ts";
import type { CompletionResponse, TokenLogprob, TokenUsage } from "./spec.ts";

const usageSchema = z
  .object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() })
  .nullish();

const logprobSchema = z.object({
  token: z.string(),
  logprob: z.number(),
  top_logprobs: z.array(z.object({ token: z.string(), logprob: z.number() })).nullish(),
});

/** A tool call's arguments: JSON text by the protocol; some servers send the object itself. */
const toolArgumentsSchema = z.union([z.string(), z.record(z.string(), z.unknown())]);

const toolCallSchema = z.object({
  index: z.number().optional(),
  function: z.object({ arguments: toolArgumentsSchema.nullish() }).nullish(),
});

/** What is said of an answer without a list of choices (as the check of every chat answer says it). */
const NO_CHOICES = "no 'choices' list";

/** The members of a whole answer this driver reads; anything else is ignored. */
const chatCompletionSchema = z.object({
  choices: z.array(
    z.object({
      message: z.object({ content: z.string().nullish(), tool_calls: z.array(toolCallSchema).nullish() }).nullish(),
      logprobs: z.object({ content: z.array(logprobSchema).nullish() }).nullish(),
    }),
    { error: NO_CHOICES },
  ),
  usage: usageSchema,
});

/** One server-sent chunk of a streamed answer. */
const chatCompletionChunkSchema = z.object({
  choices: z
    .array(
      z.object({
        delta: z.object({ content: z.string().nullish(), tool_calls: z.array(toolCallSchema).nullish() }).nullish(),
      }),
    )
    .nullish(),
  usage: usageSchema,
  error: z.unknown().optional(),
});

type Usage = z.infer<typeof usageSchema>;
type ToolCall = z.infer<typeof toolCallSchema>;

function usageOf(usage: Usage): TokenUsage {
  return { inputTokens: usage?.prompt_tokens ?? 0, outputTokens: usage?.completion_tokens ?? 0 };
}

function argumentsText(call: ToolCall | undefined): string | undefined {
  const raw = call?.function?.arguments;
  return raw == null ? undefined : typeof raw === "string" ? raw : JSON.stringify(raw);
}

function logprobsOf(content: ReadonlyArray<z.infer<typeof logprobSchema>> | null | undefined): TokenLogprob[] {
  return (content ?? []).map((entry) => ({
    token: entry.token,
    logprob: entry.logprob,
    ...(entry.top_logprobs?.length
      ? { top: entry.top_logprobs.map(({ token, logprob }) => ({ token, logprob })) }
      : {}),
  }));
}

/** Where the issue is and what it says, for a one-line message. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  if (issue.message === NO_CHOICES) return NO_CHOICES;
  return `${issue.path.length > 0 ? issue.path.join(".") : "the answer"}: ${issue.message}`;
}

/** Parses `text` as JSON and checks it against `schema`, or fails naming what is wrong. */
function parseAnswer<S extends z.ZodType>(schema: S, text: string, path: string, contentType: string): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw notJsonError(path, contentType, text);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw notTheProtocolError(path, firstIssue(parsed.error), text);
  return parsed.data;
}

/**
 * The reply of a whole (non-streamed) answer: the first choice's text, or for a forced tool call its
 * arguments as sent (a reply without a tool call falls back to its text), usage, and logprobs when
 * asked. An answer without a choice is not the protocol's.
 */
export function readChatCompletion(
  text: string,
  {
    path,
    contentType,
    toolCall,
    logprobs,
  }: { path: string; contentType: string; toolCall: boolean; logprobs: boolean },
): CompletionResponse {
  const answer = parseAnswer(chatCompletionSchema, text, path, contentType);
  const choice = answer.choices[0];
  if (!choice) throw notTheProtocolError(path, "an empty 'choices' list", text);
  const content = choice.message?.content ?? "";
  return {
    text: (toolCall ? argumentsText(choice.message?.tool_calls?.[0]) : undefined) ?? content,
    usage: usageOf(answer.usage),
    ...(logprobs ? { logprobs: logprobsOf(choice.logprobs?.content) } : {}),
  };
}

/** What a streamed answer has said so far. */
interface StreamedReply {
  content: string;
  /** The first tool call's arguments, pieced together; undefined until a piece arrives. */
  toolArguments: string | undefined;
  usage: Usage;
}

/** Adds one chunk (the JSON of one `data:` line) to the reply. */
function addChunk(reply: StreamedReply, data: string, path: string): void {
  const chunk = parseAnswer(chatCompletionChunkSchema, data, path, "text/event-stream");
  if (chunk.error !== undefined) throw new Error(errorMessage(undefined, chunk.error, undefined));
  if (chunk.usage) reply.usage = chunk.usage;
  const delta = chunk.choices?.[0]?.delta;
  if (!delta) return;
  reply.content += delta.content ?? "";
  for (const call of delta.tool_calls ?? []) {
    const piece = argumentsText(call);
    if ((call.index ?? 0) === 0 && piece !== undefined) reply.toolArguments = (reply.toolArguments ?? "") + piece;
  }
}

/**
 * Server-sent events: blank-line separated, each with `data:` lines (joined by newlines); `[DONE]` ends
 * the stream. Other fields (`event:`, `id:`, comments) are ignored.
 * @example "data: {\"choices\":[]}\n\ndata: [DONE]\n\n"
 */
const EVENT_SEPARATOR = /\r\n\r\n|\n\n|\r\r/;

/** The `data` of one event, or undefined for an event without data. */
function eventData(event: string): string | undefined {
  const lines = event.split(/\r\n|\n|\r/).filter((line) => line.startsWith("data:"));
  return lines.length === 0 ? undefined : lines.map((line) => line.slice(line[5] === " " ? 6 : 5)).join("\n");
}

/** Reads a streamed answer whole: the text (or the tool call's arguments) and the usage of its last chunk. */
export async function readChatCompletionStream(
  body: ReadableStream<Uint8Array>,
  { path, toolCall }: { path: string; toolCall: boolean },
): Promise<CompletionResponse> {
  const reply: StreamedReply = { content: "", toolArguments: undefined, usage: undefined };
  const decoder = new TextDecoder();
  let buffered = "";
  const take = (final: boolean): boolean => {
    const events = buffered.split(EVENT_SEPARATOR);
    buffered = final ? "" : events.pop()!;
    for (const event of events) {
      const data = eventData(event);
      if (data === "[DONE]") return true;
      if (data !== undefined && data.trim() !== "") addChunk(reply, data, path);
    }
    return false;
  };
  let done = false;
  for await (const bytes of body) {
    buffered += decoder.decode(bytes, { stream: true });
    if ((done = take(false))) break;
  }
  if (!done) {
    buffered += decoder.decode();
    take(true);
  }
  return { text: (toolCall ? reply.toolArguments : undefined) ?? reply.content, usage: usageOf(reply.usage) };
}

/**
 * The OpenAI SDK's wording of an error answer: `<status> <error.message>` (the `error` member of a JSON
 * body, its message or else the member itself as JSON), the text of a body that is not JSON, or
 * `<status> status code (no body)`.
 */
function errorMessage(status: number | undefined, error: unknown, text: string | undefined): string {
  const message = (error as { message?: unknown } | null | undefined)?.message;
  const detail = message
    ? typeof message === "string"
      ? message
      : JSON.stringify(message)
    : error
      ? JSON.stringify(error)
      : text;
  if (status && detail) return `${status} ${detail}`;
  if (status) return `${status} status code (no body)`;
  return detail || "(no status code or body)";
}

/** The error for an answer with status 400 or more, from its body text. */
export function apiCallError(status: number, headers: Headers, text: string): ApiCallError {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const error = (json as { error?: unknown } | null | undefined)?.error;
  return new ApiCallError(errorMessage(status, error, json ? undefined : text), status, headers, text);
}
