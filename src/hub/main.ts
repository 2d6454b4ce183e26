import { runServices } from '../shared/runtime.js'
import { hubService } from './service.js'

await runServices([hubService])
