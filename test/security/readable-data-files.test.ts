import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createDataDir } from '../../src/shared/config.js'
import { openDatabase } from '../../src/shared/database/connect.js'
import { migrateToLatest } from '../../src/shared/database/migrate.js'
import { type ServerProcess, startBuilt } from '../helpers/server-process.js'

/**
 * Issue 15, item 6: DATA_DIR was 0755 and the SQLite files 0644, so any local user could read the
 * password hashes and session ids. The database files must be 0600 and the directory 0700.
 */
const FILES = ['hearth.db', 'hearth.db-wal', 'hearth.db-shm']
const modeOf = (file: string) => fs.statSync(file).mode & 0o777

describe('another local user reading the data files', () => {
  const scratch: string[] = []
  const running: ServerProcess[] = []
  /** A DATA_DIR that does not exist yet, in a private scratch folder. */
  const freshDataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-modes-'))
    scratch.push(dir)
    return path.join(dir, 'data')
  }
  afterEach(() => {
    for (const server of running.splice(0)) server.child.kill('SIGKILL')
    for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('creates DATA_DIR owner-only, whatever the database', () => {
    const dataDir = freshDataDir()
    createDataDir({ dataDir } as Parameters<typeof createDataDir>[0])
    expect(modeOf(dataDir)).toBe(0o700)
  })

  it('opens a new SQLite database with the directory 0700 and the database, -wal and -shm 0600', async () => {
    const dataDir = freshDataDir()
    const { db } = openDatabase({ databaseUrl: undefined, dataDir })
    try {
      await migrateToLatest(db)
      expect(modeOf(dataDir)).toBe(0o700)
      for (const file of FILES) expect([file, modeOf(path.join(dataDir, file))]).toEqual([file, 0o600])
    } finally {
      await db.destroy()
    }
  })

  it('makes owner-only the files an earlier version left readable, the -wal and -shm of a crash too', async () => {
    const dataDir = freshDataDir()
    // The first connection stays open, so the -wal and -shm stay as a crash would leave them.
    const first = openDatabase({ databaseUrl: undefined, dataDir }).db
    try {
      await migrateToLatest(first)
      for (const file of FILES) fs.chmodSync(path.join(dataDir, file), 0o644)
      const second = openDatabase({ databaseUrl: undefined, dataDir }).db
      await second.destroy()
      for (const file of FILES) expect([file, modeOf(path.join(dataDir, file))]).toEqual([file, 0o600])
    } finally {
      await first.destroy()
    }
  })

  it('runs the built server with DATA_DIR 0700 and its database files 0600, and warns of a DATA_DIR open to others', async () => {
    const dataDir = freshDataDir()
    const server = await startBuilt('dist/server/tasks.js', { DATA_DIR: dataDir })
    running.push(server)
    expect((await fetch(`${server.url}/tasks`, { headers: { 'x-user-id': 'modes' } })).status).toBe(200)
    expect(modeOf(dataDir)).toBe(0o700)
    for (const file of FILES) expect([file, modeOf(path.join(dataDir, file))]).toEqual([file, 0o600])
    expect(server.output()).not.toContain('DATA_DIR is open to other users')
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)

    fs.chmodSync(dataDir, 0o755)
    const again = await startBuilt('dist/server/tasks.js', { DATA_DIR: dataDir })
    running.push(again)
    expect(again.output()).toContain('DATA_DIR is open to other users')
  })
})
