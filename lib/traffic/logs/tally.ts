/**
 * Visits per day and path, within a bound on the distinct keys held (the read's memory bound).
 * Past the bound, the least-counted quarter of the keys is dropped at once, and their visits are
 * not counted: a batch version of Space-Saving's eviction that costs O(1) per visit amortised
 * (one sort of the counts per maxKeys/4 new keys) and never credits a new key with a dropped
 * one's visits, so that no count is more than its page's real visits. A page visited often is
 * seen again before it can be dropped; one visited once or twice in a huge log may be lost.
 */
/**
 * A copy of a key that holds nothing else: a path is a slice of its log line, and V8 keeps a
 * slice's whole parent alive, so a key stored as it comes would keep its line (ten times its size).
 */
function own(key: string): string {
  return Buffer.from(key, "utf8").toString("utf8");
}

export class BoundedTally {
  /** `${day}${path}`: a day is always 10 characters, so one string key per day × path. */
  private readonly counts = new Map<string, number>();
  truncated = false;

  constructor(private readonly maxKeys: number) {}

  add(day: string, path: string) {
    const key = day + path;
    const count = this.counts.get(key);
    if (count !== undefined) {
      this.counts.set(key, count + 1);
      return;
    }
    if (this.counts.size >= this.maxKeys) this.evict();
    this.counts.set(own(key), 1);
  }

  private evict() {
    this.truncated = true;
    const keep = Math.floor(this.maxKeys * 0.75);
    const drop = this.counts.size - keep;
    const sorted = Float64Array.from(this.counts.values()).sort();
    const threshold = sorted[drop - 1]!;
    // Below the threshold all go; at it, the oldest go until enough went.
    let atThreshold = drop - sorted.filter((count) => count < threshold).length;
    for (const [key, count] of this.counts) {
      if (count < threshold) this.counts.delete(key);
      else if (count === threshold && atThreshold > 0) {
        this.counts.delete(key);
        atThreshold--;
      }
    }
  }

  /** day → path → visits, and the number of distinct paths. */
  result(): { visits: Map<string, Map<string, number>>; paths: number } {
    const visits = new Map<string, Map<string, number>>();
    const paths = new Set<string>();
    for (const [key, count] of this.counts) {
      const day = key.slice(0, 10);
      const path = key.slice(10);
      let perDay = visits.get(day);
      if (!perDay) visits.set(day, (perDay = new Map()));
      perDay.set(path, count);
      paths.add(path);
    }
    return { visits, paths: paths.size };
  }
}
