// The authorisation matrix, written down: for every /api route and method, the status each caller
// gets. authorization-matrix.test.ts calls every row as each role and fails when the OpenAPI
// document and DOCUMENTED disagree (a route without a row, or a row without a route), so a new
// route cannot ship without someone deciding, here, who may call it.
//
// The callers:
// - visitor: no credentials at all;
// - member: a signed-in member (the auth_session cookie, sent with the site's Origin as a browser
//   does) who owns the resources in the paths: the automation, its runs, the API key;
// - otherMember: a second signed-in member (a bearer session token) who owns none of them. Another
//   member's resource is as unknown as a missing one: 404, never 403, so ids cannot be probed;
// - admin: a signed-in admin (a bearer session token). An admin may read a member's automation and
//   runs (support), but cannot change, run, duplicate, report on or cancel them, nor revoke a
//   member's API key: those answer 404 as for any other non-owner.
// Rows with the variant "API key" call as the same roles, each signed in with an API key of its
// own (Authorization: Bearer ak_...) with the default scope (automations) instead of its session.
// Rows with the variant "admin-scoped API key" do the same, but the admin's key also has the admin
// scopes (admin:read, admin:content); members cannot have those, so they use their default key.
//
// Order of checks (ADR 015): who is asking, then whether they may call the route (its access rule,
// declared with the route and published as `x-access`), then whether the input is valid. So a
// visitor gets 401 and a member on an admin route 403 whatever they send: the test sends every
// row's refused callers invalid bodies, queries and path parameters too, and expects the same
// 401/403. Each row below is for a valid request, so that the allowed callers reach the handler.

export const ROLES = ['visitor', 'member', 'otherMember', 'admin'] as const
export type Role = (typeof ROLES)[number]

export interface RouteExpectation {
  /** "METHOD /path" relative to /api, with the OpenAPI document's {param} placeholders. */
  route: string
  /** A second request to the same route (another query, an unsigned delivery); unset for the main one. */
  variant?: string
  visitor: number
  member: number
  otherMember: number
  admin: number
  /**
   * Roles whose successful answer must not contain the resource ids the request names as private
   * (the member's automation, run or key; a draft post). Every other role that succeeds must see them.
   */
  blind?: Role[]
  note?: string
}

