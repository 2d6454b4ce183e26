/**
 * How long a person's audit events are kept, in days: what they chose (`retention.activityLogDays`
 * of their privacy settings, stored beside the document as `privacySettings.activityLogDays`),
 * within these bounds, else the default. The trail is pruned by it and the activity page shows
 * no older event (docs/privacy.md, docs/activity.md).
 */
export const RETENTION_DAYS = { min: 30, max: 3650, default: 365 } as const
