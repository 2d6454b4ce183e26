/** Rows per INSERT at most: a few hundred parameters, far below either database's limit. */
const MAX_BATCH = 100

interface PendingRow<Row> {
  row: Row
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * Rows handed in during the same turn of the event loop are stored by one multi-row INSERT
 * (`insertAll`): one commit instead of one each, which on SQLite is most of an insert's cost. Each
 * caller's promise still settles only once its row is committed. If the shared INSERT fails, the
 * rows are inserted one by one, in arrival order, so a failure answers only the call it belongs to.
 */
export function insertInBatches<Row>(insertAll: (rows: Row[]) => Promise<void>): (row: Row) => Promise<void> {
  let pending: PendingRow<Row>[] = []

  async function flush(batch: PendingRow<Row>[]) {
    try {
      await insertAll(batch.map(({ row }) => row))
      for (const { resolve } of batch) resolve()
    } catch {
      for (const { row, resolve, reject } of batch) await insertAll([row]).then(resolve, reject)
    }
  }

  function flushPending() {
    if (pending.length === 0) return
    const batch = pending
    pending = []
    void flush(batch)
  }

  return (row) =>
    new Promise((resolve, reject) => {
      // Requests read in this turn queue up behind the first; the check phase comes after them.
      if (pending.length === 0) setImmediate(flushPending)
      pending.push({ row, resolve, reject })
      if (pending.length === MAX_BATCH) flushPending()
    })
}
