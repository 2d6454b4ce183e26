import type { FastifyInstance } from 'fastify'

/** The largest form body the hub's pages post: a console form is a few fields. */
const FORM_BODY_LIMIT = 64 * 1024

/**
 * Lets the routes of `scope` (an encapsulated plugin's) take HTML forms that work without script
 * (`application/x-www-form-urlencoded`): the body becomes an object of its fields, a repeated
 * field an array of its values.
 */
export function acceptFormBodies(scope: Pick<FastifyInstance, 'addContentTypeParser'>): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
    const fields: Record<string, string | string[]> = {}
    for (const [name, value] of new URLSearchParams(body as string)) {
      const known = fields[name]
      fields[name] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value]
    }
    done(null, fields)
  })
}
