-- Run timelines, what a run stores, and how long a plan keeps run files (docs/decisions/057). Existing plans keep
-- every run's files until the admin sets the days: nothing is removed by deploying this.
ALTER TABLE "subscription_plans" DROP CONSTRAINT "subscription_plans_limits_check";--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "run_files_days" integer;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "timeline" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "stored_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "files_removed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "automation_runs_files_kept_idx" ON "automation_runs" USING btree ("finished_at") WHERE "automation_runs"."stored_bytes" > 0 and "automation_runs"."files_removed_at" is null;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_limits_check" CHECK (coalesce("subscription_plans"."monthly_run_limit", 0) >= 0 and coalesce("subscription_plans"."action_limit", 1) >= 1 and coalesce("subscription_plans"."monthly_model_calls", 0) >= 0 and "subscription_plans"."seats" >= 1 and "subscription_plans"."webhooks" >= 0 and coalesce("subscription_plans"."vault_secrets", 0) >= 0 and "subscription_plans"."cloud_concurrency" >= 1 and coalesce("subscription_plans"."devices", 0) >= 0 and coalesce("subscription_plans"."schedule_min_minutes", 1) >= 1 and coalesce("subscription_plans"."data_row_limit", 1) >= 1 and coalesce("subscription_plans"."run_files_days", 1) >= 1);
--> statement-breakpoint
-- Runs from before kept files with sizes unknown (screenshots) or known (kept files): counted so the retention sweep finds them.
UPDATE "automation_runs" SET "stored_bytes" = greatest(1, coalesce((SELECT sum(("kept"->>'size')::bigint) FROM jsonb_array_elements("files") AS "kept"), 0))::integer WHERE "screenshots" <> '[]'::jsonb OR "files" <> '[]'::jsonb;
