import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-cli-'))

/** `npm run grants -- ...`, run from the build on an embedded database. */
describe('grants CLI', () => {
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

  const cli = async (...args: string[]) => {
    const result = spawnSync(process.execPath, ['dist/src/cli/grants.js', ...args], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
      encoding: 'utf8'
    })
    return { code: result.status, out: result.stdout, err: result.stderr }
  }

  it('prints its usage with --help', async () => {
    const { code, out } = await cli('--help')
    expect(code).toBe(0)
    expect(out).toMatch(/npm run grants -- list/)
  })

  it.each([
    ['list', ['--user', '--app']],
    ['grant', ['--user', '--app', '--permissions', '--roles']],
    ['revoke', ['--user', '--app']]
  ])("%s --help prints that command's usage and options only", async (command, options) => {
    const { code, out, err } = await cli(command, '--help')
    expect(code).toBe(0)
    expect(err).toBe('')
    expect(out.startsWith(`Usage: npm run grants -- ${command} `)).toBe(true)
    for (const option of options) expect(out).toMatch(new RegExp(`^ {2}${option} `, 'm'))
    for (const other of ['list', 'grant', 'revoke'].filter((name) => name !== command)) expect(out).not.toContain(`npm run grants -- ${other}`)
  })

  it('refuses --help for an unknown command with exit code 2', async () => {
    const { code, err } = await cli('launch', '--help')
    expect(code).toBe(2)
    expect(err).toMatch(/^Unknown command "launch"/)
  })

  it('grants, lists and revokes', async () => {
    expect((await cli('grant', '--user', 'alice', '--permissions', 'read,write')).code).toBe(0)
    const listed = await cli('list', '--user', 'alice')
    expect(listed.out.trim().split('\t')).toEqual(['alice', 'tasks', 'member', 'read,write', 'cli', expect.any(String)])
    expect((await cli('revoke', '--user', 'alice')).out).toMatch(/Revoked/)
    expect((await cli('list', '--user', 'alice')).out).toBe('')
  })

  it.each([
    [['grant', '--permissions', 'read'], /--user is required/],
    [['grant', '--user', 'bob', '--permissions', 'fly'], /Unknown permission: fly/],
    [['launch'], /Unknown command "launch"/],
    [['list', '--colour'], /Unknown option/]
  ])('refuses %j with exit code 2 and says why', async (args, message) => {
    const { code, err } = await cli(...args)
    expect(code).toBe(2)
    expect(err).toMatch(message)
  })
})
