/**
 * Every enumeration of the contract, each one `as const` list: the schemas
 * validate and document with these, the domain and the store import the same
 * lists, and each type is derived from its list.
 */

export const ACCOUNT_ROLES = ['admin', 'manager', 'member', 'guest'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** E6 lists them in this order. */
export const QUOTA_NAMES = ['users', 'activated_users', 'admins', 'managers', 'guests', 'seats'] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];

/** Quotas with a counter of their own; `seats` reads the `users` counter. They are also the editable ones. */
export const COUNTED_QUOTAS = ['users', 'activated_users', 'admins', 'managers', 'guests'] as const;
export type CountedQuota = (typeof COUNTED_QUOTAS)[number];

export const REPORT_TYPES = ['departments', 'groups'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const REPORT_STATUSES = ['pending', 'running', 'complete', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const EMAIL_STATUSES = ['pending', 'sent', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** What an audit entry is about. */
export const RESOURCE_TYPES = ['user', 'department', 'group', 'report', 'scim-token', 'webhook'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type Direction = (typeof SORT_DIRECTIONS)[number];

/** E1's sort fields and filter attributes, shared by every user list. */
export const USER_SORT_FIELDS = ['last_name', 'account_role', 'activated', 'last_login'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export const USER_FILTER_ATTRIBUTES = ['account_role', 'last_name', 'department_id'] as const;
/** A group's users: G1's order (the default) and the member partition's (id); E1's other orders are not served there. */
export const GROUP_USER_SORT_FIELDS = ['last_name', 'id'] as const;
export type GroupUserSortField = (typeof GROUP_USER_SORT_FIELDS)[number];

/** Departments' and groups' lists. */
export const NAMED_SORT_FIELDS = ['name', 'created_at', 'user_count'] as const;
export type NamedSortField = (typeof NAMED_SORT_FIELDS)[number];
export const NAMED_FILTER_ATTRIBUTES = ['name'] as const;

export const AUDIT_FILTER_ATTRIBUTES = ['actor', 'operation', 'resource_id'] as const;

/** What a group rule may test (lib/groups/rule.ts): the dimensions of the counters' cells. */
export const RULE_ATTRIBUTES = ['department_id', 'account_role', 'activated'] as const;
export type RuleAttribute = (typeof RULE_ATTRIBUTES)[number];
/** A rule group's state: its joins and leaves being written, done, or held at the group limit. */
export const RULE_STATUSES = ['applying', 'current', 'over_limit'] as const;
export type RuleStatus = (typeof RULE_STATUSES)[number];

/** A webhook's state: `disabled` is set by the service alone (24 hours of failed deliveries); a PATCH sets the others. */
export const WEBHOOK_STATUSES = ['active', 'paused', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];
export const WEBHOOK_SETTABLE_STATUSES = ['active', 'paused'] as const;

/** Who an audit entry names when the service itself made the change (a webhook disabled after 24 hours of failures). */
export const SYSTEM_ACTOR = 'system';
/**
 * The audit's `operation` of changes no route makes: the service's own (a webhook disabled; a rule applied to its
 * group, and a user's change followed by the rule groups it joins or leaves: lib/groups/rule-follow.ts).
 */
export const SYSTEM_OPERATIONS = ['disableWebhook', 'applyGroupRule', 'followUserChange'] as const;
