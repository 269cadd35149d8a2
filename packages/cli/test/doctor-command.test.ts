import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '@reverie/core';
import { RunFolder } from '@reverie/file-store/internal';
import { FileMemoryStore } from '@reverie/file-store';
import { runReverie, tempDir } from './__fixtures__/run-reverie';

interface DoctorJson {
  dataPath: string;
  checks: Array<{ name: string; status: string; detail: string }>;
  quarantined: string[];
  plan: Array<{ name: string; status: string; reason?: string }>;
  options: Record<string, unknown> | null;
}

let dir: ReturnType<typeof tempDir>;
let data: string[];
beforeEach(() => {
  dir = tempDir();
  data = ['--data', dir.dataPath];
});
afterEach(() => dir.remove());

const statusOf = (report: DoctorJson) => Object.fromEntries(report.checks.map((check) => [check.name, check.status]));

describe('reverie doctor', () => {
  it('reports a healthy data directory, the pass plan and the options in force', async () => {
    const memory = new FileMemoryStore({ dataPath: dir.dataPath });
    await memory.save({ content: 'The user wants metric units', category: 'preferences' });
    await memory.close();
    const result = await runReverie([...data, 'doctor', '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as DoctorJson;
    expect(statusOf(report)).toEqual({
      model: 'warn',
      'data directory': 'ok',
      memory: 'ok',
      skills: 'ok',
      'conversation log': 'ok',
      quarantine: 'ok',
      'dream runs': 'ok',
      'dream lock': 'ok',
      'last runs': 'ok',
    });
    expect(report.checks.find((check) => check.name === 'memory')!.detail).toBe('1 entry in 1 category');
    expect(report.checks.find((check) => check.name === 'last runs')!.detail).toBe(
      'light-sleep never ran; rem never ran; deep-sleep never ran',
    );
    expect(report.plan.find((pass) => pass.name === 'episode-extraction')).toMatchObject({
      status: 'skipped',
      reason: 'needs a language model: set REVERIE_MODEL',
    });
    expect(report.plan.find((pass) => pass.name === 'importance-decay')).toMatchObject({ status: 'would-run' });
    expect(report.options).toMatchObject({ archive: { retentionDays: 90 } });

    const text = await runReverie([...data, 'doctor']);
    expect(text.stdout).toMatch(/^ {2}ok {4}memory {12}1 entry in 1 category$/m);
    expect(text.stdout).toContain('  consolidation.protectedCategories = ["user-preferences"]');
  });

  it('warns about quarantined files and runs left running; reads the options file', async () => {
    mkdirSync(join(dir.dataPath, 'memory', '.quarantine'), { recursive: true });
    writeFileSync(join(dir.dataPath, 'memory', '.quarantine', 'preferences__abc.json'), '{ torn');
    const stuck = newId();
    await RunFolder.create(dir.dataPath, stuck, 'schedule', new Date());
    const options = join(dir.root, 'dreaming.json');
    writeFileSync(options, JSON.stringify({ archive: { retentionDays: 30 } }));

    const result = await runReverie([...data, 'doctor', '--options', options, '--format', 'json'], {
      env: { REVERIE_MODEL: 'ollama:llama3.1:8b', OLLAMA_BASE_URL: 'http://gpu-box:11434/v1' },
    });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as DoctorJson;
    expect(statusOf(report)).toMatchObject({ model: 'ok', quarantine: 'warn', 'dream runs': 'warn' });
    expect(report.checks.find((check) => check.name === 'model')!.detail).toBe(
      'ollama:llama3.1:8b at http://gpu-box:11434/v1 (not contacted)',
    );
    expect(report.quarantined).toEqual([join('memory', '.quarantine', 'preferences__abc.json')]);
    expect(report.checks.find((check) => check.name === 'dream runs')!.detail).toContain(`${stuck} still marked running`);
    expect(report.options).toMatchObject({ archive: { retentionDays: 30 } });
  });

  it('exits 1 when a check fails and 3 when the data directory cannot be used, with one error line', async () => {
    mkdirSync(dir.dataPath);
    const keyless = await runReverie([...data, 'doctor'], { env: { REVERIE_MODEL: 'openai:gpt-4.1-mini' } });
    expect(keyless.code).toBe(1);
    expect(keyless.stdout).toMatch(/^ {2}fail {2}model .*openai:gpt-4\.1-mini needs OPENAI_API_KEY, which is not set$/m);
    expect(keyless.stderr).toBe('reverie: doctor found problems with: model\n');

    const missing = await runReverie(['--data', join(dir.root, 'nowhere'), 'doctor', '--format', 'json']);
    expect(missing.code).toBe(3);
    expect(statusOf(JSON.parse(missing.stdout) as DoctorJson)).toMatchObject({ 'data directory': 'fail' });
    expect(missing.stderr).toBe('reverie: doctor found problems with: data directory\n');
  });
});

describe('reverie doctor and the memory commands on text that once broke the store (SPEC M2)', () => {
  it('"constructor" saves, lists, searches and checks; a record set aside under a category is named', async () => {
    const add = await runReverie([
      ...data,
      'memory',
      'add',
      'Call the constructor of the class, then toString',
      '--category',
      'code/__proto__',
      '--tags',
      'constructor,valueOf',
    ]);
    expect(add.code, add.stderr).toBe(0);
    for (const args of [
      ['memory', 'list'],
      ['memory', 'search', 'constructor'],
      ['memory', 'categories'],
    ]) {
      const result = await runReverie([...data, ...args]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/constructor|__proto__/);
    }
    mkdirSync(join(dir.dataPath, 'memory', '.quarantine', 'code'), { recursive: true });
    writeFileSync(join(dir.dataPath, 'memory', '.quarantine', 'code', 'abcabcabcabc.json.2026-03-01T12-00-00-000Z.0a0b0c0d'), '{}');
    const doctor = await runReverie([...data, 'doctor', '--format', 'json']);
    expect(doctor.code, doctor.stderr).toBe(0);
    const report = JSON.parse(doctor.stdout) as DoctorJson;
    expect(statusOf(report)).toMatchObject({ memory: 'ok', quarantine: 'warn' });
    expect(report.quarantined).toEqual([join('memory', '.quarantine', 'code', 'abcabcabcabc.json.2026-03-01T12-00-00-000Z.0a0b0c0d')]);
  });
});
