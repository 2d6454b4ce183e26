import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresDialect,
  PostgresIntrospector,
  type SchemaMetadata,
  sql,
  type TableMetadata
} from 'kysely'

/**
 * PostgreSQL, with an introspector that looks only at the schemas on the connection's search
 * path. Kysely's Migrator asks for every table to learn whether its own two exist, and Kysely's
 * introspector answers with every column of every schema in the database, looking each schema up
 * by name as it goes (`has_schema_privilege`, `pg_get_serial_sequence`). In a database shared with
 * others, a schema dropped during that scan fails the migration with "schema … does not exist"
 * (seen in CI, where test files drop theirs; about one scan in seventy failed beside a loop of
 * drops), and the scan grows with everything else the database holds.
 */
export class SearchPathPostgresDialect extends PostgresDialect {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own signature
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SearchPathIntrospector(db)
  }
}

/** As PostgreSQL names them: the introspector's Kysely runs without the CamelCasePlugin. */
interface ColumnRow {
  schema: string
  table: string
  table_type: string
  column: string
  type: string
  type_schema: string
  not_null: boolean
  has_default: boolean
  auto_incrementing: string | null
  description: string | null
}

class SearchPathIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>

  constructor(db: Kysely<unknown>) {
    this.#db = db
  }

  getSchemas(): Promise<SchemaMetadata[]> {
    return new PostgresIntrospector(this.#db).getSchemas()
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    // current_schemas(false) holds only schemas that exist and this role may use; every name-based
    // look-up below runs on rows of those schemas alone.
    const { rows } = await sql<ColumnRow>`
      select ns.nspname as schema, c.relname as table, c.relkind as table_type, a.attname as column,
        typ.typname as type, typns.nspname as type_schema, a.attnotnull as not_null, a.atthasdef as has_default,
        pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) as auto_incrementing,
        col_description(a.attrelid, a.attnum) as description
      from pg_catalog.pg_namespace ns
        join pg_catalog.pg_class c on c.relnamespace = ns.oid
        join pg_catalog.pg_attribute a on a.attrelid = c.oid
        join pg_catalog.pg_type typ on typ.oid = a.atttypid
        join pg_catalog.pg_namespace typns on typns.oid = typ.typnamespace
      where ns.nspname = any (current_schemas(false)) and c.relkind in ('r', 'v', 'p')
        and a.attnum >= 0 and not a.attisdropped
        and (${options.withInternalKyselyTables} or c.relname not in (${DEFAULT_MIGRATION_TABLE}, ${DEFAULT_MIGRATION_LOCK_TABLE}))
      order by ns.nspname, c.relname, a.attnum`.execute(this.#db)
    return tablesOf(rows)
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) }
  }
}

function tablesOf(rows: readonly ColumnRow[]): TableMetadata[] {
  const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>()
  for (const row of rows) {
    const key = `${row.schema}.${row.table}`
    let table = tables.get(key)
    if (!table) {
      table = { name: row.table, schema: row.schema, isView: row.table_type === 'v', columns: [] }
      tables.set(key, table)
    }
    table.columns.push({
      name: row.column,
      dataType: row.type,
      dataTypeSchema: row.type_schema,
      isNullable: !row.not_null,
      hasDefaultValue: row.has_default,
      isAutoIncrementing: row.auto_incrementing !== null,
      comment: row.description ?? undefined
    })
  }
  return [...tables.values()]
}
