import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * LoCoMo (Maharana et al., "Evaluating Very Long-Term Conversational Memory of LLM Agents", ACL
 * 2024; snap-research/LoCoMo), CC BY-NC 4.0: for evaluation only. Nothing of it is copied into
 * this repository: it is read at run time from `../shared/data/` beside the repository (or from
 * `LOCOMO_PATH`), and the benchmark says so and stops when it is absent.
 */

/** The repository's root (this file is `packages/bench/src/locomo/locomo-data.ts`). */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Where LoCoMo's conversations are read from: `LOCOMO_PATH`, else `../shared/data/locomo-dev.json` beside the repository. */
export function locomoPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.LOCOMO_PATH ?? join(REPO_ROOT, '..', 'shared', 'data', 'locomo-dev.json');
}

/** Where a recorded dream cycle is read from: `LOCOMO_CYCLE_PATH`, else `../shared/data/locomo-4-cycle/`. */
export function locomoCyclePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.LOCOMO_CYCLE_PATH ?? join(REPO_ROOT, '..', 'shared', 'data', 'locomo-4-cycle');
}

/** The recorded cycles kept in this repository (`cycle.json` names the conversation; LoCoMo's text is read at run time). */
export const KEPT_CYCLES = join(REPO_ROOT, 'packages', 'bench', 'fixtures', 'locomo-cycles');

/**
 * Every recorded dream cycle to replay: `LOCOMO_CYCLE_PATH` (folders separated by `:`), else the
 * shared one (`locomoCyclePath`) and those kept in the repository, each where it is present.
 */
export function recordedCyclePaths(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.LOCOMO_CYCLE_PATH) return env.LOCOMO_CYCLE_PATH.split(':');
  const kept = existsSync(KEPT_CYCLES)
    ? readdirSync(KEPT_CYCLES)
        .sort()
        .map((name) => join(KEPT_CYCLES, name))
    : [];
  return [locomoCyclePath(env), ...kept].filter(
    (folder) => existsSync(join(folder, 'exchanges')) && (existsSync(join(folder, 'initial')) || existsSync(join(folder, 'cycle.json'))),
  );
}

/** Question categories of LoCoMo; 5 (adversarial: the answer is not in the conversation) is left out of recall. */
export const QUESTION_CATEGORIES = [
  { category: 1, name: 'multi-hop' },
  { category: 2, name: 'temporal' },
  { category: 3, name: 'open-domain' },
  { category: 4, name: 'single-hop' },
] as const;
export type QuestionCategory = (typeof QUESTION_CATEGORIES)[number]['category'];

const turnSchema = z.object({ speaker: z.string(), dia_id: z.string(), text: z.string() }).loose();
/** `[text, evidence]`: one evidence turn id, or several (a few observations have a list). */
const observationSchema = z.tuple([z.string(), z.union([z.string(), z.array(z.string())])]).rest(z.unknown());
const qaSchema = z
  .object({
    question: z.string(),
    answer: z.unknown().optional(),
    evidence: z.array(z.string()),
    category: z.number().int(),
  })
  .loose();

const conversationSchema = z
  .object({
    sample_id: z.string(),
    conversation: z.record(z.string(), z.unknown()),
    observation: z.record(z.string(), z.record(z.string(), z.array(observationSchema))),
    qa: z.array(qaSchema),
  })
  .loose();

export const locomoFileSchema = z.array(conversationSchema);

/** One observation of a conversation: what a memory entry holds. */
export interface LocomoObservation {
  content: string;
  speaker: string;
  /** The session's date and time (ISO), when the session names one. */
  at: string | undefined;
  session: number;
  /** The turn ids it was drawn from. */
  evidence: string[];
}

export interface LocomoQuestion {
  /** `<conversation>:<position in its qa list>`. */
  id: string;
  text: string;
  answer: string;
  category: QuestionCategory;
  evidence: string[];
}

