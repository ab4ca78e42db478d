ALTER TABLE "subscription_plans" DROP CONSTRAINT "subscription_plans_limits_check";--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "data_row_limit" integer DEFAULT 20;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "scripts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_limits_check" CHECK (coalesce("subscription_plans"."monthly_run_limit", 0) >= 0 and coalesce("subscription_plans"."action_limit", 1) >= 1 and coalesce("subscription_plans"."monthly_model_calls", 0) >= 0 and "subscription_plans"."seats" >= 1 and "subscription_plans"."webhooks" >= 0 and coalesce("subscription_plans"."vault_secrets", 0) >= 0 and "subscription_plans"."cloud_concurrency" >= 1 and coalesce("subscription_plans"."devices", 0) >= 0 and coalesce("subscription_plans"."schedule_min_minutes", 1) >= 1 and coalesce("subscription_plans"."data_row_limit", 1) >= 1);--> statement-breakpoint
-- Pro and Business sell "advanced browser and desktop automation": more rows per run and JavaScript steps (docs/decisions/046).
UPDATE "subscription_plans" SET "data_row_limit" = 1000, "scripts" = true WHERE "slug" = 'pro';--> statement-breakpoint
UPDATE "subscription_plans" SET "data_row_limit" = 10000, "scripts" = true WHERE "slug" = 'business';
