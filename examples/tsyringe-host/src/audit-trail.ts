import { singleton } from 'tsyringe';

/** A service of the host application: one audit trail that every part of the app writes to. */
@singleton()
export class AuditTrail {
  readonly lines: string[] = [];

  record(line: string): void {
    this.lines.push(line);
  }
}
