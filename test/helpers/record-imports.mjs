// Given to a built service with `--import` (NODE_OPTIONS), records what it imports, one a line,
// appended to the file RECORD_IMPORTS_TO names: each bare specifier a module imports or requires
// (`pg`, `nodemailer/lib/addressparser`), and the file: URL of every module the process loads by
// path (its entry point, a lazily loaded library's file of the server bundle), from which
// bundle-imports.ts reads which packages the bundle's files hold. Only the tests use it; the
// service itself has no such switch.
//
// Plain JavaScript: node loads it before anything, beside the built service, not through vitest.
// The one file is both the registration (main thread) and the ES module hook (node's hooks
// thread); `require` has no hook in node 20, so its method is wrapped.
import fs from 'node:fs'
import Module, { builtinModules, register } from 'node:module'
import path from 'node:path'
import process from 'node:process'
import { pathToFileURL } from 'node:url'
import { isMainThread } from 'node:worker_threads'

const BARE = /^(?![./]|node:|file:|data:)/
const BUILT_IN = new Set(builtinModules)

const note = (line) => {
  if (process.env.RECORD_IMPORTS_TO) fs.appendFileSync(process.env.RECORD_IMPORTS_TO, `${line}\n`)
}

if (isMainThread) {
  register(import.meta.url)
  const required = Module.prototype.require
  Module.prototype.require = function (id) {
    if (BARE.test(id) && !BUILT_IN.has(id)) note(id)
    else if (id.startsWith('.') && this.filename) note(pathToFileURL(path.resolve(path.dirname(this.filename), id)).href)
    return required.call(this, id)
  }
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context)
  if (BARE.test(specifier)) note(specifier)
  else if (resolved.url.startsWith('file:')) note(resolved.url)
  return resolved
}
