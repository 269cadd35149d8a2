/** A record kept in a run's archive as it was before a pass touched it. */
export interface ArchiveRecord {
  kind: 'memory' | 'skill' | 'conversation-log';
  key: string;
  record: unknown;
}
