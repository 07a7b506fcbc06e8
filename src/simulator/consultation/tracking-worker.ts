import { Worker, type MessagePort } from "node:worker_threads";
import type { DialogueState } from "../../cmas/schemas.ts";
import type { DialogueTurn, NluModule } from "../../language/module-interfaces.ts";
import type { ConsultTurn, StateTracker, StateTracking } from "./consult-roles.ts";
import { historyOf, nluStateTracker } from "./state-tracker.ts";

/**
 * State tracking on a worker thread: the embedded NLU reading every patient turn is most of the CPU a
 * consultation with an LLM doctor spends, and on the thread that also drives the model calls it holds
 * them back. The worker (its entry, above this layer, builds the NLU and calls
 * {@link serveStateTracking}) keeps one {@link nluStateTracker} consultation per session and reads
 * the turns in the order they were sent, so the states are those the same tracker gives on this
 * thread. Requests go in batches, one message for all those made in one turn of the event loop (a
 * control's whole list of questions), and the states come back a batch at a time: a message costs
 * this thread more than the few turns it carries. Each session keeps what it sent: if the worker cannot start or dies, every session is read
 * again on this thread by the fallback tracker, and the run goes on.
 */

/** What this thread sends: a patient turn to track (with the turns added since the last), or the end of a session. */
type TrackingRequest =
  | {
      readonly kind: "track";
      readonly session: number;
      readonly turns: readonly DialogueTurn[];
      readonly utterance: string;
    }
  | { readonly kind: "close"; readonly session: number };

/** What the worker answers, in the order of the requests of a session: the state, or why there is none. */
type TrackingReply =
  { readonly session: number; readonly state: DialogueState } | { readonly session: number; readonly error: string };

/** How often the worker sends the states it has read while it works through a batch. */
const REPLY_EVERY_MS = 2;

/** In the worker: serves the batches of tracking requests on `port` with `nlu` (awaited before the first). */
export function serveStateTracking(port: MessagePort, nlu: Promise<NluModule>): void {
  const sessions = new Map<number, { readonly tracking: StateTracking; readonly history: DialogueTurn[] }>();
  let queue: Promise<unknown> = nlu;
  const handle = async (request: TrackingRequest, reader: NluModule): Promise<TrackingReply | undefined> => {
    if (request.kind === "close") {
      sessions.delete(request.session);
      return undefined;
    }
    let session = sessions.get(request.session);
    if (!session) sessions.set(request.session, (session = { tracking: nluStateTracker(reader).start(), history: [] }));
    session.history.push(...request.turns);
    try {
      return { session: request.session, state: await session.tracking.track(session.history, request.utterance) };
    } catch (error) {
      return { session: request.session, error: (error as Error).message ?? String(error) };
    }
  };
  port.on("message", (batch: readonly TrackingRequest[]) => {
    queue = queue.then(async () => {
      const reader = await nlu;
      let replies: TrackingReply[] = [];
      let sent = performance.now();
      for (const request of batch) {
        const reply = await handle(request, reader);
        if (reply) replies.push(reply);
        // A large batch (many consultations' questions at once) answers as it goes, not only at its end.
        if (replies.length > 0 && performance.now() - sent >= REPLY_EVERY_MS) {
          port.postMessage(replies);
          [replies, sent] = [[], performance.now()];
        }
      }
      if (replies.length > 0) port.postMessage(replies);
    });
  });
}

/** A call of a session: its history (how many turns of it) and utterance, and who waits for its state. */
interface Call {
  readonly historyLength: number;
  readonly utterance: string;
  readonly resolve: (state: DialogueState) => void;
  readonly reject: (error: Error) => void;
}

/** One consultation tracked on the worker, able to go on with the fallback tracker. */
class WorkerSession implements StateTracking {
  /** The turns sent so far (as the NLU reads them), and how many of the consultation's they came from. */
  private readonly history: DialogueTurn[] = [];
  private consumed = 0;
  private readonly calls: Call[] = [];
  /** How many calls the worker has answered. */
  private answered = 0;
  /** The session on this thread once the worker is gone. */
  private local: StateTracking | undefined;

  constructor(
    private readonly pool: TrackingPool,
    readonly id: number,
  ) {}

