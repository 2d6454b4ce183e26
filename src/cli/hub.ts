import { text } from 'node:stream/consumers'
import { runHubCli } from './hub-commands.js'

process.exitCode = await runHubCli(process.argv.slice(2), {
  env: process.env,
  readStdin: () => text(process.stdin),
  out: (line) => console.log(line),
  err: (line) => console.error(line)
})
