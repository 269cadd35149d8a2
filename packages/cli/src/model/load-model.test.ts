import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors/cli-error';
import { loadModel } from './load-model';

describe('loadModel', () => {
  it('is undefined when REVERIE_MODEL is not set or blank', async () => {
    expect(await loadModel({})).toBeUndefined();
    expect(await loadModel({ REVERIE_MODEL: '  ' })).toBeUndefined();
  });

  it('builds each provider without contacting it', async () => {
    const cases = [
      [{ REVERIE_MODEL: 'openai:gpt-4.1-mini', OPENAI_API_KEY: 'sk-test' }, 'openai', 'gpt-4.1-mini'],
      [{ REVERIE_MODEL: 'anthropic:claude-sonnet-4-5', ANTHROPIC_API_KEY: 'sk-ant-test' }, 'anthropic', 'claude-sonnet-4-5'],
      [{ REVERIE_MODEL: 'ollama:llama3.1:8b' }, 'ollama', 'llama3.1:8b'],
      [{ REVERIE_MODEL: 'http://127.0.0.1:9/v1#local-model' }, 'openai-compatible', 'local-model'],
    ] as const;
    for (const [env, provider, modelId] of cases) {
      const loaded = (await loadModel(env))!;
      expect(loaded.spec.provider).toBe(provider);
      const model = loaded.model as { provider: string; modelId: string; specificationVersion: string };
      expect(model.modelId).toBe(modelId);
      expect(model.provider.startsWith(provider)).toBe(true);
      expect(model.specificationVersion).toBe('v3');
    }
  });

  it('refuses a provider whose API key is missing, and a bad spec, as usage errors', async () => {
    await expect(loadModel({ REVERIE_MODEL: 'openai:gpt-4.1-mini' })).rejects.toThrow(
      new UsageError('REVERIE_MODEL=openai:gpt-4.1-mini needs OPENAI_API_KEY to be set'),
    );
    await expect(loadModel({ REVERIE_MODEL: 'gpt-4.1-mini' })).rejects.toBeInstanceOf(UsageError);
  });
});
