/** What one reply asks for, counted after the pass's own rules. */
export interface ReplyCounts {
  /** Everything the reply proposes to write (saves, new skills, episodes, preferences…), accepted or not. */
  saves: number;
  /** Outright deletions that passed the item rules (merge sources do not count: they are verified merges). */
  deletions: number;
  /** Facts taken out of current recall by a newer entry (SPEC B9): budgeted as deletions, however related. */
  supersessions?: number;
  /** Entries filed anew under a protected category, out of later clean-up: budgeted as deletions. */
  protectedMoves?: number;
  /**
   * How many entries the call showed, and how many of them the reply asked to take out of current
   * recall or clean-up (deleted outright, superseded or moved under a protected category, whether
   * the item rules accepted it or not): with `replyShare`, a reply that asks for more than that
   * share of what it was shown is refused whole.
   */
  share?: { shown: number; asked: number };
}

/**
 * SPEC B11: the run-level budgets every pass enforces across all of its calls, the stage between
 * a pass's own rules and its operations. A reply that breaks a budget is refused whole — none of
 * its changes is applied, not even the ones within the budget — and recorded as misbehaviour of
 * the model: truncating a hostile reply to the budget would still apply part of it, on every run.
 * A reply within the budgets uses up its deletions.
 */
export class RunBudget {
  readonly misbehaviour: string[] = [];
  private deleted = 0;

  /**
   * `deletionsPerRun`: the most outright deletions across every call of the run (see
   * `deletionBudget`). `replyShare`: the share of what a call showed that one reply may take out
   * of current recall (deleted, superseded or moved under a protected category), so that a first
   * call cannot spend the whole run's budget on what it alone was shown.
   */
  constructor(
    private readonly deletionsPerRun: number,
    private readonly replyShare?: number,
  ) {}

  /** Outright deletions admitted so far. */
  get deletions(): number {
    return this.deleted;
  }

  /**
   * Admits one reply (true), or refuses it whole and records why (false). `savesPerReply` is the
   * most writes this reply may propose: what the call showed bounds it (the pass says how).
   */
  admit(call: number, counts: ReplyCounts, savesPerReply: number): boolean {
    const deletionsPerRun = this.deletionsPerRun;
    if (counts.saves > savesPerReply) {
      this.misbehaviour.push(
        `call ${call}: reply refused whole: it proposes ${counts.saves} writes, more than the ${savesPerReply} one reply may propose`,
      );
      return false;
    }
    const superseded = counts.supersessions ?? 0;
    const moved = counts.protectedMoves ?? 0;
    const out = counts.deletions + superseded + moved;
    const what =
      superseded === 0 && moved === 0
        ? `deletes ${counts.deletions} entries outright`
        : `takes ${out} entries out of current recall or clean-up (${[`${counts.deletions} deleted outright`, ...(superseded > 0 ? [`${superseded} superseded`] : []), ...(moved > 0 ? [`${moved} moved under a protected category`] : [])].join(', ')})`;
    if (this.replyShare !== undefined && counts.share !== undefined) {
      const perReply = replyAllowanceOutOfRecall(this.replyShare, counts.share.shown);
      if (counts.share.asked > perReply) {
        this.misbehaviour.push(
          `call ${call}: reply refused whole: it asks to take ${counts.share.asked} of the ${counts.share.shown} entries it was shown out of current recall or clean-up (deleted, superseded or moved under a protected category), over the ${perReply} one reply may (${Math.round(this.replyShare * 100)} %)`,
        );
        return false;
      }
    }
    if (this.deleted + out > deletionsPerRun) {
      const before = this.deleted === 0 ? '' : ` (${this.deleted} already used by earlier calls)`;
      this.misbehaviour.push(`call ${call}: reply refused whole: it ${what}, over the run's budget of ${deletionsPerRun}${before}`);
      return false;
    }
    this.deleted += out;
    return true;
  }

  /** Refuses a reply whole for a limit of the pass's own (one the counts above do not cover), and records why. */
  refuse(call: number, reason: string): false {
    this.misbehaviour.push(`call ${call}: reply refused whole: ${reason}`);
    return false;
  }
}

/**
 * The most items a reply of a pass other than memory consolidation may propose, given what its
 * call could legitimately produce (`natural`: one rewrite per skill sent, one note per workflow
 * sent, one preference per user turn sent…): twice that, and never fewer than 10. Within the
 * allowance a model that repeats itself or names something it was not shown is corrected item by
 * item; past it the reply is a flood and is refused whole (SPEC B11). Pure.
 */
export function replyAllowance(natural: number): number {
  return Math.max(2 * natural, MIN_REPLY_ALLOWANCE);
}

/** The smallest allowance: a call about one thing may still get a few items back. */
export const MIN_REPLY_ALLOWANCE = 10;

/**
 * The outright deletions a run may make: `share` of the items shown, rounded down, but at least
 * one when the share is above 0 and anything was shown (one noise entry among three may go). Pure.
 */
export function deletionBudget(share: number, shown: number): number {
  if (share <= 0 || shown === 0) return 0;
  return Math.max(1, Math.floor(share * shown));
}

/**
 * What one reply may take out of current recall of the `shown` entries of its call: `share` of
 * them, rounded down, but one of a pair or more (a newer fact may replace an older one) — and none
 * of a call that showed a single entry, which a reply can only ask to take whole. Pure.
 */
export function replyAllowanceOutOfRecall(share: number, shown: number): number {
  if (share <= 0 || shown < 2) return 0;
  return Math.max(1, Math.floor(share * shown));
}
