import { familyServices } from './family.js'
import { runServices } from './shared/runtime.js'

/** Every Hearth service in one process, on one database. */
await runServices(familyServices())
