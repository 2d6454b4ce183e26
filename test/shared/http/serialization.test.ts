import { describe, expect, it } from 'vitest'
import { serializersCompiledOnFirstUse } from '../../../src/shared/http/serialization.js'

const route = (schema: unknown) => ({ method: 'GET', url: '/thing', httpStatus: '200', schema })

describe('response serializers compiled on first use', () => {
  it('compiles nothing when a route is registered, only at its first answer', () => {
    const compiler = serializersCompiledOnFirstUse({}, {})
    // A schema fast-json-stringify cannot compile: registering the route must not get that far.
    const serialize = compiler(route({ $ref: 'nowhere#' }))
    expect(() => serialize({})).toThrow()
  })

  it('writes what Fastify’s own serializer writes: the schema’s fields, coerced, nothing else', () => {
    const compiler = serializersCompiledOnFirstUse({ shared: { $id: 'shared', type: 'object', properties: { id: { type: 'integer' } } } }, {})
    const serialize = compiler(route({ type: 'object', properties: { title: { type: 'string' }, owner: { $ref: 'shared#' } } }))
    const answer = { title: 'Buy milk', owner: { id: '7', password: 'not this' }, secret: 'nor this' }
    expect(serialize(answer)).toBe('{"title":"Buy milk","owner":{"id":7}}')
    expect(serialize({ title: 'Again' })).toBe('{"title":"Again"}')
  })
})
