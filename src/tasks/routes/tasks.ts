import type { FastifyRequest } from 'fastify'
import { notFound } from '../../shared/errors.js'
import type { App } from '../../shared/http/server.js'
import { decodeCursor, encodeCursor } from '../cursor.js'
import type { TaskPage, TasksRepository } from '../repository.js'
import { isTaskId, newTask, taskChanges } from '../rules.js'
import {
  CreateTaskBody,
  ListTasksQuery,
  Task,
  TaskList,
  TaskParams,
  UpdateTaskBody,
  errorResponses
} from '../schemas.js'

export interface TaskRoutesOptions {
  tasks: TasksRepository
}

const TASK_NOT_FOUND = 'Task not found'
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'
const tags = ['tasks']

/**
 * Any id but a UUID names no task: 404 without a database read. UUIDs are case-insensitive
 * (RFC 9562) and stored as `randomUUID` writes them, in lower case, so the id is lowered here,
 * once, for every handler and query after it.
 */
async function requireTaskId(request: FastifyRequest<{ Params: { taskId: string } }>) {
  if (!isTaskId(request.params.taskId)) throw notFound(TASK_NOT_FOUND)
  request.params.taskId = request.params.taskId.toLowerCase()
}

export async function taskRoutes(app: App, { tasks }: TaskRoutesOptions) {
  // A page the list cache serves again is the same object, so the route's response serializer
  // writes its body once.
  const listBodies = new WeakMap<TaskPage, string>()

  app.get(
    '/tasks',
    {
      config: { permission: 'read', failureMessage: 'Failed to list tasks' },
      schema: {
        summary: "List the user's tasks, newest first",
        tags,
        querystring: ListTasksQuery,
        response: { 200: TaskList, ...errorResponses(400, 401, 403, 500) }
      }
    },
    async (request, reply) => {
      const { limit, cursor, status } = request.query
      const after = cursor === undefined ? undefined : decodeCursor(cursor)
      const page = await tasks.listOwned(request.userId, { limit, after, status })
      const last = page.tasks.at(-1)
      const response = { ...page, nextCursor: page.hasMore && last ? encodeCursor(last) : null }
      let body = listBodies.get(page)
      if (body === undefined) {
        body = String(reply.serialize(response))
        listBodies.set(page, body)
      }
      return reply.type(JSON_CONTENT_TYPE).serializer(() => body).send(response)
    }
  )

  app.get(
    '/tasks/:taskId',
    {
      config: { permission: 'read', failureMessage: 'Failed to get task' },
      preValidation: requireTaskId,
      schema: {
        summary: 'Get one task',
        tags,
        params: TaskParams,
        response: { 200: Task, ...errorResponses(401, 403, 404, 500) }
      }
    },
    async (request) => {
      const task = await tasks.findOwned(request.params.taskId, request.userId)
      if (!task) throw notFound(TASK_NOT_FOUND)
      return task
    }
  )

  app.post(
    '/tasks',
    {
      config: { permission: 'write', failureMessage: 'Failed to create task' },
      schema: {
        summary: 'Create a task',
        tags,
        body: CreateTaskBody,
        response: { 201: Task, ...errorResponses(400, 401, 403, 413, 415, 500) }
      }
    },
    async (request, reply) => {
      const task = await tasks.insert(newTask(request.body, request.userId, new Date()))
      return reply.code(201).send(task)
    }
  )

  app.put(
    '/tasks/:taskId',
    {
      config: { permission: 'write', failureMessage: 'Failed to update task' },
      preValidation: requireTaskId,
      schema: {
        summary: 'Update a task',
        tags,
        params: TaskParams,
        body: UpdateTaskBody,
        response: { 200: Task, ...errorResponses(400, 401, 403, 404, 413, 415, 500) }
      }
    },
    async (request) => {
      const changes = taskChanges(request.body)
      const task = await tasks.updateOwned(request.params.taskId, request.userId, changes, new Date())
      if (!task) throw notFound(TASK_NOT_FOUND)
      return task
    }
  )

  app.delete(
    '/tasks/:taskId',
    {
      config: { permission: 'delete', failureMessage: 'Failed to delete task' },
      preValidation: requireTaskId,
      schema: {
        summary: 'Delete a task',
        tags,
        params: TaskParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404, 500) }
      }
    },
    async (request, reply) => {
      if (!(await tasks.deleteOwned(request.params.taskId, request.userId))) throw notFound(TASK_NOT_FOUND)
      return reply.code(204).send(null)
    }
  )
}
