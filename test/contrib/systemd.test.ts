import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readConfig } from '../../src/shared/config.js'
import { SHUTDOWN_GRACE_MS } from '../../src/shared/runtime.js'
import { NODE_FLAGS } from '../helpers/server-process.js'

const ROOT = path.resolve(import.meta.dirname, '../..')
const UNITS_DIR = path.join(ROOT, 'contrib/systemd')
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze'
/** `systemd-analyze security` rates each unit 1.2 of 10 (0 is the safest); a unit rated above this fails. */
const MOST_EXPOSURE = 2.0
/** Where the units expect node and the installed code. */
const INSTALLED = { node: '/usr/bin/node', root: '/opt/hearth' }

const UNITS: Record<string, string> = {
  'hearth.service': 'dist/server/main.js',
  'hearth-hub.service': 'dist/server/hub.js',
  'hearth-tasks.service': 'dist/server/tasks.js'
}

/** Whether systemd's tools are here: outside CI a missing one skips with a notice, in CI it fails. */
function systemdAnalyzeUnderTest(): boolean {
  if (fs.existsSync(SYSTEMD_ANALYZE)) return true
  if (process.env.CI === 'true') throw new Error(`${SYSTEMD_ANALYZE} not found: it must be installed in CI (apt-get install -y systemd)`)
  console.warn(`Notice: ${SYSTEMD_ANALYZE} was not found, so the systemd units are not verified (apt-get install -y systemd).`)
  return false
}

/** A unit's [Service] settings, each key with its values in order. */
function serviceSettings(unit: string): Map<string, string[]> {
  const settings = new Map<string, string[]>()
  let section = ''
  for (const line of unit.split('\n')) {
    const header = /^\[(.+)\]$/.exec(line)
    if (header) section = header[1] ?? ''
    const setting = /^([A-Za-z]+)=(.*)$/.exec(line)
    if (section === 'Service' && setting) settings.set(setting[1] ?? '', [...(settings.get(setting[1] ?? '') ?? []), setting[2] ?? ''])
  }
  return settings
}

describe('contrib/systemd units', () => {
  it.each(Object.entries(UNITS))('%s runs %s as the hearth user, with DATA_DIR in its state directory, restarting on failure and draining on SIGTERM', (name, entry) => {
    const settings = serviceSettings(fs.readFileSync(path.join(UNITS_DIR, name), 'utf8'))
    const only = (key: string) => {
      expect(settings.get(key), key).toHaveLength(1)
      return settings.get(key)?.[0]
    }
    expect(only('ExecStart')).toBe(`${INSTALLED.node} ${NODE_FLAGS.join(' ')} ${INSTALLED.root}/${entry}`)
    expect(only('User')).toBe('hearth')
    expect(only('StateDirectory')).toBe('hearth')
    expect(only('StateDirectoryMode')).toBe('0700')
    expect(settings.get('Environment')).toContain('DATA_DIR=/var/lib/hearth')
    expect(only('ProtectSystem')).toBe('strict')
    expect(only('ProtectHome')).toBe('yes')
    expect(only('PrivateTmp')).toBe('yes')
    expect(only('NoNewPrivileges')).toBe('yes')
    expect(only('Restart')).toBe('on-failure')
    expect(only('KillSignal')).toBe('SIGTERM')
    expect(Number(only('TimeoutStopSec')) * 1000).toBeGreaterThan(SHUTDOWN_GRACE_MS)
    // V8 writes the machine code it compiles and then runs it: node cannot start under it.
    expect(settings.has('MemoryDenyWriteExecute')).toBe(false)
    // DynamicUser would give the data to a user that changes; the data must outlive it.
    expect(settings.has('DynamicUser')).toBe(false)
  })

  it('has an example environment file that is a valid configuration, leaving DATA_DIR to the units', () => {
    const lines = fs.readFileSync(path.join(UNITS_DIR, 'hearth.env.example'), 'utf8').split('\n')
    const env = Object.fromEntries(lines.filter((line) => /^[A-Z_]+=/.test(line)).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]))
    expect(env).not.toHaveProperty('DATA_DIR')
    expect(readConfig({ ...env, DATA_DIR: '/var/lib/hearth' }).shared.dataDir).toBe('/var/lib/hearth')
  })

  describe.runIf(systemdAnalyzeUnderTest())('systemd-analyze', () => {
    let directory = ''
    beforeAll(() => {
      // Copies pointing at this node and this checkout: verify checks that ExecStart's program exists.
      directory = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-units-'))
      for (const name of Object.keys(UNITS)) {
        const unit = fs.readFileSync(path.join(UNITS_DIR, name), 'utf8')
        fs.writeFileSync(path.join(directory, name), unit.replaceAll(INSTALLED.node, process.execPath).replaceAll(INSTALLED.root, ROOT))
      }
    })
    afterAll(() => fs.rmSync(directory, { recursive: true, force: true }))

    const analyze = (args: string[]) => {
      const result = spawnSync(SYSTEMD_ANALYZE, args, { cwd: directory, encoding: 'utf8' })
      return { status: result.status, output: `${result.stdout}${result.stderr}` }
    }

    it('verifies every unit without a warning', () => {
      for (const entry of Object.values(UNITS)) expect(fs.existsSync(path.join(ROOT, entry)), entry).toBe(true)
      expect(analyze(['verify', '--man=no', ...Object.keys(UNITS).map((name) => `./${name}`)])).toEqual({ status: 0, output: '' })
    })

    it.each(Object.keys(UNITS))(`rates %s's exposure at most ${MOST_EXPOSURE} of 10`, (name) => {
      const { status, output } = analyze(['security', '--offline=true', '--man=no', `--threshold=${MOST_EXPOSURE * 10}`, `./${name}`])
      expect(output).toMatch(new RegExp(`Overall exposure level for ${name}: \\d+\\.\\d`))
      expect(status, output).toBe(0)
    })
  })
})
