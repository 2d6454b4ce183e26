import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

const BUILT_MODULE = path.resolve(import.meta.dirname, '../../../../dist/src/hub/kernel/security/secret-files.js')
const PROCESSES = 4
const FILES = 200

/**
 * A process that waits for the shared start moment (so all of them reach each file together, not
 * a startup apart), then reads or creates every secret in turn and prints what it read.
 */
function racer(dir: string, startAt: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = `
    import path from 'node:path'
    import { readOrCreateSecretFile } from ${JSON.stringify(pathToFileURL(BUILT_MODULE).href)}
    while (Date.now() < ${startAt});
    const read = []
    for (let i = 0; i < ${FILES}; i++) read.push(readOrCreateSecretFile(path.join(${JSON.stringify(dir)}, 'secret-' + i), 'from ' + process.pid))
    process.stdout.write(JSON.stringify(read))
  `
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })))
}

describe('secret files created by processes starting together', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('give every process the same complete secret, readable by the owner only, and leave nothing else behind', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-secrets-'))
    dirs.push(dir)
    // Far enough ahead for every process to have started and loaded the module.
    const startAt = Date.now() + 1500
    const runs = await Promise.all(Array.from({ length: PROCESSES }, () => racer(dir, startAt)))

    for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0 })
    const readByEach = runs.map((run) => JSON.parse(run.stdout) as string[])
    const names = Array.from({ length: FILES }, (_, i) => `secret-${i}`)
    const mismatched = names.filter((name, i) => {
      const onDisk = fs.readFileSync(path.join(dir, name), 'utf8')
      return !onDisk.startsWith('from ') || readByEach.some((read) => read[i] !== onDisk)
    })
    expect(mismatched).toEqual([])
    const looseModes = names.filter((name) => (fs.statSync(path.join(dir, name)).mode & 0o777) !== 0o600)
    expect(looseModes).toEqual([])
    expect(fs.readdirSync(dir).sort()).toEqual([...names].sort())
  })
})
