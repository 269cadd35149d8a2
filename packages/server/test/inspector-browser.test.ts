import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspector } from '../src/index';
import { DEPLOY_MERGE, serveDreamedMemory } from './__fixtures__/dreamed-memory';
import type { Served } from './served-reverie';

/** Debian's Chromium, which .ci/run installs; without it this suite skips and says why. */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const OUTPUT = fileURLToPath(new URL('../test-output/', import.meta.url));
const TOKEN = 'browser-token-0123456789';

const title = hasChromium
  ? 'the inspector page in Chromium'
  : `the inspector page in Chromium — skipped: ${CHROMIUM} is missing (install Debian's chromium package; .ci/run does)`;

describe.skipIf(!hasChromium)(title, () => {
  let site: string;
  let served: (Served & { runId: string }) | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    // The page as `pnpm build` builds it, built afresh so the test never runs a stale bundle.
    site = await mkdtemp(join(tmpdir(), 'reverie-inspector-build-'));
    await build({
      configFile: fileURLToPath(new URL('../inspector/vite.config.ts', import.meta.url)),
      build: { outDir: site, emptyOutDir: true },
      logLevel: 'error',
    });
    await mkdir(OUTPUT, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await rm(site, { recursive: true, force: true });
  });

  it('asks for the token, searches, opens the run, reads its diff, undoes it, shows the entries restored, and applies a reviewed plan', async () => {
    served = await serveDreamedMemory({ token: TOKEN, extensions: [inspector({ assets: site })] });
    const page = await browser!.newPage({ viewport: { width: 1360, height: 900 } });
    const problems = watchForProblems(page);

    await page.goto(`${served.server.url}/inspector/`);
    const tokenField = page.getByLabel(/needs its token/);
    await tokenField.fill(TOKEN);
    await page.getByRole('button', { name: 'Use this token' }).click();
    await eventually(() => page.getByRole('button', { name: /^work\/deploys/ }).count()).toBe(1);

    // Search: the merged entry, and its history names the run that created it.
    await page.getByRole('searchbox').fill('deploys Fridays');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('link', { name: DEPLOY_MERGE.content }).click();
    const entry = page.getByRole('region', { name: 'Entry' });
    await eventually(() => entry.getByText(`by run ${served!.runId}`).count()).toBe(1);
    await page.screenshot({ path: join(OUTPUT, 'inspector-memory.png'), fullPage: true });

    // The run: its passes and its diff, each changed entry before and after.
    await page.getByRole('link', { name: 'Dream runs' }).click();
    await page.getByRole('link', { name: served.runId }).click();
    await eventually(() => page.getByRole('heading', { name: `Run ${served!.runId}` }).count()).toBe(1);
    const diff = page.locator('ol.changes');
    await eventually(() => diff.locator('> li').count()).toBe(3);
    for (const source of DEPLOY_MERGE.sources) expect(await diff.locator('td.before', { hasText: source }).count()).toBe(1);
    expect(await diff.locator('td.after', { hasText: DEPLOY_MERGE.content }).count()).toBe(1);
    expect(await page.locator('table.outcomes tr', { hasText: 'memory-consolidation' }).innerText()).toContain('ok');
    await page.screenshot({ path: join(OUTPUT, 'inspector-run.png'), fullPage: true });

    // Undo it.
    await page.getByRole('button', { name: 'Undo this run' }).click();
    await page.getByRole('button', { name: 'Confirm undo' }).click();
    await eventually(() => page.getByRole('status').innerText()).toContain('2 restored, 1 removed');

    // The entries are back, and their history says the run was undone.
    await page.getByRole('link', { name: 'Memory' }).click();
    await page.getByRole('searchbox').fill('deploys Fridays');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('link', { name: DEPLOY_MERGE.sources[1]! }).click();
    await eventually(() => entry.getByText('undone').count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: DEPLOY_MERGE.content }).count()).toBe(0);
    await page.screenshot({ path: join(OUTPUT, 'inspector-restored.png'), fullPage: true });
    expect((await served.reverie.memory!.list()).map((stored) => stored.content)).toEqual(expect.arrayContaining(DEPLOY_MERGE.sources));

    // Plan a cycle (a dry run) over two wordings of a new fact, review what it would change, apply that plan.
    await served.reverie.memory!.save({ content: 'The office is closed on Mondays', category: 'work/office' });
    await served.reverie.memory!.save({ content: 'the office is closed on mondays.', category: 'work/office' });
    await page.getByRole('link', { name: 'Plans' }).click();
    await page.getByRole('button', { name: 'Plan a cycle now' }).click();
    await eventually(() => page.locator('.planned li', { hasText: /duplicates merged/ }).count()).toBe(1);
    const office = async () => (await served!.reverie.memory!.list()).filter((stored) => /office is closed/i.test(stored.content));
    expect(await office()).toHaveLength(2);
    await page.getByRole('button', { name: 'Apply this plan' }).click();
    await eventually(() => page.getByRole('status').innerText()).toContain('Applied as run');
    expect(await office()).toHaveLength(1);

    // Status by phase, and the ledger as a chart.
    await page.getByRole('link', { name: 'Status' }).click();
    await eventually(() => page.locator('svg rect.bar.rem').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(OUTPUT, 'inspector-status.png'), fullPage: true });

    expect(problems).toEqual([]);
  });
});

/** Polls until the page shows what is expected: a shared machine can take seconds to answer. */
const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });

/**
 * Console errors (a Content-Security-Policy violation is one), failed requests and error answers,
 * other than the 401s that ask for the token.
 */
function watchForProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('status of 401')) problems.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && response.status() !== 401) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
  return problems;
}
