CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_prefix_unique" UNIQUE("prefix")
);
--> statement-breakpoint
CREATE TABLE "automation_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"automation_id" uuid,
	"automation_name" text NOT NULL,
	"user_id" text NOT NULL,
	"status" text NOT NULL,
	"trigger" text NOT NULL,
	"runner" text NOT NULL,
	"steps" jsonb NOT NULL,
	"actions_performed" integer DEFAULT 0 NOT NULL,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"log" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"extracted" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"screenshots" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"refunded_at" timestamp with time zone,
	"worker_id" text,
	"lease_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automation_runs_status_check" CHECK ("automation_runs"."status" in ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
	CONSTRAINT "automation_runs_trigger_check" CHECK ("automation_runs"."trigger" in ('manual', 'schedule', 'extension', 'desktop')),
	CONSTRAINT "automation_runs_runner_check" CHECK ("automation_runs"."runner" in ('cloud', 'client')),
	CONSTRAINT "automation_runs_counts_check" CHECK ("automation_runs"."actions_performed" >= 0 and "automation_runs"."credits_charged" >= 0)
);
--> statement-breakpoint
CREATE TABLE "automations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"steps" jsonb NOT NULL,
	"steps_version" integer DEFAULT 1 NOT NULL,
	"schedule" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"next_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "monthly_run_limit" integer;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "action_limit" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_user_id_created_at_index" ON "api_keys" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "automation_runs_user_id_created_at_index" ON "automation_runs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "automation_runs_automation_id_created_at_index" ON "automation_runs" USING btree ("automation_id","created_at");--> statement-breakpoint
CREATE INDEX "automation_runs_status_runner_created_at_index" ON "automation_runs" USING btree ("status","runner","created_at");--> statement-breakpoint
CREATE INDEX "automations_owner_id_created_at_index" ON "automations" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "automations_next_run_at_index" ON "automations" USING btree ("next_run_at");--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_limits_check" CHECK (coalesce("subscription_plans"."monthly_run_limit", 0) >= 0 and coalesce("subscription_plans"."action_limit", 1) >= 1);--> statement-breakpoint
-- The spec's Free plan: 5 automations (runs) a month, up to 100 actions per automation.
UPDATE "subscription_plans" SET "monthly_run_limit" = 5, "action_limit" = 100 WHERE "slug" = 'free';
