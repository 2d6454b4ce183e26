import { Type } from 'typebox'
import { PLAIN_TEXT } from '../../../shared/http/validation.js'
import { DISPLAY_NAME_MAX_LENGTH } from '../../kernel/accounts/display-name.js'
import { USERS_PAGE_SIZE, USERS_QUERY_MAX_LENGTH } from './directory.js'

const RoleSchema = Type.Union([Type.Literal('member'), Type.Literal('admin')], { description: 'An administrator runs the hub (docs/administration.md)' })

export const ListedUserSchema = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  emailVerified: Type.Boolean({ description: 'Whether a link mailed to the address was used (or an invitation to it)' }),
  displayName: Type.Union([Type.String(), Type.Null()], { description: 'Null until chosen' }),
  role: RoleSchema,
  disabled: Type.Boolean({ description: 'A disabled account cannot sign in and has no session' }),
  createdAt: Type.String({ format: 'date-time' }),
  lastSignInAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: "The newest sign-in the account's audit trail holds (kept for the person's chosen retention); null when it holds none"
  }),
  twoStep: Type.Boolean({ description: 'Two-step sign-in with an authenticator app is on' }),
  passkeys: Type.Integer({ minimum: 0, description: 'How many passkeys the account has' }),
  groups: Type.Array(Type.String(), { description: "Its groups' names, sorted" })
})

export const UsersQuerySchema = Type.Object({
  query: Type.Optional(Type.String({ maxLength: USERS_QUERY_MAX_LENGTH, description: 'Matches the address or the display name, anywhere in it, whatever the case', [PLAIN_TEXT]: true })),
  limit: Type.Integer({ minimum: USERS_PAGE_SIZE.min, maximum: USERS_PAGE_SIZE.max, default: USERS_PAGE_SIZE.default }),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'nextCursor of the previous page' }))
})

export const UsersPageSchema = Type.Object({
  users: Type.Array(ListedUserSchema, { description: 'Newest account first' }),
  hasMore: Type.Boolean(),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null when hasMore is false' })
})

export const UserParams = Type.Object({ userId: Type.String({ maxLength: 64, description: "The account's id (userId in the list)", [PLAIN_TEXT]: true }) })

export const AccountChangesSchema = Type.Object(
  {
    role: Type.Optional(RoleSchema),
    disabled: Type.Optional(Type.Boolean({ description: 'true disables the account and ends its sessions; false lets it sign in again' })),
    // Room for surrounding spaces, which are trimmed; the limit is checked after.
    displayName: Type.Optional(Type.String({ maxLength: DISPLAY_NAME_MAX_LENGTH * 4, description: '1–64 visible characters', [PLAIN_TEXT]: true }))
  },
  { additionalProperties: false }
)
