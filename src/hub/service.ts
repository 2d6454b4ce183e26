import type { Service } from '../shared/runtime.js'
import { buildHubApp } from './app.js'

export const hubService: Service = {
  name: 'hub',
  port: (config) => config.hub.port,
  build: ({ config, db, logger }) => buildHubApp({ config: config.hub, dataDir: config.shared.dataDir, db, logger })
}
