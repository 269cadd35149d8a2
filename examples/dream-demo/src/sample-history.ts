import { subDays, subHours } from 'date-fns';
import type { Reverie } from 'reverie';

/** What the sample history put into each store, for the demo's opening lines. */
export interface SampleCounts {
  memories: number;
  turns: number;
  sessions: number;
  feedback: number;
  skills: number;
  skillUses: number;
  workflowRuns: number;
}

const iso = (date: Date) => date.toISOString();

/**
 * A few weeks in the life of an agent that helps one user with reports, email and travel,
 * written through the public store interfaces. It holds what a dream cycle is for: exact and
 * near-exact duplicates, one durable fact observed months apart, look-alike episodes of two
 * different trips (which must stay apart), stale entries, sessions with corrections and a
 * request that keeps coming back, overlapping skills, and workflow runs that fail the same way.
 */
export async function seedSampleHistory(reverie: Reverie, now: Date): Promise<SampleCounts> {
  const memory = reverie.memory!;
  const days = (n: number) => iso(subDays(now, n));

  const memories = [
    // The same preference, saved three times in different words.
    {
      content: 'The user prefers metric units.',
      category: 'user-preferences/units',
      tags: ['units'],
      createdAt: days(40),
      lastSeenAt: days(40),
    },
    {
      content: 'the user prefers metric units',
      category: 'user-preferences/units',
      tags: ['units'],
      createdAt: days(12),
      lastSeenAt: days(12),
    },
    {
      content: 'The user prefers metric units!',
      category: 'user-preferences/units',
      tags: ['units', 'formatting'],
      createdAt: days(2),
      lastSeenAt: days(2),
    },
    // One durable fact, observed half a year apart.
    { content: "The user's dog is called Biscuit.", category: 'general', tags: ['pets'], createdAt: days(190), lastSeenAt: days(190) },
    { content: "The user's dog is called Biscuit", category: 'general', tags: ['pets'], createdAt: days(6), lastSeenAt: days(6) },
    // Two trips that read alike but happened at different times: they must stay apart.
    {
      content: 'The user flew to Lisbon for a conference.',
      category: 'episodes',
      tags: ['episode', 'travel'],
      metadata: { 'subject.point': iso(subDays(now, 300)).slice(0, 7) },
      createdAt: days(298),
      lastSeenAt: days(298),
    },
    {
      content: 'The user flew to Lisbon for a conference.',
      category: 'episodes',
      tags: ['episode', 'travel'],
      metadata: { 'subject.point': iso(subDays(now, 20)).slice(0, 7) },
      createdAt: days(18),
      lastSeenAt: days(18),
    },
    // Project context, one of it repeated with different punctuation.
    {
      content: 'Project Atlas ships its weekly status report every Friday at 16:00 CET.',
      category: 'project-context/atlas',
      tags: ['atlas'],
      createdAt: days(60),
      lastSeenAt: days(5),
    },
    {
      content: 'Project Atlas ships its weekly status report every Friday, at 16:00 CET',
      category: 'project-context/atlas',
      tags: ['atlas'],
      createdAt: days(9),
      lastSeenAt: days(9),
    },
    {
      content: 'The Atlas wiki lives at wiki.example.com/atlas and needs a bot token to publish.',
      category: 'project-context/atlas',
      tags: ['atlas', 'wiki'],
      createdAt: days(33),
      lastSeenAt: days(33),
    },
    // Stale entries nobody has looked at for months: decay lowers them.
    {
      content: 'The user was comparing two standing desks in the spring.',
      category: 'general',
      tags: ['shopping'],
      importance: 0.6,
      createdAt: days(160),
      lastSeenAt: days(150),
    },
    {
      content: 'The user once asked for a packing list for a ski trip.',
      category: 'general',
      tags: ['travel'],
      importance: 0.5,
      createdAt: days(220),
      lastSeenAt: days(210),
    },
    // Everyday facts.
    {
      content: 'The user works from Berlin and answers email before 10:00.',
      category: 'general',
      tags: ['work'],
      createdAt: days(80),
      lastSeenAt: days(4),
    },
    {
      content: 'The user writes reports in British English.',
      category: 'user-preferences/writing',
      tags: ['writing'],
      createdAt: days(70),
      lastSeenAt: days(10),
    },
    {
      content: 'The user dislikes long disclaimers at the end of answers.',
      category: 'user-preferences/writing',
      tags: ['writing'],
      createdAt: days(25),
      lastSeenAt: days(25),
    },
    {
      content: "Don't round currency in reports because finance reconciles to the cent — instead keep two decimals.",
      category: 'anti-patterns/reports',
      tags: ['anti-pattern'],
      createdAt: days(45),
      lastSeenAt: days(45),
    },
  ];
  for (const entry of memories) await memory.save(entry);

  const log = reverie.conversationLog!;
  const sessions: Array<{ id: string; daysAgo: number; turns: Array<['user' | 'assistant', string]> }> = [
    {
      id: 'mon-report',
      daysAgo: 13,
      turns: [
        ['user', 'Draft the weekly status report for Atlas from these notes: migration done, two bugs open.'],
        ['assistant', 'Here is a draft of the Atlas weekly status report with the migration and the two open bugs.'],
        ['user', 'Too long. Please stop adding disclaimers at the end.'],
      ],
    },
    {
      id: 'tue-email',
      daysAgo: 12,
      turns: [
        ['user', 'Write a short email to Dana asking to move our 1:1 to Thursday.'],
        ['assistant', 'Draft: "Hi Dana, could we move our 1:1 to Thursday? Thanks!"'],
      ],
    },
    {
      id: 'fri-report',
      daysAgo: 6,
      turns: [
        ['user', 'Weekly status report for Atlas again please: search feature shipped, load tests pending.'],
        ['assistant', 'Draft weekly status report: search shipped; load tests pending. Temperatures in the appendix are in °F.'],
        ['user', '[correction] Never use Fahrenheit. Celsius, always — I told you before.'],
        ['user', 'And again, no disclaimers at the end, it is annoying.'],
      ],
    },
    {
      id: 'sat-trip',
      daysAgo: 5,
      turns: [
        ['user', 'I am back from the Lisbon conference, it was great. [durable]'],
        ['assistant', 'Welcome back! Glad the conference went well.'],
        ['user', 'audit: rotated the wiki bot token [skip]'],
      ],
    },
    {
      id: 'mon-report-2',
      daysAgo: 1,
      turns: [
        ['user', 'Weekly status report for Atlas: load tests passed, release on Thursday.'],
        ['assistant', 'Weekly status report: load tests passed; release planned for Thursday.'],
      ],
    },
  ];
  let turns = 0;
  for (const session of sessions) {
    for (const [index, [role, content]] of session.turns.entries()) {
      await log.append({ sessionId: session.id, role, content, timestamp: iso(subHours(subDays(now, session.daysAgo), -index)) });
      turns++;
    }
  }

  const feedback = [
    {
      kind: 'correction' as const,
      sessionId: 'fri-report',
      text: 'Used Fahrenheit in the report appendix; the user wants Celsius.',
      timestamp: days(6),
    },
    {
      kind: 'session-summary' as const,
      sessionId: 'mon-report',
      rating: 'fair' as const,
      text: 'Report was too long and ended with a disclaimer.',
      timestamp: days(13),
    },
    { kind: 'positive' as const, sessionId: 'tue-email', text: 'The email was exactly right.', timestamp: days(12) },
  ];
  for (const signal of feedback) await reverie.feedback!.record(signal);

  const skills = [
    {
      name: 'reports/weekly-status',
      summary: 'Write the weekly status report for a project.',
      content:
        '# Weekly status report\n\n1. Collect shipped work, open issues and risks.\n2. Write three short sections: Done, Next, Risks.\n3. Keep it under 200 words; no closing disclaimer.\n4. Use metric units and two decimals for money.\n',
      createdAt: days(90),
    },
    {
      name: 'reports/status-update',
      summary: 'Turn notes into a status update.',
      content: '# Status update\n\nSummarise the notes into Done / Next / Risks. Keep it short.\n',
      createdAt: days(40),
    },
    {
      name: 'reports/publish-wiki',
      summary: 'Publish a report to the project wiki.',
      content: 'Upload the report page to the wiki with the bot token.',
      createdAt: days(30),
    },
    {
      name: 'mcp/email',
      summary: 'Send email through the mail server binding.',
      content: '# Email (live binding)\n\nCall the `mail.send` tool with to, subject and body. Confirm the recipient first.\n',
      createdAt: days(120),
    },
    {
      name: 'mcp/calendar',
      summary: 'Read and change calendar events through the calendar binding.',
      content: '# Calendar (live binding)\n\nUse `calendar.find` before `calendar.move`; never delete events without asking.\n',
      createdAt: days(120),
    },
    {
      name: 'writing/email-tone',
      summary: 'Tone for short work emails.',
      content: 'Friendly, short, one ask per email.',
      createdAt: days(50),
    },
    {
      name: 'travel/packing-list',
      summary: 'Make a packing list for a trip.',
      content: '# Packing list\n\nAsk for destination, length and weather; group by clothes, documents, electronics.\n',
      createdAt: days(200),
    },
  ];
  for (const skill of skills) await reverie.skills!.save(skill);

  const uses: Array<[string, string, number]> = [
    ['reports/weekly-status', 'mon-report', 13],
    ['reports/status-update', 'mon-report', 13],
    ['mcp/email', 'tue-email', 12],
    ['writing/email-tone', 'tue-email', 12],
    ['reports/weekly-status', 'fri-report', 6],
    ['reports/status-update', 'fri-report', 6],
    ['reports/publish-wiki', 'fri-report', 6],
    ['reports/weekly-status', 'mon-report-2', 1],
  ];
  for (const [skill, sessionId, daysAgo] of uses) await reverie.skillUsage!.record({ skill, sessionId, timestamp: days(daysAgo) });

  const runs: Array<{ description: string; skill: string; success: boolean; failedStep?: string; error?: string; daysAgo: number }> = [
    ...[11, 8, 6, 1].map((daysAgo) => ({
      description: 'Publish the weekly report to the Atlas wiki',
      skill: 'reports/publish-wiki',
      success: false,
      failedStep: 'upload page',
      error: 'HTTP 403: the bot token lacks the "pages:write" scope',
      daysAgo,
    })),
    ...[12, 10, 8, 6, 4, 2].map((daysAgo) => ({
      description: 'Move a meeting on the calendar',
      skill: 'mcp/calendar',
      success: true,
      daysAgo,
    })),
  ];
  for (const { daysAgo, ...run } of runs) await reverie.workflowLog!.append({ ...run, timestamp: days(daysAgo) });

  return {
    memories: memories.length,
    turns,
    sessions: sessions.length,
    feedback: feedback.length,
    skills: skills.length,
    skillUses: uses.length,
    workflowRuns: runs.length,
  };
}
