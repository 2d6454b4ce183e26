import { runServices } from '../shared/runtime.js'
import { createTasksService } from './service.js'

await runServices([createTasksService()])
