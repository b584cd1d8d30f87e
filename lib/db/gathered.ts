import DataLoader from "dataloader";

/** How long calls wait to be gathered: a fetch of hundreds of jobs starts them all within this. */
const GATHER_MS = 2;

/**
 * Calls made within a few milliseconds of each other, answered by one `batch` (at most `maxBatchSize`
 * keys): many runs planned, adopted or ended together cost a few statements, not a few per run.
 * Nothing is cached: each call is a fresh look at the database.
 */
export function gathered<K, V>(batch: (keys: readonly K[]) => Promise<(V | Error)[]>, maxBatchSize: number): DataLoader<K, V> {
  return new DataLoader(batch, { cache: false, batchScheduleFn: (run) => setTimeout(run, GATHER_MS), maxBatchSize });
}

/** `gathered` per database (tests open several): one gatherer for each. */
export function gatheredPerDatabase<D extends object, K, V>(batch: (db: D, keys: readonly K[]) => Promise<(V | Error)[]>, maxBatchSize: number): (db: D, key: K) => Promise<V> {
  const loaders = new WeakMap<D, DataLoader<K, V>>();
  return (db, key) => {
    let loader = loaders.get(db);
    if (!loader) loaders.set(db, (loader = gathered((keys) => batch(db, keys), maxBatchSize)));
    return loader.load(key);
  };
}
