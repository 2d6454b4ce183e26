import { runServices } from '../shared/runtime.js'
import { tasksService } from './service.js'

await runServices([tasksService])
