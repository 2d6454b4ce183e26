#!/usr/bin/env node
// Hearth's one command, run from the built dist/ without building (npm start and npm run hub
// build first when something changed; this never does, so it answers at once):
//
//   hearth start [hub|tasks]   every service in one process, or the one named
//   hearth hub COMMAND ...     the hub's command line (hearth hub --help)
//   hearth grants COMMAND ...  access grants (hearth grants --help)
//
// Plain JavaScript, as it must say what to do when nothing is compiled yet.

import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { constants } from 'node:os'
import path from 'node:path'
import process from 'node:process'
import { servicesNodeFlags } from '../scripts/node-flags.mjs'

const ROOT = path.resolve(import.meta.dirname, '..')
const print = (text) => process.stdout.write(`${text}\n`)
const say = (text) => process.stderr.write(`${text}\n`)

const USAGE = `Usage:
  hearth start               starts every service in one process (as npm start, without building)
  hearth start hub           the identity hub alone (as npm run start:hub)
  hearth start tasks         the task manager alone (as npm run start:tasks)
  hearth hub COMMAND ...     the hub's command line (as npm run hub --; hearth hub --help lists the commands)
  hearth grants COMMAND ...  manages access grants (as npm run grants --; hearth grants --help)
  hearth --help

It runs what dist/ holds: after changing or updating the sources, run npm run build.`

/** What `hearth start [NAME]` runs. */
const SERVICES = { all: 'dist/server/main.js', hub: 'dist/server/hub.js', tasks: 'dist/server/tasks.js' }
/** What `hearth NAME ...` runs in this process. */
const COMMAND_LINES = { hub: 'dist/src/cli/hub.js', grants: 'dist/src/cli/grants.js' }

const [verb, ...rest] = process.argv.slice(2)
if (verb === 'start') await start(rest)
else if (verb !== undefined && Object.hasOwn(COMMAND_LINES, verb)) await runCommandLine(COMMAND_LINES[verb])
else if (verb === '--help' || verb === '-h') print(USAGE)
else {
  say(verb === undefined ? USAGE : `Unknown command: ${verb}\n\n${USAGE}`)
  process.exitCode = 2
}

/** The built file, or exit 1 with the one thing to do when there is none. */
function built(file) {
  const full = path.join(ROOT, file)
  if (fs.existsSync(full)) return full
  say(`hearth: ${file} is missing: run npm run build in ${ROOT} first`)
  process.exit(1)
}

/**
 * The command lines read their arguments from process.argv, after the script's path: dropping
 * the verb makes `hearth hub users:create ...` what `node dist/src/cli/hub.js users:create ...` is.
 */
async function runCommandLine(file) {
  const entry = built(file)
  process.argv.splice(2, 1)
  await import(entry)
}

/**
 * Starts the services in a node of their own, given package.json's config.nodeFlags (V8 sizes
 * its heap when the process starts, so the flags cannot be applied to this one). The child has a
 * process group of its own so that Ctrl-C reaches it once, from here: close-with-grace stops at
 * once, without draining, on a second signal. Whoever stops a service should signal this process,
 * which passes the signal on and exits as the services did.
 */
async function start(args) {
  const [name = 'all', ...extra] = args
  if (!Object.hasOwn(SERVICES, name) || extra.length > 0) {
    say(`Unknown service: ${[name, ...extra].join(' ')}\n\n${USAGE}`)
    process.exit(2)
  }
  const entry = built(SERVICES[name])
  const child = spawn(process.execPath, [...servicesNodeFlags(ROOT), entry], { stdio: 'inherit', detached: true })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? 128 + constants.signals[signal]
  })
}
