// Generated from the OpenAPI document by infra/console-api-types.ts: do not edit; run `tsx infra/console-api-types.ts`.
export interface paths {
    "/v2/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health check
         * @description No token needed.
         */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/health.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health check (`.json` form)
         * @description No token needed.
         */
        get: operations["healthJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The OpenAPI 3.1 document of this API
         * @description This document: OpenAPI 3.1, generated from the route table and the request and response schemas.
         *
         *     No token needed.
         */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The documentation page (HTML) that renders the OpenAPI document
         * @description A page that renders this document with Redoc, served by the service itself (no CDN).
         *
         *     No token needed.
         */
        get: operations["docs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The documentation page (HTML) that renders the OpenAPI document (`.json` form)
         * @description A page that renders this document with Redoc, served by the service itself (no CDN).
         *
         *     No token needed.
         */
        get: operations["docsJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/redoc.standalone.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The script of the documentation page (Redoc)
         * @description Redoc's standalone bundle, as packaged on the npm registry; gzip-encoded when the client accepts it.
         *
         *     No token needed.
         */
        get: operations["docsRenderer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The admin console (HTML page); it signs a person in and then calls this API
         * @description The admin console: a page that signs a person in (a pasted token, the link `npm start` prints, or the OAuth login of the deployment) and then uses this API as any client does. Its Content-Security-Policy allows nothing from elsewhere.
         *
         *     No token needed.
         */
        get: operations["console"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The admin console (HTML page); it signs a person in and then calls this API (`.json` form)
         * @description The admin console: a page that signs a person in (a pasted token, the link `npm start` prints, or the OAuth login of the deployment) and then uses this API as any client does. Its Content-Security-Policy allows nothing from elsewhere.
         *
         *     No token needed.
         */
        get: operations["consoleJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/{asset}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The admin console's scripts and styles
         * @description One of the console's scripts or styles, named by its content hash; gzip-encoded when the client accepts it.
         *
         *     No token needed.
         */
        get: operations["consoleAssets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List all users
         * @description Every user, in or out of a department. Same parameters as E1.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Create a user
         * @description `email` is unique (compared case-insensitively); the server makes an `id` when none is given.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/users.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List all users (`.json` form)
         * @description Every user, in or out of a department. Same parameters as E1.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listUsersJson"];
        put?: never;
        /**
         * Create a user (`.json` form)
         * @description `email` is unique (compared case-insensitively); the server makes an `id` when none is given.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["createUserJson"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a user
         * @description Needs a token with scope `admin/read`.
         */
        get: operations["getUser"];
        put?: never;
        post?: never;
        /**
         * Delete a user
         * @description The user leaves its department and its groups.
         *
         *     Needs a token with scope `admin/write`.
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        /**
         * Update a user
         * @description A change of `account_role` or `activated` of a department member is checked against that department's quotas. `department_id` is not accepted: membership changes through E2–E5.
         *
         *     Needs a token with scope `admin/write`.
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/v2/departments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List departments
         * @description Needs a token with scope `admin/read`.
         */
        get: operations["listDepartments"];
        put?: never;
        /**
         * Create a department
         * @description The server makes an `id` when none is given; `users` and `exports` cannot be department ids.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["createDepartment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/departments.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List departments (`.json` form)
         * @description Needs a token with scope `admin/read`.
         */
        get: operations["listDepartmentsJson"];
        put?: never;
        /**
         * Create a department (`.json` form)
         * @description The server makes an `id` when none is given; `users` and `exports` cannot be department ids.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["createDepartmentJson"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/departments/{department_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a department
         * @description Needs a token with scope `admin/read`.
         */
        get: operations["getDepartment"];
        put?: never;
        post?: never;
        /**
         * E8: delete an empty department
         * @description Only an empty department can go: 409 `department-not-empty` (with `user_count`) while it has users.
         *
         *     Needs a token with scope `admin/write`.
         */
        delete: operations["deleteDepartment"];
        options?: never;
        head?: never;
        /**
         * Rename a department
         * @description Needs a token with scope `admin/write`.
         */
        patch: operations["updateDepartment"];
        trace?: never;
    };
    "/v2/departments/{department_id}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the users of one department (E1 restricted to it)
         * @description E1 restricted to one department.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listDepartmentUsers"];
        put?: never;
        /**
         * E3: add up to 1,000 users to a department, all or nothing
         * @description All or nothing: unknown users give 404 `not-found` with `missing_user_ids`, a quota that would be exceeded gives 409 `quota-exceeded`, and nothing changes. Repeated ids are ignored.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["addDepartmentUsers"];
        /**
         * E5: remove up to 1,000 users from a department, all or nothing
         * @description All or nothing: users that are not members of this department give 404 `not-a-member` with `user_ids`, and nothing changes.
         *
         *     Needs a token with scope `admin/write`.
         */
        delete: operations["removeDepartmentUsers"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/departments/{department_id}/users.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the users of one department (E1 restricted to it) (`.json` form)
         * @description E1 restricted to one department.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listDepartmentUsersJson"];
        put?: never;
        /**
         * E3: add up to 1,000 users to a department, all or nothing (`.json` form)
         * @description All or nothing: unknown users give 404 `not-found` with `missing_user_ids`, a quota that would be exceeded gives 409 `quota-exceeded`, and nothing changes. Repeated ids are ignored.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["addDepartmentUsersJson"];
        /**
         * E5: remove up to 1,000 users from a department, all or nothing (`.json` form)
         * @description All or nothing: users that are not members of this department give 404 `not-a-member` with `user_ids`, and nothing changes.
         *
         *     Needs a token with scope `admin/write`.
         */
        delete: operations["removeDepartmentUsersJson"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/departments/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * E1: list users that belong to any department
         * @description Users that belong to any department.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listMemberUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/departments/users.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * E1: list users that belong to any department (`.json` form)
         * @description Users that belong to any department.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listMemberUsersJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/departments/{department_id}/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E2: add a user to a department (moving it out of any other)
         * @description No body. A user in another department moves: it leaves the old one in the same atomic step. Already a member: 200, nothing changes. An addition that would exceed any quota: 409 `quota-exceeded` with every quota it would exceed.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["addDepartmentUser"];
        /**
         * E4: remove a user from a department
         * @description The user's `department_id` becomes null.
         *
         *     Needs a token with scope `admin/write`.
         */
        delete: operations["removeDepartmentUser"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/departments/{department_id}/quotas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * E6: read a department's quotas
         * @description All six quotas in a fixed order: `users`, `activated_users`, `admins`, `managers`, `guests`, `seats`.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["getDepartmentQuotas"];
        /**
         * E7: set or remove one quota limit
         * @description `limit: null` removes the limit. A limit below the current usage is accepted: members stay, further additions fail. `seats` comes from the deployment: 403 `quota-not-editable`.
         *
         *     Needs a token with scope `admin/write`.
         */
        put: operations["setDepartmentQuota"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/departments/{department_id}/quotas.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * E6: read a department's quotas (`.json` form)
         * @description All six quotas in a fixed order: `users`, `activated_users`, `admins`, `managers`, `guests`, `seats`.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["getDepartmentQuotasJson"];
        /**
         * E7: set or remove one quota limit (`.json` form)
         * @description `limit: null` removes the limit. A limit below the current usage is accepted: members stay, further additions fail. `seats` comes from the deployment: 403 `quota-not-editable`.
         *
         *     Needs a token with scope `admin/write`.
         */
        put: operations["setDepartmentQuotaJson"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/departments/{department_id}/quotas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * E6: read a department's quotas (as /v2/departments/{department_id}/quotas)
         * @description All six quotas in a fixed order: `users`, `activated_users`, `admins`, `managers`, `guests`, `seats`.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["getDepartmentQuotasAlias1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/departments/{department_id}/quotas.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * E6: read a department's quotas (as /v2/departments/{department_id}/quotas) (`.json` form)
         * @description All six quotas in a fixed order: `users`, `activated_users`, `admins`, `managers`, `guests`, `seats`.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["getDepartmentQuotasAlias1Json"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/groups/{group_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * G1: get a group with its users (the first 1,000, and the cursor of the rest)
         * @description The group with its users, sorted by `last_name`, then `id`: every one when it has at most 1,000, else the first 1,000 and `users_next_cursor`, the `cursor` of `GET /v2/groups/{group_id}/users` (listGroupUsers) that continues after them (null when all are there). Every answer stays within the 6 MB a function can return.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["getGroup"];
        put?: never;
        post?: never;
        /**
         * G6: delete a group (its users stay)
         * @description Its users stay; only the memberships go. While an identity provider's change of many of the group's members is being applied (seconds), other member changes and its deletion get 409 `conflict`: retry.
         *
         *     Needs a token with scope `admin/write`.
         */
        delete: operations["deleteGroup"];
        options?: never;
        head?: never;
        /**
         * Rename or re-describe a group
         * @description Give `name`, `description`, `external_id`, `rule` or any of them; a new name must be unique case-insensitively (409). An empty body changes nothing (200). `rule` keeps the members by department, role and activation: the `query` syntax over `department_id` (an existing department; at most 40), `account_role` and `activated` (e.g. `department_id:eng,department_id:ops,account_role:admin,activated:true`); every user change then joins or leaves it within 5 seconds, audited with actor `rule:<group id>`. A rule matching more than 10,000 users is a 409 `conflict` with `matching`; at most 500 groups have a rule (409). A new rule leaves the group `applying` until its joins and leaves are written; `rule: null` turns it back into a manual group, its members staying. With `dry_run=true` and a rule: the group as it is, with `rule_preview`; nothing changes.
         *
         *     Needs a token with scope `admin/write`.
         */
        patch: operations["updateGroup"];
        trace?: never;
    };
    "/v2/groups/{group_id}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a group's users, a page at a time
         * @description A group's users, a page at a time, with E1's parameters. `sort=id` (or `id:desc`) pages straight from the group's member partition: a page costs its own users, at any depth, and takes no filter (400). `sort=last_name` (the default, G1's order, which `users_next_cursor` of G1 continues) and the filters are answered by reading every member of the group, up to 10,000 users, for each page. E1's other orders (`account_role`, `activated`, `last_login`) are not served: 400.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listGroupUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/groups/{group_id}/users.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a group's users, a page at a time (`.json` form)
         * @description A group's users, a page at a time, with E1's parameters. `sort=id` (or `id:desc`) pages straight from the group's member partition: a page costs its own users, at any depth, and takes no filter (400). `sort=last_name` (the default, G1's order, which `users_next_cursor` of G1 continues) and the filters are answered by reading every member of the group, up to 10,000 users, for each page. E1's other orders (`account_role`, `activated`, `last_login`) are not served: 400.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listGroupUsersJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * G2: list groups
         * @description Groups without their users.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listGroups"];
        put?: never;
        /**
         * G3: create a group, optionally with up to 10,000 users (all or nothing)
         * @description The name is unique case-insensitively (409). All or nothing: unknown users give 404 `not-found` with `missing_user_ids`; more than 10,000 users give 409. `exports` cannot be a group id. `rule` keeps the members by department, role and activation: the `query` syntax over `department_id` (an existing department; at most 40), `account_role` and `activated` (e.g. `department_id:eng,department_id:ops,account_role:admin,activated:true`); every user change then joins or leaves it within 5 seconds, audited with actor `rule:<group id>`. A rule matching more than 10,000 users is a 409 `conflict` with `matching`; at most 500 groups have a rule (409). With a rule the group is created empty, `rule_status: applying`; `user_ids` with a rule give 409 `rule-managed`.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["createGroup"];
        /**
         * G7: delete up to 100 groups, all or nothing
         * @description All or nothing: any unknown group gives 404 `not-found` with `missing_group_ids`, and nothing is deleted. While an identity provider's change of many of the group's members is being applied (seconds), other member changes and its deletion get 409 `conflict`: retry.
         *
         *     Needs a token with scope `admin/write`.
         */
        delete: operations["deleteGroups"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/groups.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * G2: list groups (`.json` form)
         * @description Groups without their users.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listGroupsJson"];
        put?: never;
        /**
         * G3: create a group, optionally with up to 10,000 users (all or nothing) (`.json` form)
         * @description The name is unique case-insensitively (409). All or nothing: unknown users give 404 `not-found` with `missing_user_ids`; more than 10,000 users give 409. `exports` cannot be a group id. `rule` keeps the members by department, role and activation: the `query` syntax over `department_id` (an existing department; at most 40), `account_role` and `activated` (e.g. `department_id:eng,department_id:ops,account_role:admin,activated:true`); every user change then joins or leaves it within 5 seconds, audited with actor `rule:<group id>`. A rule matching more than 10,000 users is a 409 `conflict` with `matching`; at most 500 groups have a rule (409). With a rule the group is created empty, `rule_status: applying`; `user_ids` with a rule give 409 `rule-managed`.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["createGroupJson"];
        /**
         * G7: delete up to 100 groups, all or nothing (`.json` form)
         * @description All or nothing: any unknown group gives 404 `not-found` with `missing_group_ids`, and nothing is deleted. While an identity provider's change of many of the group's members is being applied (seconds), other member changes and its deletion get 409 `conflict`: retry.
         *
         *     Needs a token with scope `admin/write`.
         */
        delete: operations["deleteGroupsJson"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/groups/{group_id}/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * G4: add a user to a group
         * @description Already a member: 200, nothing changes. A group holds at most 10,000 users (409). A rule group's members are kept by its rule: 409 `rule-managed`. While an identity provider's change of many of the group's members is being applied (seconds), other member changes and its deletion get 409 `conflict`: retry.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["addGroupUser"];
        /**
         * G5: remove a user from a group
         * @description A rule group's members are kept by its rule: 409 `rule-managed`. While an identity provider's change of many of the group's members is being applied (seconds), other member changes and its deletion get 409 `conflict`: retry.
         *
         *     Needs a token with scope `admin/write`.
         */
        delete: operations["removeGroupUser"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit trail of every change, newest first
         * @description Every change, recorded in the same transaction as the change: who (the token subject), when, the operation id, the resource and what changed. For a membership change the resource is the department or group, and `changes` names the users.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/audit.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit trail of every change, newest first (`.json` form)
         * @description Every change, recorded in the same transaction as the change: who (the token subject), when, the operation id, the resource and what changed. For a membership change the resource is the department or group, and `changes` names the users.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listAuditJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The change feed: every change, oldest first, by a cursor that never ends
         * @description The audit trail in the order its entries reached the feed (oldest first), for systems that follow every change. Each entry is given its place after its change has committed, so a walk by cursor never skips and never repeats an entry, however long a change took to commit, and an entry appears within 10 seconds of its request's answer. `next_cursor` is never null: at the end it is where to continue later.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/changes.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The change feed: every change, oldest first, by a cursor that never ends (`.json` form)
         * @description The audit trail in the order its entries reached the feed (oldest first), for systems that follow every change. Each entry is given its place after its change has committed, so a walk by cursor never skips and never repeats an entry, however long a change took to commit, and an entry appears within 10 seconds of its request's answer. `next_cursor` is never null: at the end it is where to continue later.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listChangesJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks (without secrets)
         * @description Every webhook, oldest first, without secrets.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register an endpoint that receives every change (its signing secret is shown once)
         * @description Every change the audit trail records that passes the filters is delivered to `url` as a Standard Webhooks POST of `{"type": "change.recorded", "timestamp", "data": <audit entry>}`, signed with the secret this answer shows once (`whsec_…`, for the `standardwebhooks` libraries' `Webhook(secret).verify`). `url` must be `https` and its host must not resolve to a loopback, private, link-local (cloud metadata) or otherwise internal address, checked now and at each delivery (a deployment with `WEBHOOKS_ALLOW_LOCAL=true`, the local stack, also takes `http` and loopback). Filters: `resource_types`, `operations` (as audit entries name them: a contract label such as `E2`, else the operation's name) and `exclude_actors` (a client leaves out its own changes); empty or absent: everything. At most 25 webhooks: one more is 409 `conflict` with `limit`.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhooks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks (without secrets) (`.json` form)
         * @description Every webhook, oldest first, without secrets.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listWebhooksJson"];
        put?: never;
        /**
         * Register an endpoint that receives every change (its signing secret is shown once) (`.json` form)
         * @description Every change the audit trail records that passes the filters is delivered to `url` as a Standard Webhooks POST of `{"type": "change.recorded", "timestamp", "data": <audit entry>}`, signed with the secret this answer shows once (`whsec_…`, for the `standardwebhooks` libraries' `Webhook(secret).verify`). `url` must be `https` and its host must not resolve to a loopback, private, link-local (cloud metadata) or otherwise internal address, checked now and at each delivery (a deployment with `WEBHOOKS_ALLOW_LOCAL=true`, the local stack, also takes `http` and loopback). Filters: `resource_types`, `operations` (as audit entries name them: a contract label such as `E2`, else the operation's name) and `exclude_actors` (a client leaves out its own changes); empty or absent: everything. At most 25 webhooks: one more is 409 `conflict` with `limit`.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["createWebhookJson"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook
         * @description `status` is `active`, `paused`, or `disabled` (every delivery attempt failed for 24 hours: the service stopped it; `PATCH` `status: active` re-enables it).
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description Nothing more is delivered; attempts already under way may still arrive once.
         *
         *     Needs a token with scope `admin/write`.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change a webhook's URL, description or filters, pause or resume it
         * @description Give any of `url`, `description`, the filters and `status`. `paused`: nothing is delivered from now on; `active` again: what changed meanwhile is delivered then (nothing is lost), and a `disabled` webhook is enabled again (what changed while it was disabled is not sent: read it from `GET /v2/changes`). A filter replaces the old one; `[]` lets everything through.
         *
         *     Needs a token with scope `admin/write`.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/v2/webhooks/{webhook_id}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a new signing secret (shown once); the old one still verifies for 24 hours
         * @description A new secret, shown this once. For 24 hours deliveries carry two signatures in `webhook-signature` (space-separated, as Standard Webhooks allows), one by each secret, so a receiver can switch secrets at any time within them; after that only the new one signs. A second rotation within the 24 hours ends the first old secret at once.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhooks/{webhook_id}/secret.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a new signing secret (shown once); the old one still verifies for 24 hours (`.json` form)
         * @description A new secret, shown this once. For 24 hours deliveries carry two signatures in `webhook-signature` (space-separated, as Standard Webhooks allows), one by each secret, so a receiver can switch secrets at any time within them; after that only the new one signs. A second rotation within the 24 hours ends the first old secret at once.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["rotateWebhookSecretJson"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a ping event to the endpoint now and answer how it went
         * @description Sends a `ping` event (`{"type": "ping", "timestamp", "data": {"webhook_id"}}`, signed like every delivery) to the endpoint now, whatever the status, and answers how that attempt went (it is in the delivery log too). An endpoint that does not answer within 10 seconds, answers a redirect, or resolves to a refused address: the attempt says so in `error`.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhooks/{webhook_id}/test.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a ping event to the endpoint now and answer how it went (`.json` form)
         * @description Sends a `ping` event (`{"type": "ping", "timestamp", "data": {"webhook_id"}}`, signed like every delivery) to the endpoint now, whatever the status, and answers how that attempt went (it is in the delivery log too). An endpoint that does not answer within 10 seconds, answers a redirect, or resolves to a refused address: the attempt says so in `error`.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["testWebhookJson"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook's delivery attempts, newest first
         * @description The webhook's delivery attempts of the last 30 days, newest first: each change's attempts carry the change's id (the `webhook-id` the endpoint received), the answer's status code or the error, and when the next attempt is due. A change is attempted for more than 24 hours (after 5 seconds, 5 and 30 minutes, 2, 5, 10 and 10 hours), then recorded as failed.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhooks/{webhook_id}/deliveries.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook's delivery attempts, newest first (`.json` form)
         * @description The webhook's delivery attempts of the last 30 days, newest first: each change's attempts carry the change's id (the `webhook-id` the endpoint received), the answer's status code or the error, and when the next attempt is due. A change is attempted for more than 24 hours (after 5 seconds, 5 and 30 minutes, 2, 5, 10 and 10 hours), then recorded as failed.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listWebhookDeliveriesJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/departments/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E9: start a departments report (CSV), optionally e-mailed
         * @description One CSV row per department, with its usage and limits. Create → poll → download. A caller (the token's subject) may ask for at most 20 e-mailed reports an hour; more: 429 `too-many-requests` with `Retry-After`. Reports without `email` are not counted.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["createDepartmentsReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/departments/exports.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E9: start a departments report (CSV), optionally e-mailed (`.json` form)
         * @description One CSV row per department, with its usage and limits. Create → poll → download. A caller (the token's subject) may ask for at most 20 e-mailed reports an hour; more: 429 `too-many-requests` with `Retry-After`. Reports without `email` are not counted.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["createDepartmentsReportJson"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/departments/exports/{report_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Status of a departments report, with its download link once complete
         * @description When the report is complete, `row_count` is set and `download_url` is a link (valid 15 minutes) to the CSV.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["getDepartmentsReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/departments/exports/{report_id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Redirect (303) to a departments report's CSV
         * @description The link carries its own signature: a client that repeats `Authorization` on the redirect (Postman/newman, Prism, Python's urllib) is refused by S3 (400 "Only one auth mechanism allowed"). Such clients ask with `redirect=false` and fetch `download_url` without the header.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["downloadDepartmentsReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/departments/exports/{report_id}/download.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Redirect (303) to a departments report's CSV (`.json` form)
         * @description The link carries its own signature: a client that repeats `Authorization` on the redirect (Postman/newman, Prism, Python's urllib) is refused by S3 (400 "Only one auth mechanism allowed"). Such clients ask with `redirect=false` and fetch `download_url` without the header.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["downloadDepartmentsReportJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/groups/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * G8: start a groups report (CSV), optionally e-mailed
         * @description One CSV row per group and member (a group with no users has one row with the user cells empty). Create → poll → download. A caller (the token's subject) may ask for at most 20 e-mailed reports an hour; more: 429 `too-many-requests` with `Retry-After`. Reports without `email` are not counted.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["createGroupsReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/groups/exports.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * G8: start a groups report (CSV), optionally e-mailed (`.json` form)
         * @description One CSV row per group and member (a group with no users has one row with the user cells empty). Create → poll → download. A caller (the token's subject) may ask for at most 20 e-mailed reports an hour; more: 429 `too-many-requests` with `Retry-After`. Reports without `email` are not counted.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["createGroupsReportJson"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/groups/exports/{report_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Status of a groups report, with its download link once complete
         * @description When the report is complete, `row_count` is set and `download_url` is a link (valid 15 minutes) to the CSV.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["getGroupsReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/groups/exports/{report_id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Redirect (303) to a groups report's CSV
         * @description The link carries its own signature: a client that repeats `Authorization` on the redirect (Postman/newman, Prism, Python's urllib) is refused by S3 (400 "Only one auth mechanism allowed"). Such clients ask with `redirect=false` and fetch `download_url` without the header.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["downloadGroupsReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/groups/exports/{report_id}/download.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Redirect (303) to a groups report's CSV (`.json` form)
         * @description The link carries its own signature: a client that repeats `Authorization` on the redirect (Postman/newman, Prism, Python's urllib) is refused by S3 (400 "Only one auth mechanism allowed"). Such clients ask with `redirect=false` and fetch `download_url` without the header.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["downloadGroupsReportJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/reports/{report_id}/email-download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Redirect (303) to an e-mailed report's CSV: the e-mail's link
         * @description The link a report e-mail carries when the CSV is too large to attach; it needs no token (its secret is in `token`) and works until the date the e-mail states (7 days). A wrong, tampered or expired `token`, or an unknown report, is 404 alike.
         *
         *     No token needed.
         */
        get: operations["downloadEmailedReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/reports/{report_id}/email-download.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Redirect (303) to an e-mailed report's CSV: the e-mail's link (`.json` form)
         * @description The link a report e-mail carries when the CSV is too large to attach; it needs no token (its secret is in `token`) and works until the date the e-mail states (7 days). A wrong, tampered or expired `token`, or an unknown report, is 404 alike.
         *
         *     No token needed.
         */
        get: operations["downloadEmailedReportJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/scim/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List SCIM tokens (without secrets)
         * @description Every SCIM token, oldest first, without secrets; `last_used_at` is kept to the minute.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listScimTokens"];
        put?: never;
        /**
         * Make a SCIM token for an identity provider (its secret is shown once)
         * @description A token for an identity provider's SCIM connection (Okta, Entra ID: "Secret token"). The answer carries its secret, `token`, this once: the service keeps only a hash. Paste it in the identity provider with the SCIM base URL `{base_url}/scim/v2`. With `expires_at` (a time in the future) the token stops working at that time, to the millisecond on AWS too (each SCIM request checks it, whatever the authorizer's cache holds); without it, it works until it is deleted.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["createScimToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/scim/tokens.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List SCIM tokens (without secrets) (`.json` form)
         * @description Every SCIM token, oldest first, without secrets; `last_used_at` is kept to the minute.
         *
         *     Needs a token with scope `admin/read`.
         */
        get: operations["listScimTokensJson"];
        put?: never;
        /**
         * Make a SCIM token for an identity provider (its secret is shown once) (`.json` form)
         * @description A token for an identity provider's SCIM connection (Okta, Entra ID: "Secret token"). The answer carries its secret, `token`, this once: the service keeps only a hash. Paste it in the identity provider with the SCIM base URL `{base_url}/scim/v2`. With `expires_at` (a time in the future) the token stops working at that time, to the millisecond on AWS too (each SCIM request checks it, whatever the authorizer's cache holds); without it, it works until it is deleted.
         *
         *     Needs a token with scope `admin/write`.
         */
        post: operations["createScimTokenJson"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/scim/tokens/{token_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a SCIM token
         * @description The token stops working: locally at once; on AWS within the SCIM authorizer's cache time (5 minutes). Its provisioning keeps what it made.
         *
         *     Needs a token with scope `admin/write`.
         */
        delete: operations["deleteScimToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/ServiceProviderConfig": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCIM: what the service supports
         * @description The service provider configuration (RFC 7643), as the service publishes it: what an identity provider reads when it connects.
         */
        get: operations["scimServiceProviderConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/ResourceTypes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCIM: the resource types
         * @description The resource types (RFC 7643), as the service publishes it: what an identity provider reads when it connects.
         */
        get: operations["scimResourceTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/ResourceTypes/{resource_type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCIM: one resource type
         * @description One resource type (RFC 7643), as the service publishes it: what an identity provider reads when it connects.
         */
        get: operations["scimResourceType"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCIM: the schemas of the attributes the service keeps
         * @description The schemas (RFC 7643), as the service publishes it: what an identity provider reads when it connects.
         */
        get: operations["scimSchemas"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Schemas/{schema_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCIM: one schema
         * @description One schema (RFC 7643), as the service publishes it: what an identity provider reads when it connects.
         */
        get: operations["scimSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCIM: list or find users (filter, startIndex, count)
         * @description Identity providers find a user by `userName eq "..."` (case-insensitive) or `externalId eq "..."`: answered from a unique claim, one read. `id`, `emails[type eq "work"].value` / `emails.value`, `active`, `roles.value` and `name.familyName sw` are indexed too; any other filter reads the list. `startIndex` pages: sequential pages continue where the last one ended.
         */
        get: operations["scimListUsers"];
        put?: never;
        /**
         * SCIM: create a user
         * @description Makes a user. The enterprise extension's `department` names a department (by id or name); an unknown one is created with that name (a 400 `invalidValue` where the deployment sets `SCIM_CREATE_DEPARTMENTS=false`). The user's department quota holds as for E3.
         */
        post: operations["scimCreateUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCIM: get a user
         * @description One user, deactivated or not.
         */
        get: operations["scimGetUser"];
        /**
         * SCIM: replace a user
         * @description Replaces the attributes the service keeps (PUT: what the body leaves out is cleared where it may be).
         */
        put: operations["scimReplaceUser"];
        post?: never;
        /**
         * SCIM: delete a user
         * @description Deletes the user, and takes them out of their department and groups.
         */
        delete: operations["scimDeleteUser"];
        options?: never;
        head?: never;
        /**
         * SCIM: change a user (PatchOp, all operations or none)
         * @description Okta's and Entra's PATCH dialects (paths or a value object; `"False"` for false; `op` in any case). `active: false` deprovisions: the user stays, not activated.
         */
        patch: operations["scimPatchUser"];
        trace?: never;
    };
    "/scim/v2/Groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCIM: list or find groups
         * @description Identity providers find a group by `displayName eq "..."` (case-insensitive) or `externalId eq "..."`: one read. Members are read only when asked for (`excludedAttributes=members` spares them), and only for the groups of the page; a page holds groups up to 10,000 members together (at least one group), so it may hold fewer than `count` (`itemsPerPage` says how many).
         */
        get: operations["scimListGroups"];
        put?: never;
        /**
         * SCIM: create a group
         * @description Makes a group, with its members.
         */
        post: operations["scimCreateGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Groups/{group_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCIM: get a group
         * @description One group.
         */
        get: operations["scimGetGroup"];
        /**
         * SCIM: replace a group
         * @description Replaces the group: its name, externalId and its members.
         */
        put: operations["scimReplaceGroup"];
        post?: never;
        /**
         * SCIM: delete a group
         * @description Deletes the group (its members stay).
         */
        delete: operations["scimDeleteGroup"];
        options?: never;
        head?: never;
        /**
         * SCIM: change a group and its members (PatchOp, all or nothing)
         * @description Adds and removes members (`members[value eq "id"]` paths, or value lists), renames: all operations or none. Answers 204, or the group when `attributes` asks for it. Up to 30 members added or removed are one transaction; more (a PUT counts the difference with the members there) are decided at once and applied in parts within seconds.
         */
        patch: operations["scimPatchGroup"];
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description `account_role` defaults to `member`, `activated` to false, `last_login` and `department_id` to null. */
        User: {
            id: string;
            user_name: string;
            external_id: string | null;
            /** Format: email */
            email: string;
            first_name: string;
            last_name: string;
            /** @enum {string} */
            account_role: "admin" | "manager" | "member" | "guest";
            activated: boolean;
            last_login: string | null;
            department_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        Department: {
            id: string;
            name: string;
            user_count: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description `usage` counts the members the quota applies to; `limit` null means no limit; `seats` is set by the deployment and not `editable`. */
        Quota: {
            /** @enum {string} */
            name: "users" | "activated_users" | "admins" | "managers" | "guests" | "seats";
            limit: number | null;
            usage: number;
            editable: boolean;
        };
        DepartmentQuotas: {
            department_id: string;
            quotas: components["schemas"]["Quota"][];
        };
        DepartmentDeleted: {
            id: string;
            /** @constant */
            deleted: true;
        };
        GroupSummary: {
            id: string;
            name: string;
            description: string;
            external_id: string | null;
            user_count: number;
            rule: string | null;
            rule_status: ("applying" | "current" | "over_limit") | null;
            bulk_status: "applying" | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        Group: {
            id: string;
            name: string;
            description: string;
            external_id: string | null;
            user_count: number;
            rule: string | null;
            rule_status: ("applying" | "current" | "over_limit") | null;
            bulk_status: "applying" | null;
            users: components["schemas"]["User"][];
            users_next_cursor: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            rule_preview?: {
                matching: number;
                joining: number;
                leaving: number;
                sample_joining: components["schemas"]["User"][];
                sample_leaving: components["schemas"]["User"][];
            };
        };
        Users: {
            users: components["schemas"]["User"][];
        };
        UserList: {
            users: components["schemas"]["User"][];
            total: number;
            count: number;
            offset: number;
            next_cursor: string | null;
        };
        DepartmentList: {
            departments: components["schemas"]["Department"][];
            total: number;
            count: number;
            offset: number;
            next_cursor: string | null;
        };
        GroupList: {
            groups: components["schemas"]["GroupSummary"][];
            total: number;
            count: number;
            offset: number;
            next_cursor: string | null;
        };
        /** @description `status` goes `pending` → `running` → `complete` or `failed`; `email` is null when no e-mail was asked for. */
        Report: {
            id: string;
            /** @enum {string} */
            type: "departments" | "groups";
            /** @enum {string} */
            status: "pending" | "running" | "complete" | "failed";
            /** Format: date-time */
            created_at: string;
            completed_at: string | null;
            row_count: number | null;
            download_url: string | null;
            email: {
                recipients: string[];
                /** @enum {string} */
                status: "pending" | "sent" | "failed";
            } | null;
        };
        AuditEntry: {
            id: string;
            /** Format: date-time */
            at: string;
            actor: string;
            operation: string;
            /** @enum {string} */
            resource_type: "user" | "department" | "group" | "report" | "scim-token" | "webhook";
            resource_id: string;
            changes: {
                [key: string]: unknown;
            };
        };
        AuditList: {
            entries: components["schemas"]["AuditEntry"][];
            count: number;
            next_cursor: string | null;
        };
        ChangeList: {
            changes: components["schemas"]["AuditEntry"][];
            count: number;
            next_cursor: string;
        };
        Health: {
            /** @constant */
            status: "ok";
        };
        OpenApiDocument: {
            openapi: string;
        } & {
            [key: string]: unknown;
        };
        /** @description The request is not valid (`validation`, 400). */
        ValidationProblem: {
            /** @constant */
            type: "/problems/validation";
            /** @constant */
            title: "The request is not valid";
            /** @constant */
            status: 400;
            detail: string;
            errors: {
                field: string;
                message: string;
            }[];
        };
        /** @description Authentication required (`unauthorized`, 401). */
        UnauthorizedProblem: {
            /** @constant */
            type: "/problems/unauthorized";
            /** @constant */
            title: "Authentication required";
            /** @constant */
            status: 401;
            detail: string;
        };
        /** @description Not allowed (`forbidden`, 403). */
        ForbiddenProblem: {
            /** @constant */
            type: "/problems/forbidden";
            /** @constant */
            title: "Not allowed";
            /** @constant */
            status: 403;
            detail: string;
        };
        /** @description Not found (`not-found`, 404). */
        NotFoundProblem: {
            /** @constant */
            type: "/problems/not-found";
            /** @constant */
            title: "Not found";
            /** @constant */
            status: 404;
            detail: string;
            missing_user_ids?: string[];
            missing_group_ids?: string[];
        };
        /** @description Not a member (`not-a-member`, 404). */
        NotAMemberProblem: {
            /** @constant */
            type: "/problems/not-a-member";
            /** @constant */
            title: "Not a member";
            /** @constant */
            status: 404;
            detail: string;
            user_ids: string[];
        };
        /** @description Conflict (`conflict`, 409). */
        ConflictProblem: {
            /** @constant */
            type: "/problems/conflict";
            /** @constant */
            title: "Conflict";
            /** @constant */
            status: 409;
            detail: string;
            /** @enum {string} */
            field?: "id" | "email" | "name" | "user_name" | "external_id";
            limit?: number;
            matching?: number;
        };
        /** @description Quota exceeded (`quota-exceeded`, 409). */
        QuotaExceededProblem: {
            /** @constant */
            type: "/problems/quota-exceeded";
            /** @constant */
            title: "Quota exceeded";
            /** @constant */
            status: 409;
            detail: string;
            overages: {
                /** @enum {string} */
                quota: "users" | "activated_users" | "admins" | "managers" | "guests" | "seats";
                limit: number;
                usage: number;
                requested: number;
                overage: number;
            }[];
        };
        /** @description Department not empty (`department-not-empty`, 409). */
        DepartmentNotEmptyProblem: {
            /** @constant */
            type: "/problems/department-not-empty";
            /** @constant */
            title: "Department not empty";
            /** @constant */
            status: 409;
            detail: string;
            user_count: number;
        };
        /** @description Members kept by a rule (`rule-managed`, 409). */
        RuleManagedProblem: {
            /** @constant */
            type: "/problems/rule-managed";
            /** @constant */
            title: "Members kept by a rule";
            /** @constant */
            status: 409;
            detail: string;
        };
        /** @description Report not ready (`report-not-ready`, 409). */
        ReportNotReadyProblem: {
            /** @constant */
            type: "/problems/report-not-ready";
            /** @constant */
            title: "Report not ready";
            /** @constant */
            status: 409;
            detail: string;
            /** @enum {string} */
            report_status: "pending" | "running" | "failed";
        };
        /** @description Quota not editable (`quota-not-editable`, 403). */
        QuotaNotEditableProblem: {
            /** @constant */
            type: "/problems/quota-not-editable";
            /** @constant */
            title: "Quota not editable";
            /** @constant */
            status: 403;
            detail: string;
        };
        /** @description Precondition failed (`precondition-failed`, 412). */
        PreconditionFailedProblem: {
            /** @constant */
            type: "/problems/precondition-failed";
            /** @constant */
            title: "Precondition failed";
            /** @constant */
            status: 412;
            detail: string;
        };
        /** @description Idempotency key reused (`idempotency-key-reused`, 422). */
        IdempotencyKeyReusedProblem: {
            /** @constant */
            type: "/problems/idempotency-key-reused";
            /** @constant */
            title: "Idempotency key reused";
            /** @constant */
            status: 422;
            detail: string;
        };
        /** @description Payload too large (`payload-too-large`, 413). */
        PayloadTooLargeProblem: {
            /** @constant */
            type: "/problems/payload-too-large";
            /** @constant */
            title: "Payload too large";
            /** @constant */
            status: 413;
            detail: string;
        };
        /** @description Unsupported media type (`unsupported-media-type`, 415). */
        UnsupportedMediaTypeProblem: {
            /** @constant */
            type: "/problems/unsupported-media-type";
            /** @constant */
            title: "Unsupported media type";
            /** @constant */
            status: 415;
            detail: string;
        };
        /** @description Too many requests (`too-many-requests`, 429). */
        TooManyRequestsProblem: {
            /** @constant */
            type: "/problems/too-many-requests";
            /** @constant */
            title: "Too many requests";
            /** @constant */
            status: 429;
            detail: string;
        };
        /** @description Method not allowed (`method-not-allowed`, 405). */
        MethodNotAllowedProblem: {
            /** @constant */
            type: "/problems/method-not-allowed";
            /** @constant */
            title: "Method not allowed";
            /** @constant */
            status: 405;
            detail: string;
        };
        /** @description Service unavailable (`unavailable`, 503). */
        UnavailableProblem: {
            /** @constant */
            type: "/problems/unavailable";
            /** @constant */
            title: "Service unavailable";
            /** @constant */
            status: 503;
            detail: string;
        };
        /** @description Internal error (`internal`, 500). */
        InternalProblem: {
            /** @constant */
            type: "/problems/internal";
            /** @constant */
            title: "Internal error";
            /** @constant */
            status: 500;
            detail: string;
            request_id: string;
        };
        /** @description A user as SCIM sees it (`urn:ietf:params:scim:schemas:core:2.0:User`, with `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User` when the user is in a department). userName is unique (case-insensitive), externalId too. */
        ScimUser: {
            schemas: ("urn:ietf:params:scim:schemas:core:2.0:User" | "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User")[];
            id: string;
            externalId?: string;
            userName?: string;
            name?: {
                givenName?: string;
                familyName?: string;
            };
            emails?: {
                value?: string;
                type?: string;
                primary?: boolean;
            }[];
            /** @description `activated` of the user. */
            active?: boolean;
            roles?: {
                /** @enum {string} */
                value?: "admin" | "manager" | "member" | "guest";
                primary?: boolean;
            }[];
            "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"?: {
                /** @description The name of the user's department. */
                department?: string;
            };
            meta: {
                /** @constant */
                resourceType: "User";
                /** Format: date-time */
                created?: string;
                /** Format: date-time */
                lastModified?: string;
                /** @description The resource's ETag (`W/"<n>"`), for `If-Match`. */
                version?: string;
                location: string;
            };
        };
        /** @description A group as SCIM sees it (`urn:ietf:params:scim:schemas:core:2.0:Group`). displayName is unique (case-insensitive); members are users only, every one of them (SCIM pages no members). An answer whose members would pass 4 MB with `display` (thousands of members with very long user names) carries them without it, within the 6 MB a function can return. */
        ScimGroup: {
            schemas: "urn:ietf:params:scim:schemas:core:2.0:Group"[];
            id: string;
            externalId?: string;
            displayName?: string;
            members?: {
                value: string;
                display?: string;
                $ref?: string;
            }[];
            meta: {
                /** @constant */
                resourceType: "Group";
                /** Format: date-time */
                created?: string;
                /** Format: date-time */
                lastModified?: string;
                /** @description The resource's ETag (`W/"<n>"`), for `If-Match`. */
                version?: string;
                location: string;
            };
        };
        /** @description A user as an identity provider sends it: `userName` and the attributes of ScimUser; attributes of RFC 7643 the service does not keep (`displayName`, `title`, `password`, …) are accepted and not kept. */
        ScimUserRequest: {
            schemas?: string[];
            userName: string;
            externalId?: string;
            name?: Record<string, never>;
            emails?: Record<string, never>[];
            /** @description A boolean, or `"True"` / `"False"` as Entra sends it. */
            active?: boolean | string;
            roles?: Record<string, never>[];
            "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"?: {
                /** @description A department id or name. */
                department?: string;
            };
        };
        /** @description A group as an identity provider sends it; `members[].display` is ignored. */
        ScimGroupRequest: {
            schemas?: string[];
            displayName: string;
            externalId?: string;
            members?: {
                value: string;
            }[];
        };
        /** @description RFC 7644 §3.5.2: operations applied in order, all or none. `op` in any case (Entra writes `Replace`). */
        ScimPatchOp: {
            schemas: "urn:ietf:params:scim:api:messages:2.0:PatchOp"[];
            Operations: {
                /** @description `add`, `remove` or `replace`, in any case. */
                op: string;
                path?: string;
                value?: unknown;
            }[];
        };
        /** @description RFC 7644 §3.12. `scimType` says which SCIM error it is where one applies. */
        ScimError: {
            schemas: "urn:ietf:params:scim:api:messages:2.0:Error"[];
            status: string;
            /** @enum {string} */
            scimType?: "invalidFilter" | "tooMany" | "uniqueness" | "mutability" | "invalidSyntax" | "invalidPath" | "noTarget" | "invalidValue" | "invalidVers" | "sensitive";
            detail: string;
        };
        ScimUserList: {
            schemas: "urn:ietf:params:scim:api:messages:2.0:ListResponse"[];
            totalResults: number;
            startIndex: number;
            itemsPerPage: number;
            Resources: components["schemas"]["ScimUser"][];
        };
        ScimGroupList: {
            schemas: "urn:ietf:params:scim:api:messages:2.0:ListResponse"[];
            totalResults: number;
            startIndex: number;
            itemsPerPage: number;
            Resources: components["schemas"]["ScimGroup"][];
        };
        /** @description A published SCIM schema, resource type or the service provider configuration (RFC 7643 §5–7). */
        ScimDefinition: {
            schemas: string[];
            id?: string;
        };
        ScimDefinitionList: {
            schemas: "urn:ietf:params:scim:api:messages:2.0:ListResponse"[];
            totalResults: number;
            startIndex: number;
            itemsPerPage: number;
            Resources: components["schemas"]["ScimDefinition"][];
        };
    };
    responses: {
        /** @description The request is not valid (`validation`) */
        ValidationProblem: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ValidationProblem"];
            };
        };
        /** @description Authentication required (`unauthorized`) */
        UnauthorizedProblem: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["UnauthorizedProblem"];
            };
        };
        /** @description Not allowed (`forbidden`) */
        ForbiddenProblem: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ForbiddenProblem"];
            };
        };
        /** @description Not found (`not-found`) */
        NotFoundProblem: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["NotFoundProblem"];
            };
        };
        /** @description Conflict (`conflict`) */
        ConflictProblem: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ConflictProblem"];
            };
        };
        /** @description Report not ready (`report-not-ready`) */
        ReportNotReadyProblem: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ReportNotReadyProblem"];
            };
        };
        /** @description Precondition failed (`precondition-failed`) */
        PreconditionFailedProblem: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["PreconditionFailedProblem"];
            };
        };
        /** @description Idempotency key reused (`idempotency-key-reused`) */
        IdempotencyKeyReusedProblem: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["IdempotencyKeyReusedProblem"];
            };
        };
        /** @description Payload too large (`payload-too-large`) */
        PayloadTooLargeProblem: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["PayloadTooLargeProblem"];
            };
        };
        /** @description Unsupported media type (`unsupported-media-type`) */
        UnsupportedMediaTypeProblem: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["UnsupportedMediaTypeProblem"];
            };
        };
        /** @description Too many requests (`too-many-requests`) */
        TooManyRequestsProblem: {
            headers: {
                /** @description Seconds until the request can succeed again. */
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TooManyRequestsProblem"];
            };
        };
        /** @description Service unavailable (`unavailable`) */
        UnavailableProblem: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["UnavailableProblem"];
            };
        };
        /** @description Internal error (`internal`) */
        InternalProblem: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["InternalProblem"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service answers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            500: components["responses"]["InternalProblem"];
        };
    };
    healthJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service answers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            500: components["responses"]["InternalProblem"];
        };
    };
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            500: components["responses"]["InternalProblem"];
        };
    };
    docs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            500: components["responses"]["InternalProblem"];
        };
    };
    docsJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            500: components["responses"]["InternalProblem"];
        };
    };
    docsRenderer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The script. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            500: components["responses"]["InternalProblem"];
        };
    };
    console: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            500: components["responses"]["InternalProblem"];
        };
    };
    consoleJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            500: components["responses"]["InternalProblem"];
        };
    };
    consoleAssets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The file, as the console page links it.
                 * @example index-Bx8k2Q1c.js
                 */
                asset: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description How many matching items to skip (0–10000: an offset reads what it skips; walk further with `cursor`). Not with `cursor`.
                 * @example 0
                 */
                offset?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description `asc` or `desc` (on `last_name`), or `<field>` / `<field>:asc|desc` with field one of `last_name`, `account_role`, `activated`, `last_login`. Text compares case-insensitively; ties go by `id`. Anything else: 400. A null `last_login` counts as older than any time.
                 * @example last_name:desc
                 */
                sort?: "asc" | "desc" | "last_name" | "last_name:asc" | "last_name:desc" | "account_role" | "account_role:asc" | "account_role:desc" | "activated" | "activated:asc" | "activated:desc" | "last_login" | "last_login:asc" | "last_login:desc";
                /**
                 * @description Filters `<attribute>:<value>`, comma-separated, attribute one of `account_role`, `last_name`, `department_id`: `account_role` exact (admin, manager, member, guest), `last_name` case-insensitive prefix, `department_id` exact. The same attribute twice means either value; different attributes must all hold.
                 * @example account_role:member,last_name:Lov
                 */
                query?: string;
                /**
                 * @description Only activated (`true`) or not activated (`false`) users.
                 * @example true
                 */
                activated?: "true" | "false";
                /**
                 * @description `never` (never logged in), `since:<ISO date or time>` or `before:<ISO date or time>` (these two match only users who have logged in).
                 * @example since:2026-01-01
                 */
                last_login?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users, with `total` (all that match), `count` (returned here), `offset` (the position of the first) and `next_cursor` (null on the last page). */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "ada",
                 *       "email": "ada@example.com",
                 *       "first_name": "Ada",
                 *       "last_name": "Lovelace",
                 *       "account_role": "member",
                 *       "activated": true
                 *     }
                 */
                "application/json": {
                    id?: string;
                    /** Format: email */
                    email: string;
                    last_name: string;
                    first_name?: string;
                    user_name?: string;
                    external_id?: string | null;
                    /** @enum {string} */
                    account_role?: "admin" | "manager" | "member" | "guest";
                    activated?: boolean;
                    last_login?: string | null;
                };
            };
        };
        responses: {
            /** @description The new user. */
            201: {
                headers: {
                    /** @description Path of the user. */
                    Location: string;
                    /** @description Version tag of the resource, for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listUsersJson: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description How many matching items to skip (0–10000: an offset reads what it skips; walk further with `cursor`). Not with `cursor`.
                 * @example 0
                 */
                offset?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description `asc` or `desc` (on `last_name`), or `<field>` / `<field>:asc|desc` with field one of `last_name`, `account_role`, `activated`, `last_login`. Text compares case-insensitively; ties go by `id`. Anything else: 400. A null `last_login` counts as older than any time.
                 * @example last_name:desc
                 */
                sort?: "asc" | "desc" | "last_name" | "last_name:asc" | "last_name:desc" | "account_role" | "account_role:asc" | "account_role:desc" | "activated" | "activated:asc" | "activated:desc" | "last_login" | "last_login:asc" | "last_login:desc";
                /**
                 * @description Filters `<attribute>:<value>`, comma-separated, attribute one of `account_role`, `last_name`, `department_id`: `account_role` exact (admin, manager, member, guest), `last_name` case-insensitive prefix, `department_id` exact. The same attribute twice means either value; different attributes must all hold.
                 * @example account_role:member,last_name:Lov
                 */
                query?: string;
                /**
                 * @description Only activated (`true`) or not activated (`false`) users.
                 * @example true
                 */
                activated?: "true" | "false";
                /**
                 * @description `never` (never logged in), `since:<ISO date or time>` or `before:<ISO date or time>` (these two match only users who have logged in).
                 * @example since:2026-01-01
                 */
                last_login?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users, with `total` (all that match), `count` (returned here), `offset` (the position of the first) and `next_cursor` (null on the last page). */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    createUserJson: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "ada",
                 *       "email": "ada@example.com",
                 *       "first_name": "Ada",
                 *       "last_name": "Lovelace",
                 *       "account_role": "member",
                 *       "activated": true
                 *     }
                 */
                "application/json": {
                    id?: string;
                    /** Format: email */
                    email: string;
                    last_name: string;
                    first_name?: string;
                    user_name?: string;
                    external_id?: string | null;
                    /** @enum {string} */
                    account_role?: "admin" | "manager" | "member" | "guest";
                    activated?: boolean;
                    last_login?: string | null;
                };
            };
        };
        responses: {
            /** @description The new user. */
            201: {
                headers: {
                    /** @description Path of the user. */
                    Location: string;
                    /** @description Version tag of the resource, for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Id of the user. It may end in `.json`, as any path may.
                 * @example ada
                 */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    /** @description Version tag of the resource, for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
                /**
                 * @description Change only if the resource still has this `ETag` (e.g. `"3"`); otherwise 412 and nothing changes. `*` matches any version.
                 * @example *
                 */
                "If-Match"?: string;
            };
            path: {
                /**
                 * @description Id of the user. It may end in `.json`, as any path may.
                 * @example leaver
                 */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            412: components["responses"]["PreconditionFailedProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
                /**
                 * @description Change only if the resource still has this `ETag` (e.g. `"3"`); otherwise 412 and nothing changes. `*` matches any version.
                 * @example *
                 */
                "If-Match"?: string;
            };
            path: {
                /**
                 * @description Id of the user. It may end in `.json`, as any path may.
                 * @example ada
                 */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "account_role": "manager",
                 *       "activated": true
                 *     }
                 */
                "application/json": {
                    /** Format: email */
                    email?: string;
                    first_name?: string;
                    last_name?: string;
                    user_name?: string;
                    external_id?: string | null;
                    /** @enum {string} */
                    account_role?: "admin" | "manager" | "member" | "guest";
                    activated?: boolean;
                    last_login?: string | null;
                };
            };
        };
        responses: {
            /** @description The user as changed. */
            200: {
                headers: {
                    /** @description Version tag of the resource, for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            /** @description Conflict (`conflict`), or Quota exceeded (`quota-exceeded`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ConflictProblem"] | components["schemas"]["QuotaExceededProblem"];
                };
            };
            412: components["responses"]["PreconditionFailedProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listDepartments: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description How many matching items to skip (0–10000: an offset reads what it skips; walk further with `cursor`). Not with `cursor`.
                 * @example 0
                 */
                offset?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description `asc` or `desc` (on `name`), or `<field>` / `<field>:asc|desc` with field one of `name`, `created_at`, `user_count`. Text compares case-insensitively; ties go by `id`. Anything else: 400.
                 * @example user_count:desc
                 */
                sort?: "asc" | "desc" | "name" | "name:asc" | "name:desc" | "created_at" | "created_at:asc" | "created_at:desc" | "user_count" | "user_count:asc" | "user_count:desc";
                /**
                 * @description `name:<prefix>`: departments whose name starts with the prefix (case-insensitive); repeat for either of several prefixes.
                 * @example name:Eng
                 */
                query?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of departments, with `total` (all that match), `count` (returned here), `offset` (the position of the first) and `next_cursor` (null on the last page). */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DepartmentList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    createDepartment: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "eng",
                 *       "name": "Engineering"
                 *     }
                 */
                "application/json": {
                    id?: string;
                    name: string;
                };
            };
        };
        responses: {
            /** @description The new department. */
            201: {
                headers: {
                    /** @description Path of the department. */
                    Location: string;
                    /** @description Version tag of the resource, for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Department"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listDepartmentsJson: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description How many matching items to skip (0–10000: an offset reads what it skips; walk further with `cursor`). Not with `cursor`.
                 * @example 0
                 */
                offset?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description `asc` or `desc` (on `name`), or `<field>` / `<field>:asc|desc` with field one of `name`, `created_at`, `user_count`. Text compares case-insensitively; ties go by `id`. Anything else: 400.
                 * @example user_count:desc
                 */
                sort?: "asc" | "desc" | "name" | "name:asc" | "name:desc" | "created_at" | "created_at:asc" | "created_at:desc" | "user_count" | "user_count:asc" | "user_count:desc";
                /**
                 * @description `name:<prefix>`: departments whose name starts with the prefix (case-insensitive); repeat for either of several prefixes.
                 * @example name:Eng
                 */
                query?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of departments, with `total` (all that match), `count` (returned here), `offset` (the position of the first) and `next_cursor` (null on the last page). */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DepartmentList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    createDepartmentJson: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "eng",
                 *       "name": "Engineering"
                 *     }
                 */
                "application/json": {
                    id?: string;
                    name: string;
                };
            };
        };
        responses: {
            /** @description The new department. */
            201: {
                headers: {
                    /** @description Path of the department. */
                    Location: string;
                    /** @description Version tag of the resource, for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Department"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    getDepartment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Id of the department. It may end in `.json`, as any path may.
                 * @example eng
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The department. */
            200: {
                headers: {
                    /** @description Version tag of the resource, for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Department"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    deleteDepartment: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
                /**
                 * @description Change only if the resource still has this `ETag` (e.g. `"3"`); otherwise 412 and nothing changes. `*` matches any version.
                 * @example *
                 */
                "If-Match"?: string;
            };
            path: {
                /**
                 * @description Id of the department. It may end in `.json`, as any path may.
                 * @example closing
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DepartmentDeleted"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            /** @description Conflict (`conflict`), or Department not empty (`department-not-empty`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ConflictProblem"] | components["schemas"]["DepartmentNotEmptyProblem"];
                };
            };
            412: components["responses"]["PreconditionFailedProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    updateDepartment: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
                /**
                 * @description Change only if the resource still has this `ETag` (e.g. `"3"`); otherwise 412 and nothing changes. `*` matches any version.
                 * @example *
                 */
                "If-Match"?: string;
            };
            path: {
                /**
                 * @description Id of the department. It may end in `.json`, as any path may.
                 * @example eng
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Research and Development"
                 *     }
                 */
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description The department as renamed. */
            200: {
                headers: {
                    /** @description Version tag of the resource, for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Department"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            412: components["responses"]["PreconditionFailedProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listDepartmentUsers: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description How many matching items to skip (0–10000: an offset reads what it skips; walk further with `cursor`). Not with `cursor`.
                 * @example 0
                 */
                offset?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description `asc` or `desc` (on `last_name`), or `<field>` / `<field>:asc|desc` with field one of `last_name`, `account_role`, `activated`, `last_login`. Text compares case-insensitively; ties go by `id`. Anything else: 400. A null `last_login` counts as older than any time.
                 * @example last_name:desc
                 */
                sort?: "asc" | "desc" | "last_name" | "last_name:asc" | "last_name:desc" | "account_role" | "account_role:asc" | "account_role:desc" | "activated" | "activated:asc" | "activated:desc" | "last_login" | "last_login:asc" | "last_login:desc";
                /**
                 * @description Filters `<attribute>:<value>`, comma-separated, attribute one of `account_role`, `last_name`, `department_id`: `account_role` exact (admin, manager, member, guest), `last_name` case-insensitive prefix, `department_id` exact. The same attribute twice means either value; different attributes must all hold.
                 * @example account_role:member,last_name:Lov
                 */
                query?: string;
                /**
                 * @description Only activated (`true`) or not activated (`false`) users.
                 * @example true
                 */
                activated?: "true" | "false";
                /**
                 * @description `never` (never logged in), `since:<ISO date or time>` or `before:<ISO date or time>` (these two match only users who have logged in).
                 * @example since:2026-01-01
                 */
                last_login?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Id of the department.
                 * @example eng
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users, with `total` (all that match), `count` (returned here), `offset` (the position of the first) and `next_cursor` (null on the last page). */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    addDepartmentUsers: {
        parameters: {
            query?: {
                /**
                 * @description `true`: answer what the request would give (the result, or the 404/409 problem with its `overages`) and change nothing.
                 * @example false
                 */
                dry_run?: "true" | "false";
            };
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the department.
                 * @example eng
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_ids": [
                 *         "ada",
                 *         "grace"
                 *       ]
                 *     }
                 */
                "application/json": {
                    user_ids: string[];
                };
            };
        };
        responses: {
            /** @description The users, in request order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Users"];
                };
            };
            /** @description The change has committed but would outlast the request (a large change on a loaded host): it completes in the background. Poll the resource named by `resource` and `Location` (the department; its users show their new `department_id` as each part is applied). A repeat with the same Idempotency-Key answers the final result once it is there. */
            202: {
                headers: {
                    /** @description Path of the resource that shows the change completing. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "applying";
                        resource: string;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            /** @description Conflict (`conflict`), or Quota exceeded (`quota-exceeded`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ConflictProblem"] | components["schemas"]["QuotaExceededProblem"];
                };
            };
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    removeDepartmentUsers: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the department.
                 * @example eng
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_ids": [
                 *         "ada",
                 *         "grace"
                 *       ]
                 *     }
                 */
                "application/json": {
                    user_ids: string[];
                };
            };
        };
        responses: {
            /** @description The change has committed but would outlast the request (a large change on a loaded host): it completes in the background. Poll the resource named by `resource` and `Location` (the department; its users leave it as each part is applied). A repeat with the same Idempotency-Key answers the final result once it is there. */
            202: {
                headers: {
                    /** @description Path of the resource that shows the change completing. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "applying";
                        resource: string;
                    };
                };
            };
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            /** @description Not a member (`not-a-member`), or Not found (`not-found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotAMemberProblem"] | components["schemas"]["NotFoundProblem"];
                };
            };
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listDepartmentUsersJson: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description How many matching items to skip (0–10000: an offset reads what it skips; walk further with `cursor`). Not with `cursor`.
                 * @example 0
                 */
                offset?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description `asc` or `desc` (on `last_name`), or `<field>` / `<field>:asc|desc` with field one of `last_name`, `account_role`, `activated`, `last_login`. Text compares case-insensitively; ties go by `id`. Anything else: 400. A null `last_login` counts as older than any time.
                 * @example last_name:desc
                 */
                sort?: "asc" | "desc" | "last_name" | "last_name:asc" | "last_name:desc" | "account_role" | "account_role:asc" | "account_role:desc" | "activated" | "activated:asc" | "activated:desc" | "last_login" | "last_login:asc" | "last_login:desc";
                /**
                 * @description Filters `<attribute>:<value>`, comma-separated, attribute one of `account_role`, `last_name`, `department_id`: `account_role` exact (admin, manager, member, guest), `last_name` case-insensitive prefix, `department_id` exact. The same attribute twice means either value; different attributes must all hold.
                 * @example account_role:member,last_name:Lov
                 */
                query?: string;
                /**
                 * @description Only activated (`true`) or not activated (`false`) users.
                 * @example true
                 */
                activated?: "true" | "false";
                /**
                 * @description `never` (never logged in), `since:<ISO date or time>` or `before:<ISO date or time>` (these two match only users who have logged in).
                 * @example since:2026-01-01
                 */
                last_login?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Id of the department.
                 * @example eng
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users, with `total` (all that match), `count` (returned here), `offset` (the position of the first) and `next_cursor` (null on the last page). */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    addDepartmentUsersJson: {
        parameters: {
            query?: {
                /**
                 * @description `true`: answer what the request would give (the result, or the 404/409 problem with its `overages`) and change nothing.
                 * @example false
                 */
                dry_run?: "true" | "false";
            };
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the department.
                 * @example eng
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_ids": [
                 *         "ada",
                 *         "grace"
                 *       ]
                 *     }
                 */
                "application/json": {
                    user_ids: string[];
                };
            };
        };
        responses: {
            /** @description The users, in request order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Users"];
                };
            };
            /** @description The change has committed but would outlast the request (a large change on a loaded host): it completes in the background. Poll the resource named by `resource` and `Location` (the department; its users show their new `department_id` as each part is applied). A repeat with the same Idempotency-Key answers the final result once it is there. */
            202: {
                headers: {
                    /** @description Path of the resource that shows the change completing. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "applying";
                        resource: string;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            /** @description Conflict (`conflict`), or Quota exceeded (`quota-exceeded`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ConflictProblem"] | components["schemas"]["QuotaExceededProblem"];
                };
            };
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    removeDepartmentUsersJson: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the department.
                 * @example eng
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_ids": [
                 *         "ada",
                 *         "grace"
                 *       ]
                 *     }
                 */
                "application/json": {
                    user_ids: string[];
                };
            };
        };
        responses: {
            /** @description The change has committed but would outlast the request (a large change on a loaded host): it completes in the background. Poll the resource named by `resource` and `Location` (the department; its users leave it as each part is applied). A repeat with the same Idempotency-Key answers the final result once it is there. */
            202: {
                headers: {
                    /** @description Path of the resource that shows the change completing. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "applying";
                        resource: string;
                    };
                };
            };
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            /** @description Not a member (`not-a-member`), or Not found (`not-found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotAMemberProblem"] | components["schemas"]["NotFoundProblem"];
                };
            };
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listMemberUsers: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description How many matching items to skip (0–10000: an offset reads what it skips; walk further with `cursor`). Not with `cursor`.
                 * @example 0
                 */
                offset?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description `asc` or `desc` (on `last_name`), or `<field>` / `<field>:asc|desc` with field one of `last_name`, `account_role`, `activated`, `last_login`. Text compares case-insensitively; ties go by `id`. Anything else: 400. A null `last_login` counts as older than any time.
                 * @example last_name:desc
                 */
                sort?: "asc" | "desc" | "last_name" | "last_name:asc" | "last_name:desc" | "account_role" | "account_role:asc" | "account_role:desc" | "activated" | "activated:asc" | "activated:desc" | "last_login" | "last_login:asc" | "last_login:desc";
                /**
                 * @description Filters `<attribute>:<value>`, comma-separated, attribute one of `account_role`, `last_name`, `department_id`: `account_role` exact (admin, manager, member, guest), `last_name` case-insensitive prefix, `department_id` exact. The same attribute twice means either value; different attributes must all hold.
                 * @example account_role:member,last_name:Lov
                 */
                query?: string;
                /**
                 * @description Only activated (`true`) or not activated (`false`) users.
                 * @example true
                 */
                activated?: "true" | "false";
                /**
                 * @description `never` (never logged in), `since:<ISO date or time>` or `before:<ISO date or time>` (these two match only users who have logged in).
                 * @example since:2026-01-01
                 */
                last_login?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users, with `total` (all that match), `count` (returned here), `offset` (the position of the first) and `next_cursor` (null on the last page). */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listMemberUsersJson: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description How many matching items to skip (0–10000: an offset reads what it skips; walk further with `cursor`). Not with `cursor`.
                 * @example 0
                 */
                offset?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description `asc` or `desc` (on `last_name`), or `<field>` / `<field>:asc|desc` with field one of `last_name`, `account_role`, `activated`, `last_login`. Text compares case-insensitively; ties go by `id`. Anything else: 400. A null `last_login` counts as older than any time.
                 * @example last_name:desc
                 */
                sort?: "asc" | "desc" | "last_name" | "last_name:asc" | "last_name:desc" | "account_role" | "account_role:asc" | "account_role:desc" | "activated" | "activated:asc" | "activated:desc" | "last_login" | "last_login:asc" | "last_login:desc";
                /**
                 * @description Filters `<attribute>:<value>`, comma-separated, attribute one of `account_role`, `last_name`, `department_id`: `account_role` exact (admin, manager, member, guest), `last_name` case-insensitive prefix, `department_id` exact. The same attribute twice means either value; different attributes must all hold.
                 * @example account_role:member,last_name:Lov
                 */
                query?: string;
                /**
                 * @description Only activated (`true`) or not activated (`false`) users.
                 * @example true
                 */
                activated?: "true" | "false";
                /**
                 * @description `never` (never logged in), `since:<ISO date or time>` or `before:<ISO date or time>` (these two match only users who have logged in).
                 * @example since:2026-01-01
                 */
                last_login?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users, with `total` (all that match), `count` (returned here), `offset` (the position of the first) and `next_cursor` (null on the last page). */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    addDepartmentUser: {
        parameters: {
            query?: {
                /**
                 * @description `true`: answer what the request would give (the result, or the 404/409 problem with its `overages`) and change nothing.
                 * @example false
                 */
                dry_run?: "true" | "false";
            };
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the department.
                 * @example eng
                 */
                department_id: string;
                /**
                 * @description Id of the user. It may end in `.json`, as any path may.
                 * @example ada
                 */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user, now in this department. */
            200: {
                headers: {
                    /** @description Version tag of the user, for `If-Match`; none on a dry run. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            /** @description Conflict (`conflict`), or Quota exceeded (`quota-exceeded`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ConflictProblem"] | components["schemas"]["QuotaExceededProblem"];
                };
            };
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    removeDepartmentUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the department.
                 * @example eng
                 */
                department_id: string;
                /**
                 * @description Id of the user. It may end in `.json`, as any path may.
                 * @example ada
                 */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            /** @description Not a member (`not-a-member`), or Not found (`not-found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotAMemberProblem"] | components["schemas"]["NotFoundProblem"];
                };
            };
            409: components["responses"]["ConflictProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    getDepartmentQuotas: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Id of the department.
                 * @example eng
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The department's quotas. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DepartmentQuotas"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    setDepartmentQuota: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the department.
                 * @example eng
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "users",
                 *       "limit": 10
                 *     }
                 */
                "application/json": {
                    /** @enum {string} */
                    name: "users" | "activated_users" | "admins" | "managers" | "guests" | "seats";
                    limit: number | null;
                };
            };
        };
        responses: {
            /** @description The quota. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Quota"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            /** @description Not allowed (`forbidden`), or Quota not editable (`quota-not-editable`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenProblem"] | components["schemas"]["QuotaNotEditableProblem"];
                };
            };
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    getDepartmentQuotasJson: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Id of the department.
                 * @example eng
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The department's quotas. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DepartmentQuotas"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    setDepartmentQuotaJson: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the department.
                 * @example eng
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "users",
                 *       "limit": 10
                 *     }
                 */
                "application/json": {
                    /** @enum {string} */
                    name: "users" | "activated_users" | "admins" | "managers" | "guests" | "seats";
                    limit: number | null;
                };
            };
        };
        responses: {
            /** @description The quota. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Quota"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            /** @description Not allowed (`forbidden`), or Quota not editable (`quota-not-editable`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenProblem"] | components["schemas"]["QuotaNotEditableProblem"];
                };
            };
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    getDepartmentQuotasAlias1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Id of the department.
                 * @example eng
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The department's quotas. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DepartmentQuotas"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    getDepartmentQuotasAlias1Json: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Id of the department.
                 * @example eng
                 */
                department_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The department's quotas. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DepartmentQuotas"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    getGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Id of the group. It may end in `.json`, as any path may.
                 * @example designers
                 */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group. */
            200: {
                headers: {
                    /** @description Version tag of the resource, for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    deleteGroup: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
                /**
                 * @description Change only if the resource still has this `ETag` (e.g. `"3"`); otherwise 412 and nothing changes. `*` matches any version.
                 * @example *
                 */
                "If-Match"?: string;
            };
            path: {
                /**
                 * @description Id of the group. It may end in `.json`, as any path may.
                 * @example old-group
                 */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            412: components["responses"]["PreconditionFailedProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    updateGroup: {
        parameters: {
            query?: {
                /**
                 * @description `true`: answer what the request would give (the result, or the 404/409 problem with its `overages`) and change nothing.
                 * @example false
                 */
                dry_run?: "true" | "false";
            };
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
                /**
                 * @description Change only if the resource still has this `ETag` (e.g. `"3"`); otherwise 412 and nothing changes. `*` matches any version.
                 * @example *
                 */
                "If-Match"?: string;
            };
            path: {
                /**
                 * @description Id of the group. It may end in `.json`, as any path may.
                 * @example designers
                 */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Design",
                 *       "description": "Product, brand and UX design"
                 *     }
                 */
                "application/json": {
                    name?: string;
                    description?: string;
                    external_id?: string | null;
                    rule?: string | null;
                };
            };
        };
        responses: {
            /** @description The group as changed (or, in a dry run, as it is with its `rule_preview`), with its users. */
            200: {
                headers: {
                    /** @description Version tag of the resource, for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            412: components["responses"]["PreconditionFailedProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listGroupUsers: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description How many matching items to skip (0–10000: an offset reads what it skips; walk further with `cursor`). Not with `cursor`.
                 * @example 0
                 */
                offset?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description `asc` or `desc` (on `last_name`), or `<field>` / `<field>:asc|desc` with field one of `last_name`, `id`. Text compares case-insensitively; ties go by `id`. Anything else: 400. Only `id` costs a page.
                 * @example last_name:desc
                 */
                sort?: "asc" | "desc" | "last_name" | "last_name:asc" | "last_name:desc" | "id" | "id:asc" | "id:desc";
                /**
                 * @description Filters `<attribute>:<value>`, comma-separated, attribute one of `account_role`, `last_name`, `department_id`: `account_role` exact (admin, manager, member, guest), `last_name` case-insensitive prefix, `department_id` exact. The same attribute twice means either value; different attributes must all hold.
                 * @example account_role:member,last_name:Lov
                 */
                query?: string;
                /**
                 * @description Only activated (`true`) or not activated (`false`) users.
                 * @example true
                 */
                activated?: "true" | "false";
                /**
                 * @description `never` (never logged in), `since:<ISO date or time>` or `before:<ISO date or time>` (these two match only users who have logged in).
                 * @example since:2026-01-01
                 */
                last_login?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Id of the group.
                 * @example designers
                 */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users, with `total` (all that match), `count` (returned here), `offset` (the position of the first) and `next_cursor` (null on the last page). */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listGroupUsersJson: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description How many matching items to skip (0–10000: an offset reads what it skips; walk further with `cursor`). Not with `cursor`.
                 * @example 0
                 */
                offset?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description `asc` or `desc` (on `last_name`), or `<field>` / `<field>:asc|desc` with field one of `last_name`, `id`. Text compares case-insensitively; ties go by `id`. Anything else: 400. Only `id` costs a page.
                 * @example last_name:desc
                 */
                sort?: "asc" | "desc" | "last_name" | "last_name:asc" | "last_name:desc" | "id" | "id:asc" | "id:desc";
                /**
                 * @description Filters `<attribute>:<value>`, comma-separated, attribute one of `account_role`, `last_name`, `department_id`: `account_role` exact (admin, manager, member, guest), `last_name` case-insensitive prefix, `department_id` exact. The same attribute twice means either value; different attributes must all hold.
                 * @example account_role:member,last_name:Lov
                 */
                query?: string;
                /**
                 * @description Only activated (`true`) or not activated (`false`) users.
                 * @example true
                 */
                activated?: "true" | "false";
                /**
                 * @description `never` (never logged in), `since:<ISO date or time>` or `before:<ISO date or time>` (these two match only users who have logged in).
                 * @example since:2026-01-01
                 */
                last_login?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Id of the group.
                 * @example designers
                 */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users, with `total` (all that match), `count` (returned here), `offset` (the position of the first) and `next_cursor` (null on the last page). */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listGroups: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description How many matching items to skip (0–10000: an offset reads what it skips; walk further with `cursor`). Not with `cursor`.
                 * @example 0
                 */
                offset?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description `asc` or `desc` (on `name`), or `<field>` / `<field>:asc|desc` with field one of `name`, `created_at`, `user_count`. Text compares case-insensitively; ties go by `id`. Anything else: 400.
                 * @example user_count:desc
                 */
                sort?: "asc" | "desc" | "name" | "name:asc" | "name:desc" | "created_at" | "created_at:asc" | "created_at:desc" | "user_count" | "user_count:asc" | "user_count:desc";
                /**
                 * @description `name:<prefix>`: groups whose name starts with the prefix (case-insensitive); repeat for either of several prefixes.
                 * @example name:Eng
                 */
                query?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of groups, with `total` (all that match), `count` (returned here), `offset` (the position of the first) and `next_cursor` (null on the last page). */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    createGroup: {
        parameters: {
            query?: {
                /**
                 * @description `true`: answer what the request would give (the result, or the 404/409 problem with its `overages`) and change nothing.
                 * @example false
                 */
                dry_run?: "true" | "false";
            };
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "designers",
                 *       "name": "Designers",
                 *       "description": "Product and brand design",
                 *       "user_ids": [
                 *         "ada",
                 *         "grace"
                 *       ]
                 *     }
                 */
                "application/json": {
                    id?: string;
                    name: string;
                    description?: string;
                    external_id?: string | null;
                    user_ids?: string[];
                    rule?: string | null;
                };
            };
        };
        responses: {
            /** @description Dry run (`dry_run=true`): the group as it would be, with a rule its `rule_preview`; nothing was created. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            /** @description The new group with its users. */
            201: {
                headers: {
                    /** @description Path of the group. */
                    Location: string;
                    /** @description Version tag of the resource, for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            /** @description The change has committed but would outlast the request (a large change on a loaded host): it completes in the background. Poll the resource named by `resource` and `Location` (the group shows `bulk_status: applying` until every member is written, then `null`). A repeat with the same Idempotency-Key answers the final result once it is there. */
            202: {
                headers: {
                    /** @description Path of the resource that shows the change completing. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "applying";
                        resource: string;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            /** @description Conflict (`conflict`), or Members kept by a rule (`rule-managed`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ConflictProblem"] | components["schemas"]["RuleManagedProblem"];
                };
            };
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    deleteGroups: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "group_ids": [
                 *         "reviewers",
                 *         "retired"
                 *       ]
                 *     }
                 */
                "application/json": {
                    group_ids: string[];
                };
            };
        };
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listGroupsJson: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description How many matching items to skip (0–10000: an offset reads what it skips; walk further with `cursor`). Not with `cursor`.
                 * @example 0
                 */
                offset?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description `asc` or `desc` (on `name`), or `<field>` / `<field>:asc|desc` with field one of `name`, `created_at`, `user_count`. Text compares case-insensitively; ties go by `id`. Anything else: 400.
                 * @example user_count:desc
                 */
                sort?: "asc" | "desc" | "name" | "name:asc" | "name:desc" | "created_at" | "created_at:asc" | "created_at:desc" | "user_count" | "user_count:asc" | "user_count:desc";
                /**
                 * @description `name:<prefix>`: groups whose name starts with the prefix (case-insensitive); repeat for either of several prefixes.
                 * @example name:Eng
                 */
                query?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of groups, with `total` (all that match), `count` (returned here), `offset` (the position of the first) and `next_cursor` (null on the last page). */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    createGroupJson: {
        parameters: {
            query?: {
                /**
                 * @description `true`: answer what the request would give (the result, or the 404/409 problem with its `overages`) and change nothing.
                 * @example false
                 */
                dry_run?: "true" | "false";
            };
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "designers",
                 *       "name": "Designers",
                 *       "description": "Product and brand design",
                 *       "user_ids": [
                 *         "ada",
                 *         "grace"
                 *       ]
                 *     }
                 */
                "application/json": {
                    id?: string;
                    name: string;
                    description?: string;
                    external_id?: string | null;
                    user_ids?: string[];
                    rule?: string | null;
                };
            };
        };
        responses: {
            /** @description Dry run (`dry_run=true`): the group as it would be, with a rule its `rule_preview`; nothing was created. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            /** @description The new group with its users. */
            201: {
                headers: {
                    /** @description Path of the group. */
                    Location: string;
                    /** @description Version tag of the resource, for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            /** @description The change has committed but would outlast the request (a large change on a loaded host): it completes in the background. Poll the resource named by `resource` and `Location` (the group shows `bulk_status: applying` until every member is written, then `null`). A repeat with the same Idempotency-Key answers the final result once it is there. */
            202: {
                headers: {
                    /** @description Path of the resource that shows the change completing. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "applying";
                        resource: string;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            /** @description Conflict (`conflict`), or Members kept by a rule (`rule-managed`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ConflictProblem"] | components["schemas"]["RuleManagedProblem"];
                };
            };
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    deleteGroupsJson: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "group_ids": [
                 *         "reviewers",
                 *         "retired"
                 *       ]
                 *     }
                 */
                "application/json": {
                    group_ids: string[];
                };
            };
        };
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    addGroupUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the group.
                 * @example designers
                 */
                group_id: string;
                /**
                 * @description Id of the user. It may end in `.json`, as any path may.
                 * @example ada
                 */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            /** @description Conflict (`conflict`), or Members kept by a rule (`rule-managed`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ConflictProblem"] | components["schemas"]["RuleManagedProblem"];
                };
            };
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    removeGroupUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the group.
                 * @example designers
                 */
                group_id: string;
                /**
                 * @description Id of the user. It may end in `.json`, as any path may.
                 * @example ada
                 */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            /** @description Not a member (`not-a-member`), or Not found (`not-found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotAMemberProblem"] | components["schemas"]["NotFoundProblem"];
                };
            };
            /** @description Conflict (`conflict`), or Members kept by a rule (`rule-managed`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ConflictProblem"] | components["schemas"]["RuleManagedProblem"];
                };
            };
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listAudit: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description Filters `<attribute>:<value>`, comma-separated, attribute one of `actor`, `operation`, `resource_id` (exact). The same attribute twice means either value; different attributes must all hold.
                 * @example resource_id:eng
                 */
                query?: string;
                /**
                 * @description Only entries at or after this time (ISO 8601).
                 * @example 2026-11-01T00:00:00.000Z
                 */
                since?: string;
                /**
                 * @description Only entries before this time (ISO 8601).
                 * @example 2026-12-01T00:00:00.000Z
                 */
                before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of audit entries, newest first, with `count` and `next_cursor` (null on the last page). The trail only grows: it has no `total` and no `offset`. */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listAuditJson: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description Filters `<attribute>:<value>`, comma-separated, attribute one of `actor`, `operation`, `resource_id` (exact). The same attribute twice means either value; different attributes must all hold.
                 * @example resource_id:eng
                 */
                query?: string;
                /**
                 * @description Only entries at or after this time (ISO 8601).
                 * @example 2026-11-01T00:00:00.000Z
                 */
                since?: string;
                /**
                 * @description Only entries before this time (ISO 8601).
                 * @example 2026-12-01T00:00:00.000Z
                 */
                before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of audit entries, newest first, with `count` and `next_cursor` (null on the last page). The trail only grows: it has no `total` and no `offset`. */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listChanges: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description Start at this time (ISO 8601): the entries that reached the feed at or after it, which include every entry stamped (`at`) at or after it and may include a few stamped just before it whose changes committed after it. Or `now`: an empty page whose cursor starts at the end of the feed. Not with `cursor`.
                 * @example 2026-11-01T00:00:00.000Z
                 */
                since?: string;
                /**
                 * @description Only entries of these resource types (`user`, `department`, `group`, `report`, `scim-token`, `webhook`), comma-separated or repeated. A cursor keeps them.
                 * @example user,department
                 */
                resource_type?: string;
                /**
                 * @description Not the entries of these actors (a consumer leaves out its own changes), comma-separated or repeated. A cursor keeps them.
                 * @example hr-sync
                 */
                exclude_actor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of audit entries, oldest first, with `count` and `next_cursor`. A page may hold fewer than `count` entries, or none, while more follow: keep the cursor and ask again. */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangeList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listChangesJson: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
                /**
                 * @description Start at this time (ISO 8601): the entries that reached the feed at or after it, which include every entry stamped (`at`) at or after it and may include a few stamped just before it whose changes committed after it. Or `now`: an empty page whose cursor starts at the end of the feed. Not with `cursor`.
                 * @example 2026-11-01T00:00:00.000Z
                 */
                since?: string;
                /**
                 * @description Only entries of these resource types (`user`, `department`, `group`, `report`, `scim-token`, `webhook`), comma-separated or repeated. A cursor keeps them.
                 * @example user,department
                 */
                resource_type?: string;
                /**
                 * @description Not the entries of these actors (a consumer leaves out its own changes), comma-separated or repeated. A cursor keeps them.
                 * @example hr-sync
                 */
                exclude_actor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of audit entries, oldest first, with `count` and `next_cursor`. A page may hold fewer than `count` entries, or none, while more follow: keep the cursor and ask again. */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangeList"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhooks. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhooks: {
                            id: string;
                            url: string;
                            description: string;
                            resource_types: ("user" | "department" | "group" | "report" | "scim-token" | "webhook")[];
                            operations: string[];
                            exclude_actors: string[];
                            /** @enum {string} */
                            status: "active" | "paused" | "disabled";
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            disabled_at: string | null;
                        }[];
                    };
                };
            };
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://203.0.113.10/directory-changes",
                 *       "description": "HR system",
                 *       "resource_types": [
                 *         "user",
                 *         "department"
                 *       ],
                 *       "exclude_actors": [
                 *         "hr-sync"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** Format: uri */
                    url: string;
                    description?: string;
                    resource_types?: ("user" | "department" | "group" | "report" | "scim-token" | "webhook")[];
                    operations?: string[];
                    exclude_actors?: string[];
                };
            };
        };
        responses: {
            /** @description The webhook, with its secret. */
            201: {
                headers: {
                    /** @description Path of the webhook. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        url: string;
                        description: string;
                        resource_types: ("user" | "department" | "group" | "report" | "scim-token" | "webhook")[];
                        operations: string[];
                        exclude_actors: string[];
                        /** @enum {string} */
                        status: "active" | "paused" | "disabled";
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        disabled_at: string | null;
                        secret: string;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listWebhooksJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhooks. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhooks: {
                            id: string;
                            url: string;
                            description: string;
                            resource_types: ("user" | "department" | "group" | "report" | "scim-token" | "webhook")[];
                            operations: string[];
                            exclude_actors: string[];
                            /** @enum {string} */
                            status: "active" | "paused" | "disabled";
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            disabled_at: string | null;
                        }[];
                    };
                };
            };
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    createWebhookJson: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://203.0.113.10/directory-changes",
                 *       "description": "HR system",
                 *       "resource_types": [
                 *         "user",
                 *         "department"
                 *       ],
                 *       "exclude_actors": [
                 *         "hr-sync"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** Format: uri */
                    url: string;
                    description?: string;
                    resource_types?: ("user" | "department" | "group" | "report" | "scim-token" | "webhook")[];
                    operations?: string[];
                    exclude_actors?: string[];
                };
            };
        };
        responses: {
            /** @description The webhook, with its secret. */
            201: {
                headers: {
                    /** @description Path of the webhook. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        url: string;
                        description: string;
                        resource_types: ("user" | "department" | "group" | "report" | "scim-token" | "webhook")[];
                        operations: string[];
                        exclude_actors: string[];
                        /** @enum {string} */
                        status: "active" | "paused" | "disabled";
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        disabled_at: string | null;
                        secret: string;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Id of the webhook (`id` of its creation). It may end in `.json`, as any path may.
                 * @example wh-example
                 */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        url: string;
                        description: string;
                        resource_types: ("user" | "department" | "group" | "report" | "scim-token" | "webhook")[];
                        operations: string[];
                        exclude_actors: string[];
                        /** @enum {string} */
                        status: "active" | "paused" | "disabled";
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        disabled_at: string | null;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the webhook (`id` of its creation). It may end in `.json`, as any path may.
                 * @example wh-retired
                 */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the webhook (`id` of its creation). It may end in `.json`, as any path may.
                 * @example wh-example
                 */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "paused"
                 *     }
                 */
                "application/json": {
                    /** Format: uri */
                    url?: string;
                    description?: string;
                    resource_types?: ("user" | "department" | "group" | "report" | "scim-token" | "webhook")[];
                    operations?: string[];
                    exclude_actors?: string[];
                    /** @enum {string} */
                    status?: "active" | "paused";
                };
            };
        };
        responses: {
            /** @description The webhook as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        url: string;
                        description: string;
                        resource_types: ("user" | "department" | "group" | "report" | "scim-token" | "webhook")[];
                        operations: string[];
                        exclude_actors: string[];
                        /** @enum {string} */
                        status: "active" | "paused" | "disabled";
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        disabled_at: string | null;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the webhook (`id` of its creation).
                 * @example wh-example
                 */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        secret: string;
                        /** Format: date-time */
                        previous_secret_expires_at: string;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    rotateWebhookSecretJson: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the webhook (`id` of its creation).
                 * @example wh-example
                 */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        secret: string;
                        /** Format: date-time */
                        previous_secret_expires_at: string;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the webhook (`id` of its creation).
                 * @example wh-example
                 */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attempt. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        change_id: string;
                        /** Format: date-time */
                        at: string;
                        attempt: number;
                        status_code: number | null;
                        duration_ms: number;
                        error: string | null;
                        next_attempt_at: string | null;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    testWebhookJson: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the webhook (`id` of its creation).
                 * @example wh-example
                 */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attempt. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        change_id: string;
                        /** Format: date-time */
                        at: string;
                        attempt: number;
                        status_code: number | null;
                        duration_ms: number;
                        error: string | null;
                        next_attempt_at: string | null;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Id of the webhook (`id` of its creation).
                 * @example wh-example
                 */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of attempts, newest first, with `count` and `next_cursor` (null on the last page). */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveries: {
                            id: string;
                            change_id: string;
                            /** Format: date-time */
                            at: string;
                            attempt: number;
                            status_code: number | null;
                            duration_ms: number;
                            error: string | null;
                            next_attempt_at: string | null;
                        }[];
                        count: number;
                        next_cursor: string | null;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listWebhookDeliveriesJson: {
        parameters: {
            query?: {
                /**
                 * @description How many items to return (1–1000).
                 * @example 20
                 */
                count?: number;
                /**
                 * @description The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.
                 * @example
                 */
                cursor?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Id of the webhook (`id` of its creation).
                 * @example wh-example
                 */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of attempts, newest first, with `count` and `next_cursor` (null on the last page). */
            200: {
                headers: {
                    /** @description The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveries: {
                            id: string;
                            change_id: string;
                            /** Format: date-time */
                            at: string;
                            attempt: number;
                            status_code: number | null;
                            duration_ms: number;
                            error: string | null;
                            next_attempt_at: string | null;
                        }[];
                        count: number;
                        next_cursor: string | null;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    createDepartmentsReport: {
        parameters: {
            query?: {
                /**
                 * @description 1–10 comma-separated e-mail addresses to send the CSV to when it is complete, each in a domain the deployment allows (`REPORT_EMAIL_DOMAINS`; without it, none: 400).
                 * @example reports@example.com
                 */
                email?: string;
            };
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report job (departments); poll its `Location` until `status` is `complete` or `failed`. */
            202: {
                headers: {
                    /** @description Path of the report. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            409: components["responses"]["ConflictProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            429: components["responses"]["TooManyRequestsProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    createDepartmentsReportJson: {
        parameters: {
            query?: {
                /**
                 * @description 1–10 comma-separated e-mail addresses to send the CSV to when it is complete, each in a domain the deployment allows (`REPORT_EMAIL_DOMAINS`; without it, none: 400).
                 * @example reports@example.com
                 */
                email?: string;
            };
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report job (departments); poll its `Location` until `status` is `complete` or `failed`. */
            202: {
                headers: {
                    /** @description Path of the report. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            409: components["responses"]["ConflictProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            429: components["responses"]["TooManyRequestsProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    getDepartmentsReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Id of the report. It may end in `.json`, as any path may.
                 * @example r-departments-example
                 */
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    downloadDepartmentsReport: {
        parameters: {
            query?: {
                /**
                 * @description `false`: answer 200 with the link as JSON instead of the 303 (for clients that repeat `Authorization` on redirects). Default `true`.
                 * @example false
                 */
                redirect?: "true" | "false";
            };
            header?: never;
            path: {
                /**
                 * @description Id of the report.
                 * @example r-departments-example
                 */
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description With `redirect=false`: the link to the CSV (valid 15 minutes) and when it expires. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uri */
                        download_url: string;
                        /** Format: date-time */
                        expires_at: string;
                    };
                };
            };
            /** @description See the CSV at `Location` (a link valid 15 minutes). Follow it without the `Authorization` header. */
            303: {
                headers: {
                    /** @description The CSV. */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ReportNotReadyProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    downloadDepartmentsReportJson: {
        parameters: {
            query?: {
                /**
                 * @description `false`: answer 200 with the link as JSON instead of the 303 (for clients that repeat `Authorization` on redirects). Default `true`.
                 * @example false
                 */
                redirect?: "true" | "false";
            };
            header?: never;
            path: {
                /**
                 * @description Id of the report.
                 * @example r-departments-example
                 */
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description With `redirect=false`: the link to the CSV (valid 15 minutes) and when it expires. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uri */
                        download_url: string;
                        /** Format: date-time */
                        expires_at: string;
                    };
                };
            };
            /** @description See the CSV at `Location` (a link valid 15 minutes). Follow it without the `Authorization` header. */
            303: {
                headers: {
                    /** @description The CSV. */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ReportNotReadyProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    createGroupsReport: {
        parameters: {
            query?: {
                /**
                 * @description 1–10 comma-separated e-mail addresses to send the CSV to when it is complete, each in a domain the deployment allows (`REPORT_EMAIL_DOMAINS`; without it, none: 400).
                 * @example reports@example.com
                 */
                email?: string;
            };
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report job (groups); poll its `Location` until `status` is `complete` or `failed`. */
            202: {
                headers: {
                    /** @description Path of the report. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            409: components["responses"]["ConflictProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            429: components["responses"]["TooManyRequestsProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    createGroupsReportJson: {
        parameters: {
            query?: {
                /**
                 * @description 1–10 comma-separated e-mail addresses to send the CSV to when it is complete, each in a domain the deployment allows (`REPORT_EMAIL_DOMAINS`; without it, none: 400).
                 * @example reports@example.com
                 */
                email?: string;
            };
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report job (groups); poll its `Location` until `status` is `complete` or `failed`. */
            202: {
                headers: {
                    /** @description Path of the report. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            409: components["responses"]["ConflictProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            429: components["responses"]["TooManyRequestsProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    getGroupsReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Id of the report. It may end in `.json`, as any path may.
                 * @example r-groups-example
                 */
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    downloadGroupsReport: {
        parameters: {
            query?: {
                /**
                 * @description `false`: answer 200 with the link as JSON instead of the 303 (for clients that repeat `Authorization` on redirects). Default `true`.
                 * @example false
                 */
                redirect?: "true" | "false";
            };
            header?: never;
            path: {
                /**
                 * @description Id of the report.
                 * @example r-groups-example
                 */
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description With `redirect=false`: the link to the CSV (valid 15 minutes) and when it expires. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uri */
                        download_url: string;
                        /** Format: date-time */
                        expires_at: string;
                    };
                };
            };
            /** @description See the CSV at `Location` (a link valid 15 minutes). Follow it without the `Authorization` header. */
            303: {
                headers: {
                    /** @description The CSV. */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ReportNotReadyProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    downloadGroupsReportJson: {
        parameters: {
            query?: {
                /**
                 * @description `false`: answer 200 with the link as JSON instead of the 303 (for clients that repeat `Authorization` on redirects). Default `true`.
                 * @example false
                 */
                redirect?: "true" | "false";
            };
            header?: never;
            path: {
                /**
                 * @description Id of the report.
                 * @example r-groups-example
                 */
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description With `redirect=false`: the link to the CSV (valid 15 minutes) and when it expires. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uri */
                        download_url: string;
                        /** Format: date-time */
                        expires_at: string;
                    };
                };
            };
            /** @description See the CSV at `Location` (a link valid 15 minutes). Follow it without the `Authorization` header. */
            303: {
                headers: {
                    /** @description The CSV. */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ReportNotReadyProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    downloadEmailedReport: {
        parameters: {
            query: {
                /**
                 * @description The secret of the e-mailed link, as the e-mail gives it.
                 * @example x0Qy1dVh2l5pQm3rT8kz6bWf9nJc4sA7eGu0oLi2Hd8
                 */
                token: string;
            };
            header?: never;
            path: {
                /**
                 * @description Id of the report.
                 * @example r-departments-example
                 */
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description See the CSV at `Location` (a link valid 5 minutes). */
            303: {
                headers: {
                    /** @description The CSV. */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
        };
    };
    downloadEmailedReportJson: {
        parameters: {
            query: {
                /**
                 * @description The secret of the e-mailed link, as the e-mail gives it.
                 * @example x0Qy1dVh2l5pQm3rT8kz6bWf9nJc4sA7eGu0oLi2Hd8
                 */
                token: string;
            };
            header?: never;
            path: {
                /**
                 * @description Id of the report.
                 * @example r-departments-example
                 */
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description See the CSV at `Location` (a link valid 5 minutes). */
            303: {
                headers: {
                    /** @description The CSV. */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            404: components["responses"]["NotFoundProblem"];
            500: components["responses"]["InternalProblem"];
        };
    };
    listScimTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tokens. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tokens: {
                            id: string;
                            description: string;
                            /** Format: date-time */
                            created_at: string;
                            expires_at: string | null;
                            last_used_at: string | null;
                        }[];
                    };
                };
            };
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    createScimToken: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Okta production"
                 *     }
                 */
                "application/json": {
                    description: string;
                    /** Format: date-time */
                    expires_at?: string;
                };
            };
        };
        responses: {
            /** @description The token, with its secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        description: string;
                        token: string;
                        /** Format: date-time */
                        created_at: string;
                        expires_at: string | null;
                        last_used_at: null;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    listScimTokensJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tokens. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tokens: {
                            id: string;
                            description: string;
                            /** Format: date-time */
                            created_at: string;
                            expires_at: string | null;
                            last_used_at: string | null;
                        }[];
                    };
                };
            };
            401: components["responses"]["UnauthorizedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    createScimTokenJson: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Okta production"
                 *     }
                 */
                "application/json": {
                    description: string;
                    /** Format: date-time */
                    expires_at?: string;
                };
            };
        };
        responses: {
            /** @description The token, with its secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        description: string;
                        token: string;
                        /** Format: date-time */
                        created_at: string;
                        expires_at: string | null;
                        last_used_at: null;
                    };
                };
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            409: components["responses"]["ConflictProblem"];
            413: components["responses"]["PayloadTooLargeProblem"];
            415: components["responses"]["UnsupportedMediaTypeProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    deleteScimToken: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.
                 * @example {{$guid}}
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Id of the token (`id` of its creation). It may end in `.json`, as any path may.
                 * @example k3YtQ9wN2xVb7LpA
                 */
                token_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationProblem"];
            401: components["responses"]["UnauthorizedProblem"];
            403: components["responses"]["ForbiddenProblem"];
            404: components["responses"]["NotFoundProblem"];
            409: components["responses"]["ConflictProblem"];
            422: components["responses"]["IdempotencyKeyReusedProblem"];
            500: components["responses"]["InternalProblem"];
            503: components["responses"]["UnavailableProblem"];
        };
    };
    scimServiceProviderConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service provider configuration */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimDefinition"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimResourceTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resource types */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimDefinitionList"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimResourceType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description `User` or `Group`.
                 * @example User
                 */
                resource_type: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One resource type */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimDefinition"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No such definition. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimSchemas: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schemas */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimDefinitionList"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The schema URN.
                 * @example urn:ietf:params:scim:schemas:core:2.0:User
                 */
                schema_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One schema */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimDefinition"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No such definition. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimListUsers: {
        parameters: {
            query?: {
                /**
                 * @description A SCIM filter (RFC 7644 §3.4.2.2): at most 2,000 characters, no control characters. Operators eq, ne, co, sw, ew, gt, ge, lt, le, pr, and, or, not.
                 * @example userName eq "ada@example.com"
                 */
                filter?: string;
                /**
                 * @description 1-based index of the first result (below 1 is 1).
                 * @example 1
                 */
                startIndex?: number;
                /**
                 * @description Results per page (0–200; more is 200).
                 * @example 100
                 */
                count?: number;
                /**
                 * @description Only these attributes (comma-separated; `id`, `schemas` and `meta` always).
                 * @example userName,active
                 */
                attributes?: string;
                /**
                 * @description All attributes but these (comma-separated): `members` spares reading a large group.
                 * @example members
                 */
                excludedAttributes?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimUserList"];
                };
            };
            /** @description A filter the service cannot parse or an attribute it does not know (`invalidFilter`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimCreateUser: {
        parameters: {
            query?: {
                /**
                 * @description Only these attributes (comma-separated; `id`, `schemas` and `meta` always).
                 * @example userName,active
                 */
                attributes?: string;
                /**
                 * @description All attributes but these (comma-separated): `members` spares reading a large group.
                 * @example members
                 */
                excludedAttributes?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:schemas:core:2.0:User",
                 *         "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
                 *       ],
                 *       "userName": "hopper@example.com",
                 *       "externalId": "00u1ab2cd3",
                 *       "name": {
                 *         "givenName": "Grace",
                 *         "familyName": "Hopper"
                 *       },
                 *       "emails": [
                 *         {
                 *           "value": "hopper@example.com",
                 *           "type": "work",
                 *           "primary": true
                 *         }
                 *       ],
                 *       "active": true,
                 *       "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {
                 *         "department": "Engineering"
                 *       }
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimUserRequest"];
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:schemas:core:2.0:User",
                 *         "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
                 *       ],
                 *       "userName": "hopper@example.com",
                 *       "externalId": "00u1ab2cd3",
                 *       "name": {
                 *         "givenName": "Grace",
                 *         "familyName": "Hopper"
                 *       },
                 *       "emails": [
                 *         {
                 *           "value": "hopper@example.com",
                 *           "type": "work",
                 *           "primary": true
                 *         }
                 *       ],
                 *       "active": true,
                 *       "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {
                 *         "department": "Engineering"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ScimUserRequest"];
            };
        };
        responses: {
            /** @description The user. */
            201: {
                headers: {
                    /** @description The version of the resource (`meta.version`), for `If-Match`. */
                    ETag: string;
                    /** @description The new resource (`meta.location`). */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimUser"];
                };
            };
            /** @description A missing or invalid attribute. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description `uniqueness`: the userName, externalId or e-mail is taken; or a full department. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The body is over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description A body that is not `application/scim+json` or `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimGetUser: {
        parameters: {
            query?: {
                /**
                 * @description Only these attributes (comma-separated; `id`, `schemas` and `meta` always).
                 * @example userName,active
                 */
                attributes?: string;
                /**
                 * @description All attributes but these (comma-separated): `members` spares reading a large group.
                 * @example members
                 */
                excludedAttributes?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The `id` of the user.
                 * @example ada
                 */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    /** @description The version of the resource (`meta.version`), for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimUser"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimReplaceUser: {
        parameters: {
            query?: {
                /**
                 * @description Only these attributes (comma-separated; `id`, `schemas` and `meta` always).
                 * @example userName,active
                 */
                attributes?: string;
                /**
                 * @description All attributes but these (comma-separated): `members` spares reading a large group.
                 * @example members
                 */
                excludedAttributes?: string;
            };
            header?: {
                /**
                 * @description Change only if the resource still has this version (`W/"<n>"`; `*`: any); otherwise 412.
                 * @example *
                 */
                "If-Match"?: string;
            };
            path: {
                /**
                 * @description The `id` of the user.
                 * @example ada
                 */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:schemas:core:2.0:User",
                 *         "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
                 *       ],
                 *       "userName": "ada.lovelace@example.com",
                 *       "externalId": "00u9zy8xw7",
                 *       "name": {
                 *         "givenName": "Ada",
                 *         "familyName": "Lovelace"
                 *       },
                 *       "emails": [
                 *         {
                 *           "value": "ada.lovelace@example.com",
                 *           "type": "work",
                 *           "primary": true
                 *         }
                 *       ],
                 *       "active": true,
                 *       "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {
                 *         "department": "Engineering"
                 *       }
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimUserRequest"];
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:schemas:core:2.0:User",
                 *         "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
                 *       ],
                 *       "userName": "ada.lovelace@example.com",
                 *       "externalId": "00u9zy8xw7",
                 *       "name": {
                 *         "givenName": "Ada",
                 *         "familyName": "Lovelace"
                 *       },
                 *       "emails": [
                 *         {
                 *           "value": "ada.lovelace@example.com",
                 *           "type": "work",
                 *           "primary": true
                 *         }
                 *       ],
                 *       "active": true,
                 *       "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {
                 *         "department": "Engineering"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ScimUserRequest"];
            };
        };
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    /** @description The version of the resource (`meta.version`), for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimUser"];
                };
            };
            /** @description An invalid attribute. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description `uniqueness`, or a full department. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description A stale `If-Match`. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The body is over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description A body that is not `application/scim+json` or `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimDeleteUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Change only if the resource still has this version (`W/"<n>"`; `*`: any); otherwise 412.
                 * @example *
                 */
                "If-Match"?: string;
            };
            path: {
                /**
                 * @description The `id` of the user.
                 * @example ada
                 */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description A stale `If-Match`. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimPatchUser: {
        parameters: {
            query?: {
                /**
                 * @description Only these attributes (comma-separated; `id`, `schemas` and `meta` always).
                 * @example userName,active
                 */
                attributes?: string;
                /**
                 * @description All attributes but these (comma-separated): `members` spares reading a large group.
                 * @example members
                 */
                excludedAttributes?: string;
            };
            header?: {
                /**
                 * @description Change only if the resource still has this version (`W/"<n>"`; `*`: any); otherwise 412.
                 * @example *
                 */
                "If-Match"?: string;
            };
            path: {
                /**
                 * @description The `id` of the user.
                 * @example ada
                 */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:PatchOp"
                 *       ],
                 *       "Operations": [
                 *         {
                 *           "op": "replace",
                 *           "path": "active",
                 *           "value": false
                 *         }
                 *       ]
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimPatchOp"];
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:PatchOp"
                 *       ],
                 *       "Operations": [
                 *         {
                 *           "op": "replace",
                 *           "path": "active",
                 *           "value": false
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ScimPatchOp"];
            };
        };
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    /** @description The version of the resource (`meta.version`), for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimUser"];
                };
            };
            /** @description An invalid path or value. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description `uniqueness`, or a full department. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description A stale `If-Match`. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The body is over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description A body that is not `application/scim+json` or `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimListGroups: {
        parameters: {
            query?: {
                /**
                 * @description A SCIM filter (RFC 7644 §3.4.2.2): at most 2,000 characters, no control characters. Operators eq, ne, co, sw, ew, gt, ge, lt, le, pr, and, or, not.
                 * @example displayName eq "Designers"
                 */
                filter?: string;
                /**
                 * @description 1-based index of the first result (below 1 is 1).
                 * @example 1
                 */
                startIndex?: number;
                /**
                 * @description Results per page (0–200; more is 200).
                 * @example 100
                 */
                count?: number;
                /**
                 * @description Only these attributes (comma-separated; `id`, `schemas` and `meta` always).
                 * @example userName,active
                 */
                attributes?: string;
                /**
                 * @description All attributes but these (comma-separated): `members` spares reading a large group.
                 * @example members
                 */
                excludedAttributes?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of groups. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimGroupList"];
                };
            };
            /** @description A filter the service cannot parse (`invalidFilter`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimCreateGroup: {
        parameters: {
            query?: {
                /**
                 * @description Only these attributes (comma-separated; `id`, `schemas` and `meta` always).
                 * @example userName,active
                 */
                attributes?: string;
                /**
                 * @description All attributes but these (comma-separated): `members` spares reading a large group.
                 * @example members
                 */
                excludedAttributes?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:schemas:core:2.0:Group"
                 *       ],
                 *       "displayName": "Engineering leads",
                 *       "externalId": "grp-42",
                 *       "members": [
                 *         {
                 *           "value": "grace"
                 *         }
                 *       ]
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimGroupRequest"];
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:schemas:core:2.0:Group"
                 *       ],
                 *       "displayName": "Engineering leads",
                 *       "externalId": "grp-42",
                 *       "members": [
                 *         {
                 *           "value": "grace"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ScimGroupRequest"];
            };
        };
        responses: {
            /** @description The group. */
            201: {
                headers: {
                    /** @description The version of the resource (`meta.version`), for `If-Match`. */
                    ETag: string;
                    /** @description The new resource (`meta.location`). */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimGroup"];
                };
            };
            /** @description The change has committed but would outlast the request (many members on a loaded host): its members are written in the background. Poll the group named by `resource` and `Location`; a repeat with the same Idempotency-Key answers the final result once it is there. */
            202: {
                headers: {
                    /** @description The group to poll. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": {
                        /** @enum {string} */
                        status: "applying";
                        resource: string;
                    };
                };
            };
            /** @description An invalid attribute or an unknown member. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description `uniqueness`: the displayName or externalId is taken. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The body is over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description A body that is not `application/scim+json` or `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimGetGroup: {
        parameters: {
            query?: {
                /**
                 * @description Only these attributes (comma-separated; `id`, `schemas` and `meta` always).
                 * @example userName,active
                 */
                attributes?: string;
                /**
                 * @description All attributes but these (comma-separated): `members` spares reading a large group.
                 * @example members
                 */
                excludedAttributes?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The `id` of the group.
                 * @example designers
                 */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group. */
            200: {
                headers: {
                    /** @description The version of the resource (`meta.version`), for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimGroup"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No such group. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimReplaceGroup: {
        parameters: {
            query?: {
                /**
                 * @description Only these attributes (comma-separated; `id`, `schemas` and `meta` always).
                 * @example userName,active
                 */
                attributes?: string;
                /**
                 * @description All attributes but these (comma-separated): `members` spares reading a large group.
                 * @example members
                 */
                excludedAttributes?: string;
            };
            header?: {
                /**
                 * @description Change only if the resource still has this version (`W/"<n>"`; `*`: any); otherwise 412.
                 * @example *
                 */
                "If-Match"?: string;
            };
            path: {
                /**
                 * @description The `id` of the group.
                 * @example designers
                 */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:schemas:core:2.0:Group"
                 *       ],
                 *       "displayName": "Designers",
                 *       "externalId": "grp-43",
                 *       "members": [
                 *         {
                 *           "value": "grace"
                 *         }
                 *       ]
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimGroupRequest"];
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:schemas:core:2.0:Group"
                 *       ],
                 *       "displayName": "Designers",
                 *       "externalId": "grp-43",
                 *       "members": [
                 *         {
                 *           "value": "grace"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ScimGroupRequest"];
            };
        };
        responses: {
            /** @description The group. */
            200: {
                headers: {
                    /** @description The version of the resource (`meta.version`), for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimGroup"];
                };
            };
            /** @description The change has committed but would outlast the request (many members on a loaded host): its members are written in the background. Poll the group named by `resource` and `Location`; a repeat with the same Idempotency-Key answers the final result once it is there. */
            202: {
                headers: {
                    /** @description The group to poll. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": {
                        /** @enum {string} */
                        status: "applying";
                        resource: string;
                    };
                };
            };
            /** @description An invalid attribute or an unknown member. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No such group. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description `uniqueness`: the displayName or externalId is taken; the group would pass 10,000 members; or a large change of its members is being applied (retry in a few seconds). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description A stale `If-Match`. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The body is over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description A body that is not `application/scim+json` or `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimDeleteGroup: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Change only if the resource still has this version (`W/"<n>"`; `*`: any); otherwise 412.
                 * @example *
                 */
                "If-Match"?: string;
            };
            path: {
                /**
                 * @description The `id` of the group.
                 * @example designers
                 */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No such group. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description A large change of its members is being applied: retry in a few seconds. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description A stale `If-Match`. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimPatchGroup: {
        parameters: {
            query?: {
                /**
                 * @description Only these attributes (comma-separated; `id`, `schemas` and `meta` always).
                 * @example userName,active
                 */
                attributes?: string;
                /**
                 * @description All attributes but these (comma-separated): `members` spares reading a large group.
                 * @example members
                 */
                excludedAttributes?: string;
            };
            header?: {
                /**
                 * @description Change only if the resource still has this version (`W/"<n>"`; `*`: any); otherwise 412.
                 * @example *
                 */
                "If-Match"?: string;
            };
            path: {
                /**
                 * @description The `id` of the group.
                 * @example designers
                 */
                group_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:PatchOp"
                 *       ],
                 *       "Operations": [
                 *         {
                 *           "op": "add",
                 *           "path": "members",
                 *           "value": [
                 *             {
                 *               "value": "grace"
                 *             }
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimPatchOp"];
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:PatchOp"
                 *       ],
                 *       "Operations": [
                 *         {
                 *           "op": "add",
                 *           "path": "members",
                 *           "value": [
                 *             {
                 *               "value": "grace"
                 *             }
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ScimPatchOp"];
            };
        };
        responses: {
            /** @description The group (with `attributes`). */
            200: {
                headers: {
                    /** @description The version of the resource (`meta.version`), for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimGroup"];
                };
            };
            /** @description The change has committed but would outlast the request (many members on a loaded host): its members are written in the background. Poll the group named by `resource` and `Location`; a repeat with the same Idempotency-Key answers the final result once it is there. */
            202: {
                headers: {
                    /** @description The group to poll. */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": {
                        /** @enum {string} */
                        status: "applying";
                        resource: string;
                    };
                };
            };
            /** @description Changed. */
            204: {
                headers: {
                    /** @description The version of the resource (`meta.version`), for `If-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An invalid path, value or member. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No SCIM token, or one that is unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description No such group. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description `uniqueness`: the displayName or externalId is taken; the group would pass 10,000 members; or a large change of its members is being applied (retry in a few seconds). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description A stale `If-Match`. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The body is over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description A body that is not `application/scim+json` or `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description An unexpected error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description The service is overloaded (DynamoDB throttled): retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
        };
    };
}
