import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { clinicalNote } from "../../src/clinical/clinical-note.ts";
import { noteInputOf } from "../../src/dialogue-manager/note-input.ts";
import { noteToMarkdown } from "../../src/clinical/note-markdown.ts";
import { Conversation, type TurnOutcome } from "../../src/dialogue-manager/conversation.ts";
import type { SemanticRedFlags } from "../../src/clinical/red-flags-semantic.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";
import { PatientSimulator, type PatientCase } from "../../src/simulator/patient-simulator.ts";

/**
 * The terminal chat: lines are the patient's answers, except the commands below, which are never
 * taken as something the patient said. Works typed or piped (piped lines are echoed).
 */

export interface TerminalChatOptions {
  readonly modules: DialogueModules;
  readonly input: Readable;
  readonly output: Writable;
  /** Cases for `/simulate`. */
  readonly cases?: readonly PatientCase[];
  /** Whether the input is a person at a terminal (no echo). */
  readonly interactive?: boolean;
  /** The red flags' semantic signal beside the lay-word rules (none: the rules alone). */
  readonly semanticRedFlags?: SemanticRedFlags | null;
}

const HELP = `Commands (anything else is the patient's answer):
  /help              this list
  /state             the CMAS patient profile so far (JSON)
  /note              the clinical note so far (Markdown)
  /retry             ask the backend again for the last turn (when it failed, or the offline engine answered it)
  /simulate [case]   a simulated patient answers a new history to its end (no case: list the cases)
  /quit              end the chat (also: quit, exit)`;

const QUIT = /^(?:\/(?:quit|exit|q)|quit|exit)$/i;
const SIMULATED_TURN_LIMIT = 120;
const ENDED = "(the history has ended: /note for its note, /simulate for a simulated patient, /quit to leave)";

export async function runTerminalChat(options: TerminalChatOptions): Promise<void> {
  const { output } = options;
  const write = (text: string) => output.write(`${text}\n`);
  const reader = createInterface({ input: options.input, terminal: false });
  let conversation = new Conversation(options.modules, { semanticRedFlags: options.semanticRedFlags ?? null });
  const prompt = () => output.write("patient: ");

  write(`doctor: ${conversation.opening}`);
  write("(type /help for commands)");
  prompt();
  try {
    for await (const line of reader) {
      const text = line.trim();
      if (!options.interactive) output.write(`${text}\n`);
      if (QUIT.test(text)) break;
      if (text.startsWith("/")) {
        const next = await runCommand(text, conversation, options, write);
        if (next) conversation = next;
      } else if (text !== "" && conversation.snapshot().ended) {
        write(ENDED);
      } else if (text !== "") {
        reply(await conversation.say(text), conversation, write);
      }
      prompt();
    }
  } finally {
    reader.close();
    output.write("\n");
  }
}

/** Prints the doctor's reply, the offline engine's notice when it answered, or the failure. */
function reply(outcome: TurnOutcome, conversation: Conversation, write: (text: string) => void): void {
  if (outcome.fallback)
    write(`(offline engine answered: ${outcome.fallback.reason}; /retry asks ${outcome.fallback.backend} again)`);
  write(outcome.doctor !== null ? `doctor: ${outcome.doctor}` : `(failed: ${outcome.error}; /retry, or type again)`);
  if (conversation.snapshot().ended) write(ENDED);
}

/** Runs a command; returns a new conversation when the command started one. */
async function runCommand(
  text: string,
  conversation: Conversation,
  options: TerminalChatOptions,
  write: (text: string) => void,
): Promise<Conversation | undefined> {
  const [command, ...rest] = text.split(/\s+/);
  const snapshot = conversation.snapshot();
  switch (command!.toLowerCase()) {
    case "/help":
      write(HELP);
      return undefined;
    case "/state":
      write(JSON.stringify(snapshot.state, null, 2));
      return undefined;
    case "/note":
      write(noteToMarkdown(clinicalNote(noteInputOf(snapshot))));
      return undefined;
    case "/simulate":
      return simulate(rest.join(" "), options, write);
    case "/retry":
      if (snapshot.retryable) reply(await conversation.retry(), conversation, write);
      else write("(nothing to retry: the last turn was answered by the configured backend)");
      return undefined;
    default:
      write(`(unknown command ${command}; /help lists them)`);
      return undefined;
  }
}

/** A new history, answered by the simulated patient of a case, printed as it goes. */
async function simulate(
  caseId: string,
  options: TerminalChatOptions,
  write: (text: string) => void,
): Promise<Conversation | undefined> {
  const cases = options.cases ?? [];
  const patientCase = cases.find((candidate) => candidate.id === caseId);
  if (!patientCase) {
    write(caseId === "" ? "Cases:" : `(no case '${caseId}'; the cases are:)`);
    for (const candidate of cases) write(`  ${candidate.id}  ${candidate.title}`);
    return undefined;
  }
  const simulator = new PatientSimulator(patientCase);
  const conversation = new Conversation(options.modules, { semanticRedFlags: options.semanticRedFlags ?? null });
  write(`(a new history: ${patientCase.title})`);
  write(`doctor: ${conversation.opening}`);
  let said = simulator.openingStatement();
  for (let turn = 0; turn < SIMULATED_TURN_LIMIT; turn += 1) {
    write(`patient: ${said}`);
    const outcome = await conversation.say(said);
    if (outcome.fallback) write(`(offline engine answered: ${outcome.fallback.reason})`);
    write(outcome.doctor !== null ? `doctor: ${outcome.doctor}` : `(failed: ${outcome.error})`);
    if (outcome.ended || outcome.error !== null) break;
    said = simulator.answer(outcome.actions);
  }
  write(ENDED);
  return conversation;
}
