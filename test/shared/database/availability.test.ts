import { describe, expect, it } from 'vitest'
import { failureForLog, isDatabaseUnavailable, outageReason } from '../../../src/shared/database/availability.js'

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code })

describe('what counts as a database outage', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', withCode('ECONNRESET')],
    ['pg_terminate_backend or a restart (57P01)', withCode('57P01', 'terminating connection due to administrator command')],
    ['a server starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['too many connections (53300)', withCode('53300')],
    ['any connection exception (class 08)', withCode('08006')],
    ['SQLite busy past its timeout', withCode('SQLITE_BUSY', 'database is locked')],
    ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    ['every address of a name refusing', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], '')],
    ['an outage wrapped as a cause', new Error('query failed', { cause: withCode('ECONNRESET') })]
  ])('%s is one', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true)
    expect(failureForLog(error)).toEqual({ reason: outageReason(error) })
  })

  it.each([
    ['a unique violation', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', withCode('42601')],
    ['a constraint failing on SQLite', withCode('SQLITE_CONSTRAINT_PRIMARYKEY')],
    ['a wrong password', withCode('28P01', 'password authentication failed')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['something thrown that is not an error', 'ECONNREFUSED']
  ])('%s is not, and is logged whole', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false)
    expect(failureForLog(error)).toEqual({ err: error })
  })

  it('says an outage in one line: code and message', () => {
    expect(outageReason(withCode('57P01', 'terminating connection due to administrator command'))).toBe(
      '57P01: terminating connection due to administrator command'
    )
    expect(outageReason(new AggregateError([withCode('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432')], ''))).toContain('ECONNREFUSED')
  })
})
