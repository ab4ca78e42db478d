CREATE TABLE "device_pairings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_code" text NOT NULL,
	"poll_secret_hash" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"version" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"workspace_id" text,
	"user_id" text,
	"device_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "device_pairings_userCode_unique" UNIQUE("user_code"),
	CONSTRAINT "device_pairings_kind_check" CHECK ("device_pairings"."kind" in ('extension', 'runner')),
	CONSTRAINT "device_pairings_status_check" CHECK ("device_pairings"."status" in ('pending', 'approved', 'denied', 'completed')),
	CONSTRAINT "device_pairings_approved_check" CHECK ("device_pairings"."status" in ('pending', 'denied') or "device_pairings"."workspace_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"version" text NOT NULL,
	"token_hash" text NOT NULL,
	"scopes" text[] DEFAULT '{automations}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "devices_tokenHash_unique" UNIQUE("token_hash"),
	CONSTRAINT "devices_kind_check" CHECK ("devices"."kind" in ('extension', 'runner'))
);
--> statement-breakpoint
ALTER TABLE "subscription_plans" DROP CONSTRAINT "subscription_plans_limits_check";--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "devices" integer DEFAULT 1;--> statement-breakpoint
ALTER TABLE "device_pairings" ADD CONSTRAINT "device_pairings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_pairings" ADD CONSTRAINT "device_pairings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_pairings" ADD CONSTRAINT "device_pairings_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_pairings_workspace_id_status_index" ON "device_pairings" USING btree ("workspace_id","status");--> statement-breakpoint
CREATE INDEX "device_pairings_expires_at_index" ON "device_pairings" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "devices_workspace_id_revoked_at_index" ON "devices" USING btree ("workspace_id","revoked_at");--> statement-breakpoint
CREATE INDEX "devices_user_id_created_at_index" ON "devices" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_limits_check" CHECK (coalesce("subscription_plans"."monthly_run_limit", 0) >= 0 and coalesce("subscription_plans"."action_limit", 1) >= 1 and coalesce("subscription_plans"."monthly_model_calls", 0) >= 0 and "subscription_plans"."seats" >= 1 and "subscription_plans"."webhooks" >= 0 and coalesce("subscription_plans"."vault_secrets", 0) >= 0 and "subscription_plans"."cloud_concurrency" >= 1 and coalesce("subscription_plans"."devices", 0) >= 0);--> statement-breakpoint
-- Connected devices per workspace by plan (docs/decisions/031), from the pricing texts: one on
-- Free, "Cloud sync across 3 devices" on Pro, "Unlimited devices" on Business.
UPDATE "subscription_plans" SET "devices" = 3 WHERE "slug" = 'pro';--> statement-breakpoint
UPDATE "subscription_plans" SET "devices" = NULL WHERE "slug" = 'business';
