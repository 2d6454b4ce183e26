export type Server = 'bare' | 'tasks'

export interface Scenario {
  name: string
  server: Server
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string
  /** Least acceptable throughput as a share of the bare server's; absent for the baseline itself. */
  targetShareOfBare?: number
}

export const BASELINE_SCENARIO = 'bare GET /'

/** Owns exactly SEEDED_TASK_COUNT tasks, so every list request returns the same page. */
export const LIST_USER = 'bench-list-user'
export const SEEDED_TASK_COUNT = 20
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
  }
]
