import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, expect, it } from 'vitest';
import { runDreamDemo } from './dream-demo';

/**
 * SPEC B4, B11: a real model's replies to every pass's prompt, recorded through the bridge in
 * `../shared/tools/` on the demo's history (`recorded/`: each `<pass>.1.prompt.md` and the reply
 * a model wrote after reading only that prompt). Replayed on a fresh demo, they go through
 * today's guards: every pass that got a reply applies it, refusing nothing but what the
 * strict rule for protected entries refuses by design.
 *
 * Entry ids are random per run, so the replay maps each recorded id to today's by the line the
 * prompt shows for it (category, dates and content), the way a model refers to what it is shown.
 */
const RECORDED = join(__dirname, '..', 'recorded');
const RECORDED_AT = new Date('2026-11-23T10:00:00.000Z');

interface Recording {
  pass: string;
  system: string;
  prompt: string;
  reply: string;
}

const recordings: Recording[] = readdirSync(RECORDED)
  .filter((file) => file.endsWith('.prompt.md'))
  .map((file) => {
    const text = readFileSync(join(RECORDED, file), 'utf8');
    const [system, prompt] = text.replace(/^## system\n/, '').split('\n## user\n') as [string, string];
    return {
      pass: file.replace('.1.prompt.md', ''),
      system: system.trim(),
      prompt,
      reply: readFileSync(join(RECORDED, file.replace('.prompt.md', '.reply.md')), 'utf8'),
    };
  });

/** Text of the system and user messages of a request. */
function messages(prompt: Array<{ role: string; content: unknown }>): { system: string; user: string } {
  const text = (content: unknown) =>
    typeof content === 'string' ? content : (content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('');
  return {
    system: prompt
      .filter((message) => message.role === 'system')
      .map((message) => text(message.content))
      .join('\n')
      .trim(),
    user: prompt
      .filter((message) => message.role === 'user')
      .map((message) => text(message.content))
      .join('\n'),
  };
}

/** Recorded id → today's id, matched by the rest of the line each prompt shows for the entry. */
function idMap(recorded: string, today: string): Map<string, string> {
  const byLine = (text: string) => new Map([...text.matchAll(/\[([0-9a-f]{12})\]([^\n]*)/g)].map((match) => [match[2]!.trim(), match[1]!]));
  const now = byLine(today);
  const map = new Map<string, string>();
  for (const [line, id] of byLine(recorded)) {
    const current = now.get(line);
    if (current) map.set(id, current);
  }
  return map;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('a real model replies to every pass of the demo, and the guards take its work', { timeout: 60_000 }, async () => {
  const answered: string[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      const { system, user } = messages(options.prompt as Array<{ role: string; content: unknown }>);
      // Matched by the directive's opening line: the directive may have been reworded since the recording.
      const recording = recordings.find((candidate) => candidate.system.split('\n')[0] === system.split('\n')[0]);
      let text = '{}';
      if (recording) {
        answered.push(recording.pass);
        text = recording.reply;
        for (const [from, to] of idMap(recording.prompt, user)) text = text.replaceAll(from, to);
      }
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } },
        warnings: [],
      };
    },
  });
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-recorded-demo-'));
  dirs.push(dataPath);
  const result = await runDreamDemo({ dataPath, model, modelName: 'recorded', now: RECORDED_AT, print: () => {} });

  expect([...new Set(answered)].sort()).toEqual(recordings.map((recording) => recording.pass).sort());
  for (const outcome of result.report.passes.filter((candidate) => answered.includes(candidate.name))) {
    expect(outcome, outcome.name).toMatchObject({ status: 'ok' });
    if (outcome.status === 'skipped') continue;
    // One refusal is by design: the model rewrote the protected "The user prefers metric units!"
    // with what the correction feedback says ("Celsius rather than Fahrenheit"); a protected
    // entry takes no new facts (strict novelty), and the model's anti-pattern carries them instead.
    const unexpected = outcome.refusals.filter((refusal) => !/asked the model once to replace just those|Fahrenheit/.test(refusal));
    expect(unexpected, outcome.name).toEqual([]);
    expect(outcome.misbehaviour ?? [], outcome.name).toEqual([]);
    const reply = JSON.parse(recordings.find((recording) => recording.pass === outcome.name)!.reply) as Record<string, unknown>;
    const proposed = Object.values(reply).some((value) => Array.isArray(value) && value.length > 0);
    if (proposed) expect(outcome.applied, outcome.name).toBeGreaterThan(0);
  }
});
