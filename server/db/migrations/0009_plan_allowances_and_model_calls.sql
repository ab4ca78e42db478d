ALTER TABLE "subscription_plans" DROP CONSTRAINT "subscription_plans_limits_check";--> statement-breakpoint
ALTER TABLE "credit_ledger" DROP CONSTRAINT "credit_ledger_reason_check";--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "monthly_model_calls" integer DEFAULT 0;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "ai_planning" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "model_repair" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "suggestions" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "self_repair" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_limits_check" CHECK (coalesce("subscription_plans"."monthly_run_limit", 0) >= 0 and coalesce("subscription_plans"."action_limit", 1) >= 1 and coalesce("subscription_plans"."monthly_model_calls", 0) >= 0);--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_reason_check" CHECK ("credit_ledger"."reason" in ('signup', 'plan_grant', 'admin_edit', 'usage', 'refund', 'model_call'));--> statement-breakpoint
-- What the seeded paid plans include, from the pricing texts ("AI optimisation suggestions" in Pro,
-- "everything in Pro" in Business): planning and self-repair with the model, suggestions, and a
-- monthly allowance of model calls (docs/decisions/020). Free keeps the offline forms.
UPDATE "subscription_plans" SET "ai_planning" = true, "model_repair" = true, "suggestions" = true, "monthly_model_calls" = 300 WHERE "slug" = 'pro';--> statement-breakpoint
UPDATE "subscription_plans" SET "ai_planning" = true, "model_repair" = true, "suggestions" = true, "monthly_model_calls" = 2000 WHERE "slug" = 'business';
