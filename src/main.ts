import { hubService } from './hub/service.js'
import { runServices } from './shared/runtime.js'
import { tasksService } from './tasks/service.js'

/** Every Hearth service in one process, on one database. */
await runServices([tasksService, hubService])
