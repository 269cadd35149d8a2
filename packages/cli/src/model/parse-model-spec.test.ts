import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors/cli-error';
import { formatModelSpec, parseModelSpec } from './parse-model-spec';

describe('parseModelSpec', () => {
  it.each([
    ['openai:gpt-4.1-mini', { provider: 'openai', model: 'gpt-4.1-mini' }],
    ['anthropic:claude-sonnet-4-5', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
    ['ollama:llama3.1:8b', { provider: 'ollama', model: 'llama3.1:8b' }],
    ['  OpenAI:gpt-4o ', { provider: 'openai', model: 'gpt-4o' }],
    ['http://localhost:8080/v1#qwen2.5', { provider: 'openai-compatible', baseURL: 'http://localhost:8080/v1', model: 'qwen2.5' }],
    [
      'https://llm.example.com/v1/#org/model:free',
      { provider: 'openai-compatible', baseURL: 'https://llm.example.com/v1', model: 'org/model:free' },
    ],
  ])('reads %j', (raw, expected) => {
    expect(parseModelSpec(raw)).toEqual(expected);
  });

  it.each([
    ['', 'is empty'],
    ['gpt-4o', 'names no provider'],
    ['mistral:large', 'has an unknown provider "mistral"'],
    ['openai:', 'names no model'],
    ['not a url#model', 'has no valid base URL before "#"'],
    ['ftp://host/v1#model', 'needs an http:// or https:// base URL'],
    ['http://localhost:8080/v1#', 'names no model after "#"'],
  ])('refuses %j (%s) with a usage error that lists the forms', (raw, why) => {
    let caught: unknown;
    try {
      parseModelSpec(raw);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as Error).message).toBe(
      `REVERIE_MODEL=${JSON.stringify(raw)} ${why}: use openai:<model>, anthropic:<model>, ollama:<model> or <base-url>#<model>`,
    );
  });

  it('reads back what it parsed', () => {
    for (const raw of ['openai:gpt-4.1-mini', 'ollama:llama3.1:8b', 'http://localhost:8080/v1#qwen2.5']) {
      expect(formatModelSpec(parseModelSpec(raw))).toBe(raw);
    }
  });
});
