import { type Static, Type } from 'typebox'
import { PLAIN_TEXT } from '../shared/http/validation.js'

export const TASK_STATUSES = ['pending', 'in-progress', 'completed'] as const
export type TaskStatus = (typeof TASK_STATUSES)[number]

export const TITLE_MAX_LENGTH = 500
export const DESCRIPTION_MAX_LENGTH = 10_000
export const PAGE_SIZE = { default: 50, max: 100 } as const

/** A string limited to the given values; `type` first, so a number reads "must be a string". */
const StringEnum = <const T extends readonly string[]>(values: T, options: { description?: string } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })

const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds, set by the server' })

export const Task = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Assigned by the service; random and unguessable' }),
    title: Type.String(),
    description: Type.String(),
    status: StringEnum(TASK_STATUSES),
    assignee: Type.String({ description: 'The id of the user who created the task' }),
    createdAt: Timestamp,
    updatedAt: Timestamp
  },
  { $id: 'Task' }
)

export const TaskParams = Type.Object({
  taskId: Type.String({ description: 'The task id, a UUID in either case; anything else names no task (404)' })
})

export const CreateTaskBody = Type.Object(
  {
    title: Type.String({ format: 'non-blank', maxLength: TITLE_MAX_LENGTH, [PLAIN_TEXT]: true }),
    description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX_LENGTH, [PLAIN_TEXT]: true }))
  },
  { description: 'Other fields (id, status, assignee, timestamps) are ignored' }
)
export type CreateTaskBody = Static<typeof CreateTaskBody>

export const UpdateTaskBody = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: TITLE_MAX_LENGTH, [PLAIN_TEXT]: true, description: 'Applied when non-empty' })),
    description: Type.Optional(
      Type.String({
        maxLength: DESCRIPTION_MAX_LENGTH,
        [PLAIN_TEXT]: true,
        description: 'Applied whenever present, empty string included'
      })
    ),
    // The empty string is accepted and ignored: the spec applies status only when it is truthy.
    status: Type.Optional(StringEnum([...TASK_STATUSES, ''], { description: 'Applied when non-empty' }))
  },
  { description: 'Absent fields are left unchanged' }
)
export type UpdateTaskBody = Static<typeof UpdateTaskBody>

export const ListTasksQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: PAGE_SIZE.max, default: PAGE_SIZE.default }),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'nextCursor of the previous page' })),
  status: Type.Optional(StringEnum(TASK_STATUSES))
})
export type ListTasksQuery = Static<typeof ListTasksQuery>

export const TaskList = Type.Object({
  tasks: Type.Array(Task),
  hasMore: Type.Boolean(),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null when hasMore is false' })
})

// Shared with the hub; re-exported so task routes keep importing from here.
export { errorResponses, HealthResponse } from '../shared/http/schemas.js'
