import { familyServices } from './family.js'
import { runServices } from './shared/runtime.js'

/**
 * Every Hearth service in one process, on one database. Resolves once they listen: the server
 * bundle's runner waits for it (src/shared/bundle-runner.ts).
 */
export const started = runServices(familyServices())