export interface LocomoConversation {
  index: number;
  sampleId: string;
  speakers: [string, string];
  observations: LocomoObservation[];
  /** The questions of categories 1–4 that name evidence. */
  questions: LocomoQuestion[];
  /** The turns, by id (for a reader of the retrieved memories). */
  turns: Map<string, { speaker: string; text: string }>;
  /** The sessions in order, each with its date (ISO, when it names one) and its turns. */
  sessions: Array<{ number: number; at: string | undefined; turns: Array<{ speaker: string; text: string }> }>;
}

/**
 * The turn ids a LoCoMo evidence field names: split at `;`, `,` and spaces (one question gives
 * "D8:6; D9:17"), and "D:11:26" read as "D11:26". Pure.
 */
export function evidenceIds(values: readonly string[]): string[] {
  const ids = values.flatMap((value) => value.split(/[;,\s]+/)).map((id) => id.replace(/^D:(\d+:\d+)$/, 'D$1'));
  return [...new Set(ids.filter((id) => /^D\d+:\d+$/.test(id)))];
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → "2023-05-08T13:56:00.000Z" (the time as written, read as UTC); undefined when it is not of that form. Pure. */
export function sessionDate(text: string): string | undefined {
  const match = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(text.trim());
  if (!match) return undefined;
  const month = MONTHS.indexOf(match[5]!.toLowerCase());
  if (month < 0) return undefined;
  const hour = (Number(match[1]) % 12) + (match[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(match[6]), month, Number(match[4]), hour, Number(match[2]))).toISOString();
}

/** Reads LoCoMo's conversations from `path` (see `locomoPath`). */
export function loadLocomo(path: string): LocomoConversation[] {
  const file = locomoFileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  return file.map((conversation, index) => {
    const sessions = new Map(Object.entries(conversation.conversation));
    const speakers: [string, string] = [String(sessions.get('speaker_a') ?? ''), String(sessions.get('speaker_b') ?? '')];
    const observations: LocomoObservation[] = [];
    for (const [key, bySpeaker] of Object.entries(conversation.observation)) {
      const session = Number(/^session_(\d+)_observation$/.exec(key)?.[1]);
      if (!Number.isInteger(session)) continue;
      const dateText = sessions.get(`session_${session}_date_time`);
      const at = typeof dateText === 'string' ? sessionDate(dateText) : undefined;
      for (const [speaker, items] of Object.entries(bySpeaker)) {
        for (const [content, evidence] of items)
          observations.push({ content, speaker, at, session, evidence: evidenceIds(typeof evidence === 'string' ? [evidence] : evidence) });
      }
    }
    const turns = new Map<string, { speaker: string; text: string }>();
    const sessionList: LocomoConversation['sessions'] = [];
    for (const [key, value] of sessions) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue;
      const number = Number(key.slice('session_'.length));
      const dateText = sessions.get(`${key}_date_time`);
      const said: Array<{ speaker: string; text: string }> = [];
      for (const turn of value) {
        const parsed = turnSchema.safeParse(turn);
        if (!parsed.success) continue;
        turns.set(parsed.data.dia_id, { speaker: parsed.data.speaker, text: parsed.data.text });
        said.push({ speaker: parsed.data.speaker, text: parsed.data.text });
      }
      sessionList.push({ number, at: typeof dateText === 'string' ? sessionDate(dateText) : undefined, turns: said });
    }
    sessionList.sort((a, b) => a.number - b.number);
    const questions: LocomoQuestion[] = [];
    conversation.qa.forEach((qa, position) => {
      const category = QUESTION_CATEGORIES.find((known) => known.category === qa.category)?.category;
      const evidence = evidenceIds(qa.evidence);
      if (category === undefined || evidence.length === 0) return;
      questions.push({ id: `${index}:${position}`, text: qa.question, answer: String(qa.answer ?? ''), category, evidence });
    });
    return { index, sampleId: conversation.sample_id, speakers, observations, questions, turns, sessions: sessionList };
  });
}

/** Whether LoCoMo is where `locomoPath` says. */
export function locomoPresent(env: NodeJS.ProcessEnv = process.env): boolean {
  return existsSync(locomoPath(env));
}