/** Every operation of /api/openapi.json, and only those. */
export const DOCUMENTED: RouteExpectation[] = [
  // Operations and webhooks: no session involved.
  { route: 'GET /health', visitor: 200, member: 200, otherMember: 200, admin: 200 },
  {
    route: 'POST /webhooks/paddle',
    visitor: 200,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: 'a delivery signed with the endpoint secret: the signature, not a session, is the credential',
  },
  {
    route: 'POST /webhooks/paddle',
    variant: 'unsigned',
    visitor: 401,
    member: 401,
    otherMember: 401,
    admin: 401,
    note: "no Paddle-Signature: refused whoever's session comes along",
  },

  // Auth: the caller's own account.
  { route: 'POST /auth/register', visitor: 201, member: 201, otherMember: 201, admin: 201, note: 'a new e-mail address each call' },
  {
    route: 'POST /auth/login',
    visitor: 200,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: "each signs in with its own account's password",
  },
  {
    route: 'POST /auth/logout',
    visitor: 200,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: 'signed in, it ends a fresh session of the caller; without one there is nothing to end and it still answers 200',
  },
  { route: 'GET /auth/me', visitor: 401, member: 200, otherMember: 200, admin: 200 },
  { route: 'PUT /auth/profile', visitor: 401, member: 200, otherMember: 200, admin: 200 },
  {
    route: 'PUT /auth/change-password',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: 'every session of the caller ends; the test signs the role in again afterwards',
  },
  {
    route: 'PUT /auth/change-password',
    variant: 'API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 403,
    note: 'a leaked key must not take the account over',
  },
  {
    route: 'GET /auth/me',
    variant: 'API key',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: 'any key may read who it belongs to',
  },

  // Two-factor sign-in and passkeys (docs/decisions/023). Changing how an account signs in needs a session.
  {
    route: 'POST /auth/login/second-factor',
    visitor: 200,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: "a fresh ticket of a two-factor account and its current code: the ticket, not the caller's session, counts",
  },
  { route: 'GET /auth/two-factor', visitor: 401, member: 200, otherMember: 200, admin: 200 },
  {
    route: 'POST /auth/two-factor/setup',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: 'a set-up not confirmed changes nothing at sign-in',
  },
  {
    route: 'POST /auth/two-factor/setup',
    variant: 'API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 403,
    note: 'a leaked key must not change how the account signs in',
  },
  {
    route: 'POST /auth/two-factor/confirm',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: "a fresh account's pending set-up each call (confirming replaces the session and turns two-factor on)",
  },
  {
    route: 'POST /auth/two-factor/recovery-codes',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: 'a fresh account with two-factor on each call',
  },
  {
    route: 'POST /auth/two-factor/disable',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: 'a fresh account with two-factor on each call',
  },
  { route: 'GET /auth/passkeys', visitor: 401, member: 200, otherMember: 200, admin: 200 },
  { route: 'POST /auth/passkeys/options', visitor: 401, member: 200, otherMember: 200, admin: 200 },
  {
    route: 'POST /auth/passkeys',
    visitor: 401,
    member: 201,
    otherMember: 201,
    admin: 201,
    note: "each adds a passkey made by a software authenticator for its own options' challenge",
  },
  {
    route: 'DELETE /auth/passkeys/{id}',
    visitor: 401,
    member: 200,
    otherMember: 404,
    admin: 404,
    note: "a fresh passkey of the member's each call; nobody else's",
  },
  { route: 'POST /auth/login/passkey/options', visitor: 200, member: 200, otherMember: 200, admin: 200 },
  {
    route: 'POST /auth/login/passkey',
    visitor: 200,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: "a passkey account's assertion for a fresh challenge: the passkey, not the caller's session, counts",
  },

  // Users (admin). The member's own id in the path changes nothing: the admin API is for admins.
  { route: 'GET /users', visitor: 401, member: 403, otherMember: 403, admin: 200 },
  { route: 'POST /users', visitor: 401, member: 403, otherMember: 403, admin: 201 },
  { route: 'GET /users/{id}', visitor: 401, member: 403, otherMember: 403, admin: 200, note: "the member's own id" },
  { route: 'PUT /users/{id}', visitor: 401, member: 403, otherMember: 403, admin: 200 },
  { route: 'DELETE /users/{id}', visitor: 401, member: 403, otherMember: 403, admin: 200, note: 'a fresh user each call' },
  { route: 'POST /users/{id}/reset-password', visitor: 401, member: 403, otherMember: 403, admin: 200 },
  {
    route: 'POST /users/{id}/reset-two-factor',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 200,
    note: 'turns off two-factor and removes passkeys, with an audit entry',
  },
  {
    route: 'POST /users/{id}/reset-two-factor',
    variant: 'admin-scoped API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 403,
    note: "no key resets an account's sign-in",
  },
  {
    route: 'GET /users',
    variant: 'admin-scoped API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 200,
    note: 'admin:read lets an admin’s key list users',
  },
  {
    route: 'GET /users',
    variant: 'API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 403,
    note: 'without admin:read, an admin’s key is refused',
  },
  {
    route: 'POST /users/{id}/reset-password',
    variant: 'admin-scoped API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 403,
    note: 'the key owner’s own id: no key can set a password, whatever its scopes (a leaked key must not take accounts over)',
  },
  {
    route: 'POST /users',
    variant: 'admin-scoped API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 403,
    note: 'no key can create accounts (nor admins)',
  },
  {
    route: 'PUT /users/{id}',
    variant: 'admin-scoped API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 403,
    note: 'no key can change roles, plans or credits',
  },

  // Service inquiries: anyone may send one; only admins read and manage them.
  { route: 'POST /contact', visitor: 201, member: 201, otherMember: 201, admin: 201 },
  { route: 'GET /contact', visitor: 401, member: 403, otherMember: 403, admin: 200 },
  { route: 'PUT /contact/{id}', visitor: 401, member: 403, otherMember: 403, admin: 200 },
  { route: 'DELETE /contact/{id}', visitor: 401, member: 403, otherMember: 403, admin: 200, note: 'a fresh inquiry each call' },

  // Blog: published posts are public; writing is for admins.
  { route: 'GET /blog', visitor: 200, member: 200, otherMember: 200, admin: 200 },
  {
    route: 'GET /blog',
    variant: 'status=draft',
    visitor: 200,
    member: 200,
    otherMember: 200,
    admin: 200,
    blind: ['visitor', 'member', 'otherMember'],
    note: 'only an admin gets drafts; everyone else gets the published posts instead',
  },
  { route: 'GET /blog/tags', visitor: 200, member: 200, otherMember: 200, admin: 200 },
  { route: 'GET /blog/{slug}', visitor: 200, member: 200, otherMember: 200, admin: 200, note: 'a published post' },
  {
    route: 'GET /blog/{slug}',
    variant: 'draft',
    visitor: 404,
    member: 404,
    otherMember: 404,
    admin: 404,
    note: 'a draft is not public, even to an admin (the admin area reads drafts through GET /blog?status=draft)',
  },
  { route: 'POST /blog', visitor: 401, member: 403, otherMember: 403, admin: 201 },
  {
    route: 'POST /blog',
    variant: 'admin-scoped API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 201,
    note: 'admin:content lets an admin’s key write posts',
  },
  { route: 'PUT /blog/{id}', visitor: 401, member: 403, otherMember: 403, admin: 200 },
  { route: 'DELETE /blog/{id}', visitor: 401, member: 403, otherMember: 403, admin: 200, note: 'a fresh post each call' },
  { route: 'POST /uploads/covers', visitor: 401, member: 403, otherMember: 403, admin: 201, note: 'a multipart PNG' },
  { route: 'POST /ai/generate-blog', visitor: 401, member: 403, otherMember: 403, admin: 200, note: 'a stream' },

  // Admin tools.
  { route: 'GET /mail/outbox', visitor: 401, member: 403, otherMember: 403, admin: 200 },
  { route: 'GET /settings', visitor: 401, member: 403, otherMember: 403, admin: 200 },
  { route: 'PUT /settings', visitor: 401, member: 403, otherMember: 403, admin: 200 },
  {
    route: 'PUT /settings',
    variant: 'admin-scoped API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 403,
    note: 'no key can change the system settings (maintenance mode, limits)',
  },
  { route: 'GET /audit', visitor: 401, member: 403, otherMember: 403, admin: 200 },
  { route: 'GET /events/inquiries', visitor: 401, member: 403, otherMember: 403, admin: 200, note: 'server-sent events' },

  // API keys: each caller's own.
  {
    route: 'GET /keys',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    blind: ['otherMember', 'admin'],
    note: 'a caller lists only their own keys, an admin too',
  },
  {
    route: 'GET /keys',
    variant: 'API key',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    blind: ['otherMember', 'admin'],
    note: 'each signed-in role calls with an API key of its own instead of its session: listing is allowed',
  },
  { route: 'POST /keys', visitor: 401, member: 201, otherMember: 201, admin: 201 },
  {
    route: 'POST /keys',
    variant: 'API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 403,
    note: 'a key cannot make keys, whatever the role behind it',
  },
  {
    route: 'DELETE /keys/{id}',
    visitor: 401,
    member: 200,
    otherMember: 404,
    admin: 404,
    note: "the member's key (a fresh one each call)",
  },
  {
    route: 'DELETE /keys/{id}',
    variant: 'API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 403,
    note: 'a key cannot revoke keys: refused (403) before the key in the path is looked up',
  },

  // Automations: the member's own; an admin may read any.
  { route: 'GET /automations/steps.schema.json', visitor: 200, member: 200, otherMember: 200, admin: 200 },
  {
    route: 'GET /automations',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    blind: ['otherMember', 'admin'],
    note: "the caller's own automations only, an admin's too",
  },
  { route: 'POST /automations', visitor: 401, member: 201, otherMember: 201, admin: 201 },
  {
    route: 'POST /automations',
    variant: 'API key',
    visitor: 401,
    member: 201,
    otherMember: 201,
    admin: 201,
    note: 'the automations scope: what the extension and desktop apps use',
  },
  { route: 'GET /automations/{id}', visitor: 401, member: 200, otherMember: 404, admin: 200 },
  { route: 'PUT /automations/{id}', visitor: 401, member: 200, otherMember: 404, admin: 404 },
  { route: 'DELETE /automations/{id}', visitor: 401, member: 200, otherMember: 404, admin: 404, note: 'a fresh automation each call' },
  { route: 'POST /automations/{id}/duplicate', visitor: 401, member: 201, otherMember: 404, admin: 404 },
  {
    route: 'POST /automations/inspect',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: 'a page on this machine (the matrix app lets the cloud browser reach loopback)',
  },
  { route: 'POST /automations/inspect', variant: 'API key', visitor: 401, member: 200, otherMember: 200, admin: 200 },
  { route: 'POST /automations/plan', visitor: 401, member: 200, otherMember: 200, admin: 200, note: 'the offline planner' },
  { route: 'POST /automations/plan', variant: 'API key', visitor: 401, member: 200, otherMember: 200, admin: 200 },
  {
    route: 'GET /automations/{id}/suggestions',
    visitor: 401,
    member: 200,
    otherMember: 404,
    admin: 404,
    note: 'the owner only (on Pro); an admin may read the automation but not its suggestions',
  },
  {
    route: 'POST /automations/{id}/suggestions/{suggestionId}/apply',
    visitor: 401,
    member: 409,
    otherMember: 404,
    admin: 404,
    note: 'a made-up suggestion id: the owner is told it no longer applies (409), anyone else that the automation is unknown',
  },
  {
    route: 'GET /automations/{id}/suggestions',
    variant: 'API key',
    visitor: 401,
    member: 200,
    otherMember: 404,
    admin: 404,
    note: 'a fresh automation with a suggestion each call: the owner’s key sees it (the automations scope)',
  },
  {
    route: 'POST /automations/{id}/suggestions/{suggestionId}/apply',
    variant: 'API key',
    visitor: 401,
    member: 200,
    otherMember: 404,
    admin: 404,
    note: 'a fresh automation and its suggestion each call: the automations scope lets the owner’s key apply it',
  },
  {
    route: 'POST /automations/{id}/runs',
    visitor: 401,
    member: 201,
    otherMember: 404,
    admin: 404,
    note: 'where=client (no credits); an admin cannot start a run of a member’s automation',
  },

  // Runs: the member's own; an admin may read any, and list every member's with scope=all.
  {
    route: 'GET /runs',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    blind: ['otherMember', 'admin'],
    note: "scope=mine (the default): the caller's own runs only",
  },
  {
    route: 'GET /runs',
    variant: "the member's userId and automationId",
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    blind: ['otherMember', 'admin'],
    note: 'without scope=all, userId is ignored and automationId only narrows the caller’s own runs',
  },
  { route: 'GET /runs', variant: 'scope=all', visitor: 401, member: 403, otherMember: 403, admin: 200 },
  {
    route: 'GET /runs',
    variant: 'scope=all, API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 403,
    note: "every member's runs need admin:read; the default key has only automations",
  },
  {
    route: 'GET /runs',
    variant: 'scope=all, admin-scoped API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 200,
  },
  {
    route: 'GET /runs/events',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: "server-sent events of the caller's own runs only",
  },
  { route: 'GET /runs/{id}', visitor: 401, member: 200, otherMember: 404, admin: 200 },
  {
    route: 'POST /runs/{id}/repairs/{step}/apply',
    visitor: 401,
    member: 200,
    otherMember: 404,
    admin: 404,
    note: 'a fresh run with a repair each call; members of the run’s workspace apply it (team roles: runs/apply-repair.test.ts)',
  },
  {
    route: 'POST /runs/{id}/repairs/{step}/apply',
    variant: 'API key',
    visitor: 401,
    member: 200,
    otherMember: 404,
    admin: 404,
    note: 'a fresh run with a repair each call: the automations scope is “Apply fix” for the extension and desktop apps',
  },
  { route: 'POST /runs/{id}/progress', visitor: 401, member: 200, otherMember: 404, admin: 404, note: 'a fresh client run each call' },
  { route: 'POST /runs/{id}/finish', visitor: 401, member: 200, otherMember: 404, admin: 404, note: 'a fresh client run each call' },
  { route: 'POST /runs/{id}/cancel', visitor: 401, member: 200, otherMember: 404, admin: 404, note: 'a fresh client run each call' },
  { route: 'GET /runs/{id}/extracted.csv', visitor: 401, member: 200, otherMember: 404, admin: 200 },
  { route: 'GET /runs/{id}/extracted.json', visitor: 401, member: 200, otherMember: 404, admin: 200 },
  { route: 'GET /runs/{id}/screenshots/{file}', visitor: 401, member: 200, otherMember: 404, admin: 200 },

  // Workspaces (docs/decisions/021): every role here works in its personal workspace, as its owner.
  // Team workspaces, roles and another team's ids: server/features/workspaces/workspaces.api.test.ts.
  { route: 'GET /workspaces', visitor: 401, member: 200, otherMember: 200, admin: 200 },
  { route: 'POST /workspaces', visitor: 401, member: 409, otherMember: 409, admin: 409, note: 'on Free: team workspaces need Business' },
  { route: 'GET /workspaces/current', visitor: 401, member: 200, otherMember: 200, admin: 200 },
  { route: 'PATCH /workspaces/current', visitor: 401, member: 200, otherMember: 200, admin: 200 },
  {
    route: 'DELETE /workspaces/current',
    visitor: 401,
    member: 409,
    otherMember: 409,
    admin: 409,
    note: 'a personal workspace cannot be deleted',
  },
  { route: 'GET /workspaces/current/members', visitor: 401, member: 200, otherMember: 200, admin: 200 },
  {
    route: 'PATCH /workspaces/current/members/{userId}',
    visitor: 401,
    member: 409,
    otherMember: 409,
    admin: 409,
    note: 'personal: nobody else is in it',
  },
  {
    route: 'DELETE /workspaces/current/members/{userId}',
    visitor: 401,
    member: 409,
    otherMember: 409,
    admin: 409,
    note: 'personal: nobody else is in it',
  },
  {
    route: 'POST /workspaces/current/leave',
    visitor: 401,
    member: 409,
    otherMember: 409,
    admin: 409,
    note: 'nobody leaves a personal workspace',
  },
  {
    route: 'POST /workspaces/current/transfer',
    visitor: 401,
    member: 409,
    otherMember: 409,
    admin: 409,
    note: 'personal: nobody to transfer to',
  },
  { route: 'GET /workspaces/current/invitations', visitor: 401, member: 200, otherMember: 200, admin: 200 },
  {
    route: 'POST /workspaces/current/invitations',
    visitor: 401,
    member: 409,
    otherMember: 409,
    admin: 409,
    note: 'a personal workspace takes no invitations',
  },
  {
    route: 'DELETE /workspaces/current/invitations/{id}',
    visitor: 401,
    member: 409,
    otherMember: 409,
    admin: 409,
    note: 'personal: there are none',
  },
  { route: 'GET /workspaces/current/activity', visitor: 401, member: 200, otherMember: 200, admin: 200 },
  { route: 'POST /workspaces/invitations/accept', visitor: 401, member: 404, otherMember: 404, admin: 404, note: 'an unknown token' },

  // Templates (docs/decisions/022): everyone signed in browses the published ones and uses them in
  // their workspace; admins write them and read drafts. More in server/features/templates/templates.api.test.ts.
  {
    route: 'GET /templates',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    blind: ['member', 'otherMember', 'admin'],
    note: 'the published templates only: a draft is not listed, even to an admin (scope=all lists it)',
  },
  { route: 'GET /templates', variant: 'scope=all', visitor: 401, member: 403, otherMember: 403, admin: 200, note: 'drafts too: admins' },
  { route: 'GET /templates/{id}', visitor: 401, member: 200, otherMember: 200, admin: 200, note: 'a published template' },
  {
    route: 'GET /templates/{id}',
    variant: 'draft',
    visitor: 401,
    member: 404,
    otherMember: 404,
    admin: 200,
    note: 'a draft is as unknown as a missing template, except to an admin',
  },
  { route: 'POST /templates', visitor: 401, member: 403, otherMember: 403, admin: 201 },
  {
    route: 'POST /templates',
    variant: 'admin-scoped API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 201,
    note: 'admin:content lets an admin’s key write templates',
  },
  { route: 'PUT /templates/{id}', visitor: 401, member: 403, otherMember: 403, admin: 200 },
  { route: 'DELETE /templates/{id}', visitor: 401, member: 403, otherMember: 403, admin: 200, note: 'a fresh template each call' },
  {
    route: 'POST /templates/{id}/use',
    visitor: 401,
    member: 201,
    otherMember: 201,
    admin: 201,
    note: "an automation in the caller's own workspace",
  },
  {
    route: 'POST /templates/{id}/use',
    variant: 'API key',
    visitor: 401,
    member: 201,
    otherMember: 201,
    admin: 201,
    note: 'the automations scope',
  },
  {
    route: 'POST /templates/{id}/use',
    variant: 'advanced',
    visitor: 401,
    member: 409,
    otherMember: 409,
    admin: 409,
    note: 'advanced templates are for Business: the member is on Pro, the others on Free',
  },

  // The credential vault (docs/decisions/025): each workspace's own; names only, never values.
  // Changes need a session: a leaked API key cannot plant or swap credentials.
  {
    route: 'GET /vault',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    blind: ['otherMember', 'admin'],
    note: "the names in the caller's own workspace: an admin sees no member's secrets",
  },
  {
    route: 'GET /vault',
    variant: 'API key',
    visitor: 401,
    member: 200,
    otherMember: 200,
    admin: 200,
    blind: ['otherMember', 'admin'],
    note: 'the automations scope lists names',
  },
  { route: 'POST /vault', visitor: 401, member: 201, otherMember: 201, admin: 201, note: "a new name in the caller's own vault each call" },
  {
    route: 'POST /vault',
    variant: 'API key',
    visitor: 401,
    member: 403,
    otherMember: 403,
    admin: 403,
    note: 'a key cannot change the vault, whatever the role behind it',
  },
  {
    route: 'DELETE /automations/{id}/session',
    visitor: 401,
    member: 200,
    otherMember: 404,
    admin: 404,
    note: "forgets the member's automation's kept browser session (forgotten: false when there is none)",
  },
  { route: 'PUT /vault/{id}', visitor: 401, member: 200, otherMember: 404, admin: 404, note: "the member's secret" },
  {
    route: 'DELETE /vault/{id}',
    visitor: 401,
    member: 200,
    otherMember: 404,
    admin: 404,
    note: "the member's secret (a fresh one each call)",
  },
]

