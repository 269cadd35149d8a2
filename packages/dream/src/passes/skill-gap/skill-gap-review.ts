import { type Skill, skillNameSchema, skillSchema } from '@reverie/core';
import { matchesAnySkillPattern } from '@reverie/core/internal';
import type { DreamOperation } from '@reverie/dream-state';
import { filterSeeAlso, stripSkillTags } from '../skill-common/skill-draft-hygiene';
import type { ProposedSkill, SkillGapReply } from './skill-gap-reply';

/** What one call showed the model, for the guards. */
export interface GapCallScope {
  /** 1-based number of the call in the run (for messages). */
  call: number;
  /** The sessions whose turns were sent in this call. */
  sessions: ReadonlySet<string>;
}

interface AcceptedSkill {
  skill: Skill;
  /** The related names the model gave, checked once every call is in. */
  seeAlso: readonly string[];
  sessions: readonly string[];
}

const quoted = (values: readonly string[]) => values.map((value) => JSON.stringify(value)).join(', ');

/**
 * SPEC D8, D17, B4: the guards every skill-gap reply goes through, one proposal at a time, and
 * the skills the run will create. Replies of several calls accumulate here.
 *
 * - A proposal must cite at least `minSessions` distinct sessions that were sent in its own call;
 *   ids the call did not send (made up, or from another call) do not count and are reported.
 * - Its name (retention hints removed) must be a valid skill name, must not exist yet, must not
 *   match a protected pattern, and must not repeat a name proposed earlier in the run (the first
 *   proposal wins).
 * - Retention hints are stripped from name, summary and content; an empty summary or content is
 *   refused. `seeAlso` keeps only names of skills that exist or that this run creates.
 * - An accepted proposal becomes a `skill.save` with `expectUpdatedAt: null` (the name must still
 *   be free when the run is applied), createdAt = updatedAt = now, never used.
 */
export class SkillGapReview {
  readonly refusals: string[] = [];
  readonly notes: string[] = [];
  private readonly existing: ReadonlySet<string>;
  private readonly accepted = new Map<string, AcceptedSkill>();
  private readonly stamp: string;

  constructor(
    skills: readonly Skill[],
    private readonly options: { minSessions: number; protectedSkills: readonly string[]; now: Date },
  ) {
    this.existing = new Set(skills.map((skill) => skill.name));
    this.stamp = options.now.toISOString();
  }

  /** Checks one call's reply proposal by proposal and records what passes. */
  review(reply: SkillGapReply, scope: GapCallScope): void {
    reply.skills.forEach((item, index) =>
      this.reviewItem(item, `call ${scope.call}, skill ${index + 1} (${JSON.stringify(item.name)})`, scope),
    );
  }

  /** How many skills the run will create. */
  get created(): number {
    return this.accepted.size;
  }

  /** One `skill.save` per accepted proposal, its seeAlso narrowed to skills that exist or are created here. */
  operations(): DreamOperation[] {
    const known = new Set([...this.existing, ...this.accepted.keys()]);
    return [...this.accepted.values()].map(({ skill, seeAlso, sessions }) => {
      const related = filterSeeAlso(seeAlso, known, skill.name);
      if (related.dropped.length > 0) this.notes.push(`${skill.name}: seeAlso ${quoted(related.dropped)} dropped: no such skill`);
      return {
        op: 'skill.save',
        skill: { ...skill, seeAlso: related.kept },
        expectUpdatedAt: null,
        reason: `skill-gap: new skill for a request seen in ${sessions.length} sessions (${quoted(sessions)})`,
      };
    });
  }

  private reviewItem(item: ProposedSkill, where: string, scope: GapCallScope): void {
    const refuse = (reason: string): void => {
      this.refusals.push(`${where} refused: ${reason}`);
    };
    const draft = stripSkillTags(item);
    const name = skillNameSchema.safeParse(draft.name);
    if (!name.success)
      return refuse(
        `${JSON.stringify(draft.name)} is not a valid skill name (${name.error.issues.map((issue) => issue.message).join('; ')})`,
      );
    if (this.existing.has(draft.name)) return refuse(`a skill named ${JSON.stringify(draft.name)} exists already`);
    if (matchesAnySkillPattern(draft.name, this.options.protectedSkills))
      return refuse(`${JSON.stringify(draft.name)} matches a protected skill pattern`);
    if (this.accepted.has(draft.name))
      return refuse(`${JSON.stringify(draft.name)} was already proposed earlier in this run; the first proposal wins`);
    if (draft.summary === '') return refuse('its summary is empty');
    if (draft.content === '') return refuse('its content is empty');

    const cited = [...new Set(item.sessionIds.map((id) => id.trim()))];
    const sent = cited.filter((id) => scope.sessions.has(id));
    const foreign = cited.filter((id) => !scope.sessions.has(id));
    if (sent.length < this.options.minSessions) {
      const ignored = foreign.length > 0 ? `; ${quoted(foreign)} were not sent in this call and do not count` : '';
      return refuse(
        `it cites ${sent.length} session(s) of this call, fewer than the ${this.options.minSessions} a recurring request needs${ignored}`,
      );
    }
    if (foreign.length > 0) this.notes.push(`${where}: session id(s) ${quoted(foreign)} were not sent in this call; ignored`);

    const skill = skillSchema.safeParse({
      name: draft.name,
      summary: draft.summary,
      content: draft.content,
      seeAlso: [],
      createdAt: this.stamp,
      updatedAt: this.stamp,
      lastUsedAt: null,
    });
    if (!skill.success)
      return refuse(
        `it is not a valid skill (${skill.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')})`,
      );
    this.accepted.set(draft.name, { skill: skill.data, seeAlso: item.seeAlso, sessions: sent });
  }
}
