// Given to a built service with `--import` (NODE_OPTIONS), records what it imports, one a line,
// appended to the file RECORD_IMPORTS_TO names: each bare specifier a module resolves (`pg`,
// `nodemailer/lib/addressparser`), and the file: URL of every module the process loads by path
// (its entry point, the server bundle's chunks), from which bundle-imports.ts reads which
// packages a chunk holds. Only the tests use it; the service itself has no such switch.
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
  const resolved = await nextResolve(specifier, context)
  const record = process.env.RECORD_IMPORTS_TO
  if (record && BARE.test(specifier)) fs.appendFileSync(record, `${specifier}\n`)
  else if (record && resolved.url.startsWith('file:')) fs.appendFileSync(record, `${resolved.url}\n`)
  return resolved
}
