// package.json's config.nodeFlags: what every way of starting the services passes to node (the
// start scripts, `hearth start`, the systemd units), and so what the build writes each service's
// code cache with (V8 takes a cache only under the flags it was written with). Plain JavaScript,
// as the build and bin/hearth.js read it before, or without, anything compiled.

import fs from 'node:fs'
import path from 'node:path'

/** The flags of the checkout at `root`, one item each. */
export function servicesNodeFlags(root) {
  const { config } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
  return (config?.nodeFlags ?? '').split(/\s+/).filter((flag) => flag !== '')
}
