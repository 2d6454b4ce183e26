import type { Compilable, CompiledQuery, Kysely } from 'kysely'
import type { Database } from './schema.js'

/** Stands for one value of a prepared query until it runs. */
class Placeholder {
  constructor(readonly name: string) {}
}

/** What a prepared query's `build` names its values with: `param('userId')` where the value goes. */
export type Param<Params> = <Name extends keyof Params & string>(name: Name) => Params[Name]

export interface PreparedQuery<Params, Row> {
  all(params: Params): Promise<Row[]>
  first(params: Params): Promise<Row | undefined>
}

/**
 * A query on the hot path, built and compiled once, then run with each call's values. Kysely
 * builds a frozen tree, lets every plugin rewrite it and compiles it to SQL on every call: 15 µs
 * of a session-checked request's hundred (docs/performance.md). A compiled query is Kysely's own
 * thing to run (its "splitting query building and execution" recipe); only its parameters change.
 *
 * Each placeholder stands for one value the query binds as a parameter, never for a list, an
 * identifier or SQL; the first run checks that every one of them became a parameter.
 */
export function prepareQuery<Params extends Record<string, unknown>, Row>(
  db: Kysely<Database>,
  build: (param: Param<Params>) => Compilable<Row>
): PreparedQuery<Params, Row> {
  let prepared: { query: CompiledQuery<Row>; slots: (string | null)[] } | undefined

  const compile = () => {
    const named = new Set<string>()
    const query = build(((name: string) => {
      named.add(name)
      return new Placeholder(name)
    }) as Param<Params>).compile()
    const slots = query.parameters.map((value) => (value instanceof Placeholder ? value.name : null))
    for (const name of named) {
      if (!slots.includes(name)) throw new Error(`prepared query: "${name}" did not become a parameter of ${query.sql}`)
    }
    return { query, slots }
  }

  const all = async (params: Params): Promise<Row[]> => {
    prepared ??= compile()
    const { query, slots } = prepared
    const parameters = slots.map((slot, index) => (slot === null ? query.parameters[index] : params[slot]))
    return (await db.executeQuery<Row>({ ...query, parameters })).rows
  }

  return {
    all,
    async first(params) {
      return (await all(params))[0]
    }
  }
}
