import type { Reverie } from 'reverie';

/** The fixture's "now": the clock of the test that uses it should start here. */
export const FIXTURE_NOW = '2026-06-15T09:00:00.000Z';

const DAY = 86_400_000;
const daysAgo = (days: number, hour = 0) => new Date(Date.parse(FIXTURE_NOW) - days * DAY + hour * 3_600_000).toISOString();

/** What the fixture wrote that a scripted model's replies have to name. */
export interface RealisticAgent {
  memoryIds: Record<'metricA' | 'metricB' | 'atlasDayA' | 'atlasDayB' | 'stale', string>;
  /** Seqs of user turns, by label. */
  seqs: Record<'fahrenheit1' | 'fahrenheit2' | 'disclaimers' | 'bankCard', number>;
  /** The sessions in which the same kind of request (invoices to spreadsheets) came back. */
  invoiceSessions: string[];
  skillCount: number;
  lastSeq: number;
}

const SESSIONS: Array<{ id: string; daysAgo: number; turns: Array<[label: string | null, role: 'user' | 'assistant', content: string]> }> =
  [
    {
      id: 'invoice-1',
      daysAgo: 12,
      turns: [
        [null, 'user', 'Convert the supplier invoice PDF from Nordwind into a spreadsheet with one row per line item.'],
        [null, 'assistant', 'Done: 14 line items, totals checked against the PDF.'],
      ],
    },
    {
      id: 'report-1',
      daysAgo: 11,
      turns: [
        [null, 'user', 'Draft the weekly status report for Atlas: migration finished, two bugs open.'],
        [null, 'assistant', 'Here is the weekly report. Temperatures in the appendix are in °F. Disclaimer: figures may change.'],
        ['fahrenheit1', 'user', '[correction] Not Fahrenheit, please. Celsius.'],
      ],
    },
    {
      id: 'invoice-2',
      daysAgo: 9,
      turns: [
        [null, 'user', 'Another supplier invoice to convert into a spreadsheet, this one from Baltic Paper.'],
        [null, 'assistant', 'Converted; the VAT column was missing in the PDF, I computed it.'],
      ],
    },
    {
      id: 'small-talk',
      daysAgo: 8,
      turns: [
        [null, 'user', 'What is a good name for a sourdough starter?'],
        [null, 'assistant', 'How about "Clint Yeastwood"?'],
        [null, 'user', 'ops note: the staging password is hunter2 [skip]'],
      ],
    },
    {
      id: 'report-2',
      daysAgo: 4,
      turns: [
        [null, 'user', 'Weekly status report for Atlas again: search shipped, load tests pending.'],
        [null, 'assistant', 'Report drafted. The server room ran at 77 °F. Disclaimer: this is not financial advice.'],
        ['fahrenheit2', 'user', '[correction] Again Fahrenheit! Always Celsius. I am tired of repeating this.'],
        ['disclaimers', 'user', 'And drop the disclaimers at the end, they are pointless.'],
      ],
    },
    {
      id: 'invoice-3',
      daysAgo: 2,
      turns: [
        [null, 'user', 'Convert this invoice into a spreadsheet too; supplier is Nordwind again.'],
        [null, 'assistant', 'Converted: 9 line items.'],
        ['bankCard', 'user', 'Never paste my company card number into a spreadsheet, even if the invoice shows it. [durable]'],
      ],
    },
  ];

/**
 * Several weeks of an agent's life through the public API: duplicated memories, corrections,
 * feedback, a request that recurs across sessions without a skill for it, 30+ skills (some
 * overlapping, some sparse, some protected bindings) with usage, and workflow runs that fail the
 * same way or succeed consistently. Dates are relative to `FIXTURE_NOW`.
 */