/**
 * Served under /api but not in the OpenAPI document (server/api.ts), and Better Auth endpoints that
 * must stay unreachable: they would go around /api/auth's validation and limits.
 */
export const UNDOCUMENTED: RouteExpectation[] = [
  {
    route: 'GET /openapi.json',
    visitor: 200,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: 'the document itself',
  },
  { route: 'GET /docs', visitor: 200, member: 200, otherMember: 200, admin: 200, note: 'the API reference page (HTML)' },
  {
    route: 'POST /identity/sign-in/social',
    visitor: 200,
    member: 200,
    otherMember: 200,
    admin: 200,
    note: "Better Auth's handler: answers Google's sign-in address (Google configured)",
  },
  {
    route: 'GET /identity/callback/{provider}',
    visitor: 302,
    member: 302,
    otherMember: 302,
    admin: 302,
    note: "Better Auth's handler: without a valid state it redirects to the error page and signs nobody in",
  },
  { route: 'POST /identity/sign-in/email', visitor: 404, member: 404, otherMember: 404, admin: 404, note: 'not exposed' },
  { route: 'POST /identity/sign-up/email', visitor: 404, member: 404, otherMember: 404, admin: 404, note: 'not exposed' },
  { route: 'GET /identity/get-session', visitor: 404, member: 404, otherMember: 404, admin: 404, note: 'not exposed' },
  { route: 'GET /identity/list-sessions', visitor: 404, member: 404, otherMember: 404, admin: 404, note: 'not exposed' },
  { route: 'POST /identity/revoke-sessions', visitor: 404, member: 404, otherMember: 404, admin: 404, note: 'not exposed' },
  { route: 'POST /identity/sign-out', visitor: 404, member: 404, otherMember: 404, admin: 404, note: 'not exposed' },
  { route: 'POST /identity/change-password', visitor: 404, member: 404, otherMember: 404, admin: 404, note: 'not exposed' },
  { route: 'POST /identity/update-user', visitor: 404, member: 404, otherMember: 404, admin: 404, note: 'not exposed' },
  { route: 'POST /identity/delete-user', visitor: 404, member: 404, otherMember: 404, admin: 404, note: 'not exposed' },
  { route: 'POST /identity/two-factor/enable', visitor: 404, member: 404, otherMember: 404, admin: 404, note: 'not exposed' },
  { route: 'POST /identity/two-factor/verify-totp', visitor: 404, member: 404, otherMember: 404, admin: 404, note: 'not exposed' },
  {
    route: 'POST /identity/passkey/verify-authentication',
    visitor: 404,
    member: 404,
    otherMember: 404,
    admin: 404,
    note: 'not exposed',
  },
  { route: 'GET /no-such-route', visitor: 404, member: 404, otherMember: 404, admin: 404, note: 'the JSON 404 for anything else' },
]

/** "METHOD /path" or "METHOD /path [variant]": a row's key in the request table of the test. */
export const keyOf = (row: Pick<RouteExpectation, 'route' | 'variant'>) => (row.variant ? `${row.route} [${row.variant}]` : row.route)
