import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { type ServerProcess, freePort, startBuilt } from '../helpers/server-process.js'
import { signInWithCode, signUpWithTwoStep } from '../helpers/two-step-over-http.js'
import { LATEST_MIGRATION } from '../../src/shared/database/migrate.js'

const ROOT = path.resolve(import.meta.dirname, '../..')
const run = promisify(execFile)
const databaseUrl = process.env.TEST_DATABASE_URL

if (!databaseUrl) {
  if (process.env.CI === 'true') throw new Error('TEST_DATABASE_URL must be set in CI: the pg_dump / pg_restore steps are tested on it')
  console.warn('Notice: TEST_DATABASE_URL is not set, so the PostgreSQL backup steps are not tested.')
}

/** A shell block of docs/operations.md, after its `<!-- NAME` marker, with the CLI run from the build as npm would. */
function documentedBlock(name: string): string {
  const docs = fs.readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8')
  const block = new RegExp(`<!-- ${name}[^>]*-->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(docs)?.[1]
  if (!block) throw new Error(`docs/operations.md has no ${name} block`)
  return block.replaceAll('npm run hub --', `node ${JSON.stringify(path.join(ROOT, 'dist/src/cli/hub.js'))}`)
}

/** The URL of another database on the same server. */
function urlOf(database: string): string {
  const url = new URL(databaseUrl ?? '')
  url.pathname = `/${database}`
  return url.toString()
}

async function onServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/**
 * docs/operations.md's PostgreSQL steps, run as written: pg_dump and `backup --secrets-only` of a
 * running hub, pg_restore and `restore` into a new database and directory, the hub started on
 * those. The databases are this run's own, made and dropped here; the shared server is never stopped.
 */
describe.skipIf(!databaseUrl)('backup with PostgreSQL: the documented pg_dump / pg_restore steps', () => {
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`
  const [source, restoredDatabase] = [`hearth_backup_${suffix}`, `hearth_restored_${suffix}`]
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-pg-backup-'))
  const running: ServerProcess[] = []
  afterAll(async () => {
    for (const server of running) server.child.kill('SIGKILL')
    await Promise.all(running.map((server) => server.exited))
    for (const database of [source, restoredDatabase]) await onServer(`drop database if exists ${database} with (force)`)
    fs.rmSync(scratch, { recursive: true, force: true })
  })

  it('restores a database and secrets from which sessions and two-step codes still work', { timeout: 120_000 }, async () => {
    await onServer(`create database ${source}`)
    const hubPort = await freePort()
    const hubUrl = `http://localhost:${hubPort}`
    const startHub = async (database: string, dataDir: string) => {
      const env = { PORT: String(hubPort), HUB_PORT: String(hubPort), HUB_PUBLIC_URL: hubUrl, DATABASE_URL: urlOf(database), DATA_DIR: dataDir }
      const server = await startBuilt('dist/server/hub.js', env, '/api/health')
      running.push(server)
      return server
    }

    const dataDir = path.join(scratch, 'data')
    const original = await startHub(source, dataDir)
    const { hub, secret, confirmedAt } = await signUpWithTwoStep(hubUrl, path.join(dataDir, 'outbox'))

    // The backup, while the hub runs.
    const shell = (block: string, env: Record<string, string>) => run('bash', ['-euo', 'pipefail', '-c', block], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } })
    await shell(documentedBlock('pg-backup'), { BACKUP_DIR: scratch, DATABASE_URL: urlOf(source), DATA_DIR: dataDir })
    const manifest = JSON.parse((await run('tar', ['-xzOf', path.join(scratch, 'hearth-secrets.backup'), 'manifest.json'])).stdout) as { database: string; schemaVersion: string | null }
    expect(manifest).toMatchObject({ database: 'postgres', schemaVersion: LATEST_MIGRATION })
    original.child.kill('SIGTERM')
    expect(await original.exited).toBe(0)

    await onServer(`create database ${restoredDatabase}`)
    const restoredDir = path.join(scratch, 'restored')
    await shell(documentedBlock('pg-restore'), { BACKUP_DIR: scratch, RESTORED_DATABASE_URL: urlOf(restoredDatabase), RESTORED_DATA_DIR: restoredDir })
    await startHub(restoredDatabase, restoredDir)

    // The session from before still signs in to an application.
    expect((await hub.call('POST', '/api/auth/generate-token', { audience: 'tasks' })).status).toBe(200)
    // A two-step code still verifies: its secret decrypts with the restored key.
    const second = await signInWithCode(hubUrl, secret, confirmedAt)
    expect(second.status, await second.clone().text()).toBe(200)
  })
})
