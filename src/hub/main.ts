import { runServices } from '../shared/runtime.js'
import { createHubService } from './service.js'

await runServices([createHubService()])
