/**
 * The database was migrated by a version newer than this one, whose schema this one does not
 * know (migrate.ts). Apart from migrate.ts, so that the hub's command dispatch can tell it
 * without loading the migrations.
 */
export class NewerSchemaError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'NewerSchemaError'
  }
}
