import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler'

/**
 * Fastify's own response serializers (fast-json-stringify, with the shared schemas and options it
 * passes), each compiled at its route's first answer of that status rather than at start-up, where
 * compiling every route's took 130 ms of a 2.2 s start-up (docs/performance.md, "Issue 32: node's
 * memory flags, the key file, serializers, and the whole"). What is written does not change, only
 * when the work is done; as with the validators (`validation.ts`), a route never answered is never
 * compiled.
 */
export const serializersCompiledOnFirstUse: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options)
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined
    return (data) => (serialize ??= compile(route))(data)
  }
}