export async function seedRealisticAgent(reverie: Reverie): Promise<RealisticAgent> {
  const memory = reverie.memory!;
  const save = async (content: string, category: string, days: number, extra: { importance?: number; tags?: string[] } = {}) =>
    (await memory.save({ content, category, createdAt: daysAgo(days), lastSeenAt: daysAgo(days), ...extra })).id;

  const metricA = await save('The user prefers metric units.', 'user-preferences/units', 40);
  const metricB = await save('the user prefers metric units', 'user-preferences/units', 3);
  const atlasDayA = await save('Atlas status reports are due every Friday.', 'project-context/atlas', 30);
  const atlasDayB = await save('The Atlas weekly report has to be sent on Fridays.', 'project-context/atlas', 6);
  const stale = await save('The user was comparing two standing desks.', 'general', 150, { importance: 0.6 });
  await save('The user works from Berlin.', 'general', 20);
  await save('Invoices from Nordwind arrive as scanned PDFs.', 'project-context/finance', 12);

  const seqs: Partial<RealisticAgent['seqs']> = {};
  let lastSeq = 0;
  for (const session of SESSIONS) {
    for (const [index, [label, role, content]] of session.turns.entries()) {
      const turn = await reverie.conversationLog!.append({
        sessionId: session.id,
        role,
        content,
        timestamp: daysAgo(session.daysAgo, index),
      });
      if (label) seqs[label as keyof RealisticAgent['seqs']] = turn.seq;
      lastSeq = turn.seq;
    }
  }

  const feedback = reverie.feedback!;
  await feedback.record({
    kind: 'correction',
    sessionId: 'report-1',
    text: 'Used Fahrenheit in the report; the user wants Celsius.',
    timestamp: daysAgo(11),
  });
  await feedback.record({
    kind: 'correction',
    sessionId: 'report-2',
    text: 'Fahrenheit again, and a disclaimer the user did not want.',
    timestamp: daysAgo(4),
  });
  await feedback.record({
    kind: 'session-summary',
    sessionId: 'report-2',
    rating: 'poor',
    text: 'Repeated a mistake the user had corrected.',
    timestamp: daysAgo(4),
  });
  await feedback.record({ kind: 'positive', sessionId: 'invoice-2', text: 'Computing the VAT column was helpful.', timestamp: daysAgo(9) });

  const skills = reverie.skills!;
  const skillDrafts: Array<{ name: string; summary: string; content: string; days: number }> = [
    {
      name: 'reports/weekly-status',
      summary: 'Write the weekly status report of a project.',
      content: longProcedure('Weekly status report', [
        'Collect what shipped, what is open and the risks.',
        'Write Done / Next / Risks, under 200 words.',
        'Use the units of the source notes.',
      ]),
      days: 90,
    },
    {
      name: 'reports/status-update',
      summary: 'Turn notes into a short status update.',
      content: longProcedure('Status update', ['Summarise the notes as Done / Next / Risks.', 'Keep it short.']),
      days: 60,
    },
    {
      name: 'reports/publish-wiki',
      summary: 'Publish a report page to the project wiki.',
      content: longProcedure('Publish to the wiki', ['Render the report as wiki markup.', 'Upload the page with the bot token.']),
      days: 30,
    },
    { name: 'reports/monthly-summary', summary: 'Monthly summary for stakeholders.', content: 'Summarise the month.', days: 45 },
    {
      name: 'mcp/email',
      summary: 'Send email through the mail binding.',
      content: longProcedure('Email (live binding)', ['Call mail.send with to, subject, body.', 'Confirm the recipient first.']),
      days: 120,
    },
    {
      name: 'mcp/calendar',
      summary: 'Read and move calendar events through the calendar binding.',
      content: longProcedure('Calendar (live binding)', ['calendar.find before calendar.move.', 'Never delete events without asking.']),
      days: 120,
    },
    { name: 'mcp/drive', summary: 'Files through the drive binding.', content: 'drive.get / drive.put', days: 120 },
    { name: 'mcp/chat', summary: 'Post messages through the chat binding.', content: 'chat.post', days: 120 },
  ];
  const topics = [
    'email-tone',
    'meeting-notes',
    'travel-booking',
    'expense-claims',
    'code-review',
    'release-notes',
    'bug-triage',
    'onboarding',
    'interview-notes',
    'okr-drafting',
    'budget-sheet',
    'vendor-comparison',
    'contract-summary',
    'press-release',
    'newsletter',
    'customer-reply',
    'slide-outline',
    'data-cleanup',
    'sql-query',
    'chart-choice',
    'translation',
    'proofreading',
    'agenda',
  ];
  for (const [index, topic] of topics.entries()) {
    const group = ['writing', 'work', 'data'][index % 3]!;
    skillDrafts.push({
      name: `${group}/${topic}`,
      summary: `How to handle ${topic.replace(/-/g, ' ')}.`,
      content:
        index % 4 === 0
          ? `Short notes on ${topic}.`
          : longProcedure(topic, [
              `Ask what the ${topic.replace(/-/g, ' ')} is for.`,
              'Draft, then check against the request.',
              'Keep the result short and concrete.',
            ]),
      days: 20 + index * 3,
    });
  }
  for (const draft of skillDrafts)
    await skills.save({ name: draft.name, summary: draft.summary, content: draft.content, createdAt: daysAgo(draft.days) });

  const usage = reverie.skillUsage!;
  const uses: Array<[string, string, number]> = [
    ['reports/weekly-status', 'report-1', 11],
    ['reports/status-update', 'report-1', 11],
    ['reports/weekly-status', 'report-2', 4],
    ['reports/status-update', 'report-2', 4],
    ['reports/publish-wiki', 'report-2', 4],
    ['work/budget-sheet', 'invoice-1', 12],
    ['work/budget-sheet', 'invoice-2', 9],
    ['mcp/email', 'small-talk', 8],
  ];
  for (const [skill, sessionId, days] of uses) await usage.record({ skill, sessionId, timestamp: daysAgo(days) });

  const workflows = reverie.workflowLog!;
  for (const days of [10, 7, 4, 1]) {
    await workflows.append({
      description: 'Publish the weekly report to the Atlas wiki',
      skill: 'reports/publish-wiki',
      success: false,
      failedStep: 'upload page',
      error: 'HTTP 403: the bot token lacks the pages:write scope',
      timestamp: daysAgo(days),
    });
  }
  for (const days of [13, 11, 9, 6, 3, 1]) {
    await workflows.append({
      description: 'Move a meeting on the calendar',
      skill: 'mcp/calendar',
      success: true,
      timestamp: daysAgo(days),
    });
  }

  return {
    memoryIds: { metricA, metricB, atlasDayA, atlasDayB, stale },
    seqs: seqs as RealisticAgent['seqs'],
    invoiceSessions: ['invoice-1', 'invoice-2', 'invoice-3'],
    skillCount: skillDrafts.length,
    lastSeq,
  };
}

function longProcedure(title: string, steps: string[]): string {
  return `# ${title}\n\n${steps.map((step, index) => `${index + 1}. ${step}`).join('\n')}\n\nCheck the result against the request before answering, and say what you could not do.\n`;
}
