export type Server = 'bare' | 'tasks' | 'hub'

export interface Scenario {
  name: string
  server: Server
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string
  /** Sent with the bench user's hub session: its cookies, and the CSRF header a browser adds. */
  signedIn?: true
  /** Least acceptable throughput as a share of the bare server's; absent for the baseline itself. */
  targetShareOfBare?: number
}

export const BASELINE_SCENARIO = 'bare GET /'

/** Owns exactly SEEDED_TASK_COUNT tasks, so every list request returns the same page. */
export const LIST_USER = 'bench-list-user'
export const SEEDED_TASK_COUNT = 20
/** The task manager's app id, registered with the hub by default. */
const HUB_TOKEN_AUDIENCE = 'tasks'

/** A second user, so the create scenario never grows the list user's page. */
const CREATE_USER = 'bench-create-user'

export const SCENARIOS: Scenario[] = [
  { name: BASELINE_SCENARIO, server: 'bare', method: 'GET', path: '/' },
  { name: 'GET /health', server: 'tasks', method: 'GET', path: '/health', targetShareOfBare: 0.75 },
  {
    name: `GET /tasks (${SEEDED_TASK_COUNT} tasks)`,
    server: 'tasks',
    method: 'GET',
    path: '/tasks',
    headers: { 'x-user-id': LIST_USER },
    targetShareOfBare: 0.3
  },
  {
    name: 'POST /tasks',
    server: 'tasks',
    method: 'POST',
    path: '/tasks',
    headers: { 'x-user-id': CREATE_USER, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Benchmark task' }),
    targetShareOfBare: 0.15
  },
  { name: 'hub GET /api/health', server: 'hub', method: 'GET', path: '/api/health', targetShareOfBare: 0.5 },
  {
    name: 'hub GET /api/privacy/settings',
    server: 'hub',
    method: 'GET',
    path: '/api/privacy/settings',
    signedIn: true,
    targetShareOfBare: 0.25
  },
  {
    name: 'hub POST /api/auth/generate-token',
    server: 'hub',
    method: 'POST',
    path: '/api/auth/generate-token',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ audience: HUB_TOKEN_AUDIENCE }),
    signedIn: true,
    targetShareOfBare: 0.12
  }
]
