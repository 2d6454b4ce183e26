import type { Service } from '../shared/runtime.js'
import { buildTasksApp } from './app.js'

export const tasksService: Service = {
  name: 'tasks',
  port: (config) => config.tasks.port,
  build: ({ config, db, logger }) => buildTasksApp({ config: config.tasks, db, logger })
}
