import { LIST_USER, SEEDED_TASK_COUNT } from './scenarios.js'

/** Creates the list user's tasks through the API and checks the list returns exactly those. */
export async function seedListUser(baseUrl: string): Promise<void> {
  const headers = { 'x-user-id': LIST_USER, 'content-type': 'application/json' }
  for (let index = 1; index <= SEEDED_TASK_COUNT; index++) {
    const response = await fetch(`${baseUrl}/tasks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: `Seeded task ${index}`, description: 'Created by the benchmark' })
    })
    if (response.status !== 201) throw new Error(`seeding task ${index} answered ${response.status}`)
  }
  const list = await fetch(`${baseUrl}/tasks`, { headers })
  const page = (await list.json()) as { tasks?: unknown[] }
  if (list.status !== 200 || page.tasks?.length !== SEEDED_TASK_COUNT) {
    throw new Error(`after seeding, GET /tasks answered ${list.status} with ${page.tasks?.length} tasks`)
  }
}
