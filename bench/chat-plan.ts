/**
 * The chat server's measurements for `bench/measurements.ts`: load, kill -9 (and its control), hostile
 * requests and the offline fallback. Each runs `anamnesis chat` (or the server in-process, for the
 * fallback) as a user would, on loopback.
 */
import type { Figure } from "../test-support/measurements-page.ts";
import { count, fixed, ms, perSecond, pick, type CommandOutput, type Measurement } from "./measurement-plan.ts";

interface LoadData {
  sessions: number;
  turnsPerSession: number;
  rounds: Array<{
    turns: number;
    turnsPerSecond: number;
    p50Ms: number;
    p95Ms: number;
    maxMs: number;
    failures: number;
    rssMiB: number;
    serverCpuMsPerTurn: number;
  }>;
  worstAfterWarmUp: { turnsPerSecond: number; p95Ms: number };
}

function loadFigures({ data }: CommandOutput): Figure[] {
  const d = data as LoadData;
  const rounds = d.rounds.map((round, index) => ({
    name: `round ${index + 1}${index === 0 && d.rounds.length > 1 ? " (warm-up)" : ""}: ${count(round.turns)} turns`,
    value: `${perSecond(round.turnsPerSecond, "turns")}, p50 ${ms(round.p50Ms, 1)}, p95 ${ms(round.p95Ms, 1)}, max ${ms(round.maxMs, 1)}, ${round.failures} failures, RSS ${fixed(round.rssMiB, 0)} MiB, server CPU ${ms(round.serverCpuMsPerTurn)} a turn`,
  }));
  return [
    {
      name: `worst round after the warm-up (${d.sessions} sessions × ${d.turnsPerSession} turns at once)`,
      value: `${perSecond(d.worstAfterWarmUp.turnsPerSecond, "turns")}, p95 ${ms(d.worstAfterWarmUp.p95Ms, 1)}`,
    },
    ...rounds,
  ];
}

interface KillData {
  acknowledgedTurns: number;
  sessions: number;
  concurrentSessions: number;
  kills: number;
  lost: { turns: number; sessions: number; transcripts: number };
}

function killFigures({ data }: CommandOutput): Figure[] {
  const d = data as KillData;
  return [
    {
      name: "acknowledged turns, sessions (at a time), kill -9s",
      value: `${count(d.acknowledgedTurns)}, ${d.sessions} (${d.concurrentSessions}), ${d.kills}`,
    },
    {
      name: "acknowledged turns lost / sessions lost / corrupt transcripts",
      value: `${d.lost.turns} / ${d.lost.sessions} / ${d.lost.transcripts}`,
    },
  ];
}

interface HostileData {
  requests: number;
  crashes: number;
  fiveHundreds: number;
  errorsWithoutCode: number;
  failedConnections: number;
  resentAfterKeepAliveRace: number;
  statuses: Record<string, Record<string, number>>;
}

function hostileFigures({ data }: CommandOutput): Figure[] {
  const d = data as HostileData;
  return [
    {
      name: `hostile requests: crashes / 5xx / errors without a JSON code / failed connections`,
      value: `${d.crashes} / ${d.fiveHundreds} / ${d.errorsWithoutCode} / ${d.failedConnections} of ${count(d.requests)}`,
    },
    { name: "re-sent once after a keep-alive race", value: count(d.resentAfterKeepAliveRace) },
    ...Object.entries(d.statuses).map(([kind, statuses]) => ({
      name: `statuses: ${kind}`,
      value: Object.entries(statuses)
        .map(([status, n]) => `${status}×${n}`)
        .join(" "),
    })),
  ];
}

function fallbackFigures({ data }: CommandOutput): Figure[] {
  const d = data as {
    scenarios: Array<{
      scenario: string;
      firstTurnMs: number;
      laterTurnsP50Ms: number;
      offlineAnswered: number;
      turns: number;
    }>;
  };
  return d.scenarios.map((s) => ({
    name: s.scenario,
    value: `first turn ${ms(s.firstTurnMs, 0)}, later turns p50 ${ms(s.laterTurnsP50Ms, 1)}, offline engine answered ${s.offlineAnswered} of ${s.turns}`,
  }));
}

export const CHAT_TIMINGS: readonly Measurement[] = [
  {
    name: "chat-load",
    title: "Chat server under load",
    note: "`anamnesis chat` with the embedded engine and SQLite on disk (every turn committed before it is answered); simulated browsers with their own signed cookies answer through the simulated patient.",
    command: (o) => [
      "npx",
      "tsx",
      "bench/chat-load.ts",
      ...pick(o, [], ["--sessions", "3", "--turns", "3", "--rounds", "2"]),
      "--json",
    ],
    json: true,
    figures: loadFigures,
  },
  {
    name: "chat-kill",
    title: "Chat server killed with SIGKILL at random moments",
    command: (o) => [
      "npx",
      "tsx",
      "bench/chat-kill.ts",
      ...pick(o, [], ["--turns", "30", "--sessions", "3"]),
      "--json",
    ],
    json: true,
    acceptExit: [1],
    figures: killFigures,
  },
  {
    name: "chat-kill-control",
    title: "The same with `--db :memory:` (a server that keeps nothing: the check must report losses)",
    command: (o) => [
      "npx",
      "tsx",
      "bench/chat-kill.ts",
      "--db",
      ":memory:",
      ...pick(o, [], ["--turns", "60", "--sessions", "3"]),
      "--json",
    ],
    json: true,
    acceptExit: [1],
    figures: killFigures,
  },
  {
    name: "chat-hostile",
    title: "Hostile requests against the chat server",
    command: (o) => ["npx", "tsx", "bench/chat-hostile.ts", ...pick(o, [], ["--requests", "100"]), "--json"],
    json: true,
    acceptExit: [1],
    figures: hostileFigures,
  },
  {
    name: "chat-fallback",
    title: "What a person waits when the chat's LLM backend fails",
    note: "A library case's simulated patient answers through the web API in each scenario, the server set up as `anamnesis chat` sets it up, the offline fallback on. The first turn waits for the backend to fail; later ones are answered offline while the backend is left alone.",
    command: (o) => ["npx", "tsx", "bench/chat-fallback.ts", ...pick(o, [], ["--turns", "3"]), "--json"],
    json: true,
    figures: fallbackFigures,
  },
];
