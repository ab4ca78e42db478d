-- The credential vault and kept browser sessions (docs/decisions/025).
CREATE TABLE "automation_sessions" (
	"automation_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"sealed_state" text NOT NULL,
	"saved_by_run" uuid,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vault_keys" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"wrapped_key" text NOT NULL,
	"key_fingerprint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rotated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "vault_secrets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"sealed_value" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vault_secrets_workspace_name_unique" UNIQUE("workspace_id","name"),
	CONSTRAINT "vault_secrets_kind_check" CHECK ("vault_secrets"."kind" in ('username', 'password', 'totp', 'value'))
);
--> statement-breakpoint
ALTER TABLE "subscription_plans" DROP CONSTRAINT "subscription_plans_limits_check";--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "vault_secrets" integer DEFAULT 0;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "keep_session" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "sign_in_block" jsonb;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "keep_session" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "sign_in_block" jsonb;--> statement-breakpoint
ALTER TABLE "automation_sessions" ADD CONSTRAINT "automation_sessions_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_sessions" ADD CONSTRAINT "automation_sessions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_keys" ADD CONSTRAINT "vault_keys_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_secrets" ADD CONSTRAINT "vault_secrets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_secrets" ADD CONSTRAINT "vault_secrets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_limits_check" CHECK (coalesce("subscription_plans"."monthly_run_limit", 0) >= 0 and coalesce("subscription_plans"."action_limit", 1) >= 1 and coalesce("subscription_plans"."monthly_model_calls", 0) >= 0 and "subscription_plans"."seats" >= 1 and "subscription_plans"."webhooks" >= 0 and coalesce("subscription_plans"."vault_secrets", 0) >= 0);--> statement-breakpoint
-- The credential vault's size by plan (docs/decisions/025): a few saved logins on Free, plenty on
-- Pro, no limit on Business ("Custom integrations").
UPDATE "subscription_plans" SET "vault_secrets" = 5 WHERE "slug" = 'free';--> statement-breakpoint
UPDATE "subscription_plans" SET "vault_secrets" = 50 WHERE "slug" = 'pro';--> statement-breakpoint
UPDATE "subscription_plans" SET "vault_secrets" = NULL WHERE "slug" = 'business';
