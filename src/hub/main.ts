import { runServices } from '../shared/runtime.js'
import { createHubService } from './service.js'

/** The hub alone. Resolves once it listens: the server bundle's runner waits for it (src/shared/bundle-runner.ts). */
export const started = runServices([createHubService()])
