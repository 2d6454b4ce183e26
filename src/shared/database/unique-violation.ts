/**
 * Whether a statement failed on a unique index: SQLite's SQLITE_CONSTRAINT_UNIQUE (or the primary
 * key's), PostgreSQL's SQLSTATE 23505. For an UPDATE that cannot say "on conflict do nothing".
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null | undefined)?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}