  track(turns: readonly ConsultTurn[], utterance: string): Promise<DialogueState> {
    const added = historyOf(turns.slice(this.consumed));
    this.consumed = turns.length;
    this.history.push(...added);
    return new Promise((resolve, reject) => {
      const call = { historyLength: this.history.length, utterance, resolve, reject };
      this.calls.push(call);
      if (this.local) this.readHere(call);
      else this.pool.send({ kind: "track", session: this.id, turns: added, utterance });
    });
  }

  close(): void {
    this.pool.close(this);
  }

  /** The worker's answer to the oldest call it has not answered. */
  answer(reply: TrackingReply): void {
    const call = this.calls[this.answered++];
    if (!call) return;
    if ("state" in reply) call.resolve(reply.state);
    else call.reject(new Error(reply.error));
  }

  /** The worker is gone: every call is read again here, in order (the answered ones to rebuild the state). */
  goLocal(fallback: StateTracker): void {
    this.local = fallback.start();
    for (const [index, call] of this.calls.entries()) this.readHere(call, index < this.answered);
  }

  private readHere(call: Call, alreadyAnswered = false): void {
    const state = this.local!.track(this.history.slice(0, call.historyLength), call.utterance);
    if (!alreadyAnswered) state.then(call.resolve, call.reject);
    else state.catch(() => undefined);
  }
}

/** The worker and its sessions; see the module comment. */
class TrackingPool {
  private worker: Worker | undefined;
  private readonly sessions = new Map<number, WorkerSession>();
  private nextId = 0;
  /** Calls sent and not answered: the worker keeps the process alive only while there are some. */
  private waiting = 0;
  /** Requests made in this turn of the event loop, sent together at its end. */
  private outbox: TrackingRequest[] = [];

  constructor(
    url: URL,
    private readonly fallback: () => StateTracker,
  ) {
    try {
      this.worker = new Worker(url);
      this.worker.unref();
      this.worker.on("message", (replies: readonly TrackingReply[]) => this.answer(replies));
      this.worker.on("error", () => this.fail());
      this.worker.on("messageerror", () => this.fail());
      this.worker.on("exit", () => this.fail());
    } catch {
      this.worker = undefined;
    }
  }

  start(): WorkerSession {
    const session = new WorkerSession(this, this.nextId++);
    this.sessions.set(session.id, session);
    if (!this.worker) session.goLocal(this.fallback());
    return session;
  }

  send(request: TrackingRequest): void {
    if (!this.worker) return;
    if (request.kind === "track" && this.waiting++ === 0) this.worker.ref();
    if (this.outbox.push(request) === 1) setImmediate(() => this.flush());
  }

  private flush(): void {
    const batch = this.outbox;
    this.outbox = [];
    this.worker?.postMessage(batch);
  }

  close(session: WorkerSession): void {
    this.sessions.delete(session.id);
    this.send({ kind: "close", session: session.id });
  }

  private answer(replies: readonly TrackingReply[]): void {
    this.waiting -= replies.length;
    if (this.waiting === 0) this.worker?.unref();
    for (const reply of replies) this.sessions.get(reply.session)?.answer(reply);
  }

  /** The worker failed to start or died: its sessions go on here. */
  private fail(): void {
    if (!this.worker) return;
    const worker = this.worker;
    this.worker = undefined;
    this.waiting = 0;
    this.outbox = [];
    worker.removeAllListeners();
    void worker.terminate().catch(() => undefined);
    if (this.sessions.size === 0) return;
    const fallback = this.fallback();
    for (const session of this.sessions.values()) session.goLocal(fallback);
  }

  /** Stops the worker (its pending sessions go on here). */
  async terminate(): Promise<void> {
    const worker = this.worker;
    this.fail();
    await worker?.terminate();
  }
}

/** A state tracker on a worker thread, with what stops it. */
export interface WorkerStateTracker extends StateTracker {
  /** Stops the worker; sessions still tracking go on with the fallback. */
  close(): Promise<void>;
}

/**
 * A state tracker whose NLU runs on the worker thread started from `url` (a module that calls
 * {@link serveStateTracking}), started now; `fallback` (the same NLU on this thread, asked for when
 * first needed) reads the turns if the worker cannot start or dies.
 */
export function workerStateTracker(url: URL, fallback: () => StateTracker): WorkerStateTracker {
  const pool = new TrackingPool(url, fallback);
  return { start: () => pool.start(), close: () => pool.terminate() };
}
