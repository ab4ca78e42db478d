ALTER TABLE "subscription_plans" DROP CONSTRAINT "subscription_plans_limits_check";--> statement-breakpoint
-- Schedules with kinds and time zones (docs/decisions/036). A schedule from before was a five-field
-- cron string in UTC: it becomes a custom cron schedule in UTC, which fires at the same instants
-- (the same croner pattern in the same zone); its next_run_at is kept, and '' was never stored.
ALTER TABLE "automations" ALTER COLUMN "schedule" SET DATA TYPE jsonb USING (
  CASE WHEN "schedule" IS NULL THEN NULL
  ELSE jsonb_build_object('kind', 'cron', 'expression', "schedule", 'timeZone', 'UTC') END
);--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "schedule_min_minutes" integer DEFAULT 15;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_limits_check" CHECK (coalesce("subscription_plans"."monthly_run_limit", 0) >= 0 and coalesce("subscription_plans"."action_limit", 1) >= 1 and coalesce("subscription_plans"."monthly_model_calls", 0) >= 0 and "subscription_plans"."seats" >= 1 and "subscription_plans"."webhooks" >= 0 and coalesce("subscription_plans"."vault_secrets", 0) >= 0 and "subscription_plans"."cloud_concurrency" >= 1 and coalesce("subscription_plans"."devices", 0) >= 0 and coalesce("subscription_plans"."schedule_min_minutes", 1) >= 1);--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_schedule_check" CHECK ("automations"."schedule" is null or (coalesce("automations"."schedule"->>'kind', '') in ('interval', 'daily', 'weekly', 'monthly', 'cron') and "automations"."schedule"->>'timeZone' is not null));--> statement-breakpoint
-- The shortest interval of a schedule by plan: 15 minutes on Free (the column's default, also for a
-- plan of the admin's own), 5 on Pro, none on Business. Schedules saved before keep firing as they do.
UPDATE "subscription_plans" SET "schedule_min_minutes" = 5 WHERE "slug" = 'pro';--> statement-breakpoint
UPDATE "subscription_plans" SET "schedule_min_minutes" = NULL WHERE "slug" = 'business';
