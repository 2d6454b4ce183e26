import { sql } from 'kysely'
import type { TestDatabase } from './databases.js'

export interface MatchingRow {
  table: string
  row: Record<string, unknown>
}

/** Every column of every table, as the database's own catalogue lists them: a table added later is included. */
async function columnsByTable({ db, dialect }: TestDatabase): Promise<Map<string, string[]>> {
  const rows =
    dialect === 'sqlite'
      ? (
          await sql<{ tableName: string; columnName: string }>`
            select m.name as table_name, c.name as column_name
            from sqlite_master m join pragma_table_info(m.name) c
            where m.type = 'table' and m.name not like 'sqlite_%'`.execute(db)
        ).rows
      : (
          await sql<{ tableName: string; columnName: string }>`
            select table_name, column_name from information_schema.columns
            where table_schema = current_schema()`.execute(db)
        ).rows
  const tables = new Map<string, string[]>()
  for (const { tableName, columnName } of rows) tables.set(tableName, [...(tables.get(tableName) ?? []), columnName])
  return tables
}

/**
 * Every row, in any table, with any column holding one of `needles` (anywhere in its text, so a
 * JSON detail or a mail body counts too). The needles must hold no LIKE wildcard (`%`, `_`).
 */
export async function rowsMentioning(handle: TestDatabase, needles: readonly string[]): Promise<MatchingRow[]> {
  const found: MatchingRow[] = []
  for (const [table, columns] of await columnsByTable(handle)) {
    const conditions = columns.flatMap((column) => needles.map((needle) => sql`cast(${sql.id(column)} as text) like ${`%${needle}%`}`))
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.id(table)} where ${sql.join(conditions, sql` or `)}`.execute(handle.db)
    found.push(...rows.map((row) => ({ table, row })))
  }
  return found
}
