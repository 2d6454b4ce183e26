import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import type { CliIo } from '../../src/cli/hub-commands.js'
import { openDatabase } from '../../src/shared/database/connect.js'

type HubDatabase = ReturnType<typeof openDatabase>['db']

/**
 * The hub CLI as its tests run it: a fresh DATA_DIR (its SQLite database) for each test, removed
 * after it, and what the CLI prints collected in `output` (reassign `output.out` to start over).
 * `env` is the environment of every run besides DATA_DIR.
 */
export function useHubCli(env: Record<string, string> = {}) {
  let dataDir = ''
  const output: { out: string[]; err: string[] } = { out: [], err: [] }
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-cli-'))
    output.out = []
    output.err = []
  })
  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true })
  })
  return {
    get dataDir() {
      return dataDir
    },
    output,
    /** One run's input and output: `stdin` as typed, `extraEnv` on top of the suite's. */
    io: (stdin = '', extraEnv: Record<string, string> = {}): CliIo => ({
      env: { DATA_DIR: dataDir, ...env, ...extraEnv },
      readStdin: async () => stdin,
      out: (line) => output.out.push(line),
      err: (line) => output.err.push(line)
    }),
    /** `work` on the test's database, closed after it. */
    withDatabase: async <T>(work: (db: HubDatabase) => Promise<T>): Promise<T> => {
      const { db } = openDatabase({ databaseUrl: undefined, dataDir })
      try {
        return await work(db)
      } finally {
        await db.destroy()
      }
    }
  }
}
