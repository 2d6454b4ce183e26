// Given to a built service with `--import` (NODE_OPTIONS), records every package it imports: each
// bare specifier a module resolves (`pg`, `nodemailer/lib/addressparser`), one a line, appended to
// the file RECORD_IMPORTS_TO names. Only the tests use it; the service itself has no such switch.
//
// Plain JavaScript: node loads it before anything, beside the built service, not through vitest.
// The one file is both the registration (main thread) and the hook (node's hooks thread).
import fs from 'node:fs'
import process from 'node:process'
import { register } from 'node:module'
import { isMainThread } from 'node:worker_threads'

const BARE = /^(?![./]|node:|file:|data:)/

if (isMainThread) register(import.meta.url)

export async function resolve(specifier, context, nextResolve) {
  if (BARE.test(specifier) && process.env.RECORD_IMPORTS_TO) fs.appendFileSync(process.env.RECORD_IMPORTS_TO, `${specifier}\n`)
  return nextResolve(specifier, context)
}
