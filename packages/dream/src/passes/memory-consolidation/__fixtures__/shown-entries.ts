export interface ShownEntry {
  id: string;
  category: string;
  tags: string[];
  content: string;
}

const LINE = /^\[([0-9a-f]{12})\] \(([^)]*)\) first=\S+ last=\S+ reinforced=\d+×(?: subject=\S+)?(?: tags=(\[.*?\]))? : (".*")$/;

/** The entries a request showed, read back from its rendered data. */
export function shownEntries(data: string): ShownEntry[] {
  const shown: ShownEntry[] = [];
  for (const line of data.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    shown.push({
      id: match[1]!,
      category: match[2]!,
      tags: match[3] ? (JSON.parse(match[3]) as string[]) : [],
      content: JSON.parse(match[4]!) as string,
    });
  }
  return shown;
}

/** The ids a request showed, in order. */
export function shownIds(data: string): string[] {
  return shownEntries(data).map((entry) => entry.id);
}
