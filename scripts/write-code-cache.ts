// Run by scripts/build.mjs with the services' node flags: starts a server bundle, writes its code
// cache once its services listen (src/shared/bundle-runner.ts), and ends there.
import process from 'node:process'
import { writeCodeCache } from '../src/shared/bundle-runner.js'

const [bundleFile] = process.argv.slice(2)
if (bundleFile === undefined) throw new Error('Usage: write-code-cache.js <bundle.cjs>')
await writeCodeCache(bundleFile)
process.exit(0)
