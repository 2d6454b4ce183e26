import { randomUUID } from 'node:crypto'
import { badRequest } from '../shared/errors.js'
import type { CreateTaskBody, TaskStatus, UpdateTaskBody } from './schemas.js'

export interface Task {
  id: string
  title: string
  description: string
  status: TaskStatus
  assignee: string
  createdAt: string
  updatedAt: string
}

export type TaskChanges = Partial<Pick<Task, 'title' | 'description' | 'status'>>

const TASK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Ids are UUIDs (see newTask), so any other string names no task. Checking the shape first keeps
 * text PostgreSQL cannot hold, such as U+0000, out of every query.
 */
export function isTaskId(value: string): boolean {
  return TASK_ID.test(value)
}

/** Spec rule 2: a new task is pending, assigned to its creator, with an empty description by default. */
export function newTask(input: CreateTaskBody, userId: string, now: Date): Task {
  const timestamp = now.toISOString()
  return {
    id: randomUUID(),
    title: input.title,
    description: input.description ?? '',
    status: 'pending',
    assignee: userId,
    createdAt: timestamp,
    updatedAt: timestamp
  }
}

/**
 * Spec rule 1, to the letter: title and status apply only when truthy, description whenever
 * present. A title of spaces alone is truthy yet no title, so it is refused rather than stored.
 */
export function taskChanges(body: UpdateTaskBody): TaskChanges {
  const changes: TaskChanges = {}
  if (body.title) {
    if (body.title.trim() === '') throw badRequest('Title must not be blank')
    changes.title = body.title
  }
  if (body.description !== undefined) changes.description = body.description
  if (body.status) changes.status = body.status
  return changes
}

/** Every successful update moves updatedAt forward, even two within one millisecond. */
export function nextUpdatedAt(previous: string, now: Date): string {
  const earliest = Date.parse(previous) + 1
  return new Date(Math.max(now.getTime(), earliest)).toISOString()
}
