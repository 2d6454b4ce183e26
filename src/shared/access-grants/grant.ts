export const PERMISSIONS = ['read', 'write', 'delete'] as const
export type Permission = (typeof PERMISSIONS)[number]

export interface AccessGrant {
  id: string
  userId: string
  applicationId: string
  roles: string[]
  permissions: Permission[]
  grantedBy: string
  createdAt: string
}

/** What the access check grants a user the first time they use an application. */
export const DEFAULT_GRANT = {
  roles: ['member'],
  permissions: [...PERMISSIONS] as Permission[],
  grantedBy: 'system'
} as const

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value)
}
