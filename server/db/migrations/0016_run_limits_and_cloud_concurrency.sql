ALTER TABLE "subscription_plans" DROP CONSTRAINT "subscription_plans_limits_check";--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "cloud_concurrency" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "time_limit_seconds" integer;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "step_limit" integer;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "run_time_limit_seconds" integer;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "run_step_limit" integer;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_limits_check" CHECK (coalesce("subscription_plans"."monthly_run_limit", 0) >= 0 and coalesce("subscription_plans"."action_limit", 1) >= 1 and coalesce("subscription_plans"."monthly_model_calls", 0) >= 0 and "subscription_plans"."seats" >= 1 and "subscription_plans"."webhooks" >= 0 and coalesce("subscription_plans"."vault_secrets", 0) >= 0 and "subscription_plans"."cloud_concurrency" >= 1);--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_run_limits_check" CHECK (coalesce("automations"."run_time_limit_seconds", 1) >= 1 and coalesce("automations"."run_step_limit", 1) >= 1);--> statement-breakpoint
-- Cloud runs at once per workspace by plan (docs/decisions/029): one on Free, two on Pro, five on
-- Business; the rest wait in the queue.
UPDATE "subscription_plans" SET "cloud_concurrency" = 2 WHERE "slug" = 'pro';--> statement-breakpoint
UPDATE "subscription_plans" SET "cloud_concurrency" = 5 WHERE "slug" = 'business';
