-- Workspaces (docs/decisions/021). Every account gets a personal workspace with the account's id,
-- so what a member owned moves to their workspace by the same id: balances, ledger, subscriptions
-- and payments keep their rows; automations, runs and API keys gain the workspace they are in.
CREATE TABLE "workspaces" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"personal_owner_id" text,
	"plan_slug" text DEFAULT 'free' NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"require_two_factor" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspaces_personalOwnerId_unique" UNIQUE("personal_owner_id"),
	CONSTRAINT "workspaces_credits_check" CHECK ("workspaces"."credits" >= 0),
	CONSTRAINT "workspaces_kind_check" CHECK ("workspaces"."kind" in ('personal', 'team')),
	CONSTRAINT "workspaces_personal_check" CHECK (("workspaces"."kind" = 'personal') = ("workspaces"."personal_owner_id" is not null) and ("workspaces"."personal_owner_id" is null or "workspaces"."personal_owner_id" = "workspaces"."id"))
);
--> statement-breakpoint
CREATE TABLE "workspace_members" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_members_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id"),
	CONSTRAINT "workspace_members_role_check" CHECK ("workspace_members"."role" in ('owner', 'admin', 'member', 'viewer'))
);
--> statement-breakpoint
CREATE TABLE "workspace_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" text,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" text,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_invitations_tokenHash_unique" UNIQUE("token_hash"),
	CONSTRAINT "workspace_invitations_role_check" CHECK ("workspace_invitations"."role" in ('admin', 'member', 'viewer'))
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_personal_owner_id_users_id_fk" FOREIGN KEY ("personal_owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_plan_slug_subscription_plans_slug_fk" FOREIGN KEY ("plan_slug") REFERENCES "public"."subscription_plans"("slug") ON DELETE restrict ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspaces_plan_slug_index" ON "workspaces" USING btree ("plan_slug");--> statement-breakpoint
CREATE INDEX "workspace_members_user_id_index" ON "workspace_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "workspace_invitations_workspace_id_created_at_index" ON "workspace_invitations" USING btree ("workspace_id","created_at");--> statement-breakpoint
-- Plans: team workspaces and their seats. Business sells "Team collaboration".
ALTER TABLE "subscription_plans" ADD COLUMN "teams" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "seats" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_plans" DROP CONSTRAINT "subscription_plans_limits_check";--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_limits_check" CHECK (coalesce("subscription_plans"."monthly_run_limit", 0) >= 0 and coalesce("subscription_plans"."action_limit", 1) >= 1 and coalesce("subscription_plans"."monthly_model_calls", 0) >= 0 and "subscription_plans"."seats" >= 1);--> statement-breakpoint
UPDATE "subscription_plans" SET "seats" = 3 WHERE "slug" IN ('free', 'pro');--> statement-breakpoint
UPDATE "subscription_plans" SET "teams" = true, "seats" = 25 WHERE "slug" = 'business';--> statement-breakpoint
-- A personal workspace for every account, with the plan and balance its profile had.
INSERT INTO "workspaces" ("id", "name", "kind", "personal_owner_id", "plan_slug", "credits", "created_at", "updated_at")
SELECT "users"."id", 'Personal', 'personal', "users"."id", coalesce("profiles"."subscription_plan", 'free'), coalesce("profiles"."credits", 0), "users"."created_at", now()
FROM "users" LEFT JOIN "profiles" ON "profiles"."id" = "users"."id";--> statement-breakpoint
INSERT INTO "workspace_members" ("workspace_id", "user_id", "role", "created_at")
SELECT "users"."id", "users"."id", 'owner', "users"."created_at" FROM "users";--> statement-breakpoint
-- The profile keeps the person; plan and credits now live with the workspace.
ALTER TABLE "profiles" DROP CONSTRAINT "profiles_subscription_plan_subscription_plans_slug_fk";--> statement-breakpoint
ALTER TABLE "profiles" DROP CONSTRAINT "profiles_credits_check";--> statement-breakpoint
DROP INDEX "profiles_subscription_plan_index";--> statement-breakpoint
ALTER TABLE "profiles" DROP COLUMN "subscription_plan";--> statement-breakpoint
ALTER TABLE "profiles" DROP COLUMN "credits";--> statement-breakpoint
-- The ledger, subscriptions and payments were a member's; the same id is now their personal workspace.
ALTER TABLE "credit_ledger" DROP CONSTRAINT "credit_ledger_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "credit_ledger" RENAME COLUMN "user_id" TO "workspace_id";--> statement-breakpoint
ALTER INDEX "credit_ledger_user_id_created_at_index" RENAME TO "credit_ledger_workspace_id_created_at_index";--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "subscriptions" RENAME COLUMN "user_id" TO "workspace_id";--> statement-breakpoint
ALTER INDEX "subscriptions_user_id_index" RENAME TO "subscriptions_workspace_id_index";--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "payments" RENAME COLUMN "user_id" TO "workspace_id";--> statement-breakpoint
ALTER INDEX "payments_user_id_created_at_index" RENAME TO "payments_workspace_id_created_at_index";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Automations, runs and keys: in the creator's personal workspace; the person stays as creator.
ALTER TABLE "automations" ADD COLUMN "workspace_id" text;--> statement-breakpoint
UPDATE "automations" SET "workspace_id" = "owner_id";--> statement-breakpoint
ALTER TABLE "automations" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "automations" ALTER COLUMN "owner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "automations" DROP CONSTRAINT "automations_owner_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
DROP INDEX "automations_owner_id_created_at_index";--> statement-breakpoint
CREATE INDEX "automations_workspace_id_created_at_index" ON "automations" USING btree ("workspace_id","created_at");--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "workspace_id" text;--> statement-breakpoint
UPDATE "automation_runs" SET "workspace_id" = "user_id";--> statement-breakpoint
ALTER TABLE "automation_runs" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_runs" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_runs" DROP CONSTRAINT "automation_runs_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
DROP INDEX "automation_runs_user_id_created_at_index";--> statement-breakpoint
CREATE INDEX "automation_runs_workspace_id_created_at_index" ON "automation_runs" USING btree ("workspace_id","created_at");--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "workspace_id" text;--> statement-breakpoint
UPDATE "api_keys" SET "workspace_id" = "user_id";--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- One activity table: the admin's audit log, and what happens in each workspace.
ALTER TABLE "audit_log" ADD COLUMN "workspace_id" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_workspace_id_created_at_index" ON "audit_log" USING btree ("workspace_id","created_at");
