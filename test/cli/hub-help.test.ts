import { describe, expect, it } from 'vitest'
import { COMMAND_HELP, USAGE, runHubCli } from '../../src/cli/hub-commands.js'
import { useHubCli } from '../helpers/hub-cli.js'

/** Every hub command and the options it reads: its `--help` names each of them. */
const COMMANDS: Record<string, string[]> = {
  'users:create': ['--email', '--admin'],
  'users:promote': ['--email'],
  'users:demote': ['--email'],
  'users:disable': ['--email'],
  'users:enable': ['--email'],
  'users:delete': ['--email'],
  'keys:rotate': [],
  'csp:top': ['--limit'],
  'events:pending': [],
  'clients:add': ['--id', '--name', '--redirect-uri', '--post-logout-redirect-uri', '--backchannel-logout-uri', '--public', '--first-party', '--groups'],
  'clients:list': [],
  'clients:update': ['--id', '--name', '--redirect-uri', '--post-logout-redirect-uri', '--backchannel-logout-uri', '--first-party', '--third-party', '--groups'],
  'clients:rotate-secret': ['--id'],
  'clients:remove': ['--id'],
  'mail:outbox': ['--to', '--limit'],
  'mail:queue': ['--limit'],
  'plans:add': ['--id', '--name', '--price', '--currency', '--interval', '--stripe-price', '--entitlements'],
  'plans:list': [],
  'plans:remove': ['--id'],
  'billing:set': ['--email', '--plan', '--until'],
  'invitations:add': ['--email', '--groups', '--language'],
  'groups:add': ['--name', '--description'],
  'groups:list': [],
  'groups:members:add': ['--group', '--email'],
  'groups:members:remove': ['--group', '--email'],
  backup: ['--to', '--passphrase-file', '--secrets-only'],
  restore: ['--from', '--data-dir', '--passphrase-file'],
  'migrate:status': []
}

describe('hub CLI: each command answers --help with its own usage', () => {
  const { output, io } = useHubCli()

  it('has help for every command the usage lists, and for no other', () => {
    const listed = new Set([...USAGE.matchAll(/npm run hub -- ([a-z]+(?::[a-z-]+)*)/g)].map((match) => match[1]))
    expect([...listed].sort()).toEqual(Object.keys(COMMANDS).sort())
    expect(Object.keys(COMMAND_HELP).sort()).toEqual(Object.keys(COMMANDS).sort())
  })

  it.each(Object.entries(COMMANDS))('%s --help prints its usage and options, not the whole CLI', async (command, options) => {
    // A bad configuration does not matter: help reads neither it nor the database.
    expect(await runHubCli([command, '--help'], io('', { HUB_SIGNUP: 'maybe' }))).toBe(0)
    expect(output.err).toEqual([])
    expect(output.out).toHaveLength(1)
    const help = output.out[0] ?? ''
    expect(help.startsWith(`Usage: npm run hub -- ${command}`)).toBe(true)
    expect(help).not.toBe(USAGE)
    for (const option of options) expect(help, option).toMatch(new RegExp(`^ {2}${option}\\b`, 'm'))
    if (options.length === 0) expect(help).toMatch(/takes no options/)
    // Another command's usage line is not in it.
    for (const other of Object.keys(COMMANDS).filter((name) => name !== command)) expect(help).not.toContain(`npm run hub -- ${other} `)
  })

  it('answers -h like --help, and keeps the whole usage for --help alone', async () => {
    expect(await runHubCli(['clients:add', '-h'], io())).toBe(0)
    expect(await runHubCli(['--help'], io())).toBe(0)
    expect(output.out).toEqual([COMMAND_HELP['clients:add'], USAGE])
  })

  it('refuses --help for an unknown command with exit code 2', async () => {
    expect(await runHubCli(['users:rename', '--help'], io())).toBe(2)
    expect(output.out).toEqual([])
    expect(output.err[0]).toMatch(/^Unknown command: users:rename\n\nAdminister the identity hub/)
  })
})
