/**
 * What a person may take with them (docs/privacy.md, "Export"): each part of the hub declares the
 * datasets it keeps about a person, and the export reads whichever it is given, in the order given.
 */

/** One record of an export: what it is, when it was recorded, and its fields. */
export interface ExportRecord {
  id: string
  recordedAt: string | null
  fields: Record<string, unknown>
}

/** A kind of data the hub keeps about a person, read as a stream of records. */
export interface ExportDataset {
  name: string
  description: string
  records(userId: string): AsyncIterable<ExportRecord>
}

const PAGE_SIZE = 500

/**
 * Reads a table in keyset pages of 500, so a long history streams through the export in
 * bounded memory on both databases.
 */
export async function* pagesOf<Row extends { id: string }>(
  readPage: (after: Row | undefined, limit: number) => Promise<Row[]>
): AsyncIterable<Row> {
  let after: Row | undefined
  for (;;) {
    const page = await readPage(after, PAGE_SIZE)
    yield* page
    if (page.length < PAGE_SIZE) return
    after = page.at(-1)
  }
}
