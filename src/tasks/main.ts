import { runServices } from '../shared/runtime.js'
import { createTasksService } from './service.js'

/** The task manager alone. Resolves once it listens: the server bundle's runner waits for it (src/shared/bundle-runner.ts). */
export const started = runServices([createTasksService()])
