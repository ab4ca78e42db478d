-- The admin's overview (docs/decisions/063): each finished UTC day's figures, rolled up once into daily_stats; and indexes on the times the roll-up and the overview count by (sign-ups, runs ended, credits, payments, failed webhook deliveries).
CREATE TABLE "daily_stats" (
	"day" date PRIMARY KEY NOT NULL,
	"sign_ups" integer NOT NULL,
	"runs_succeeded" integer NOT NULL,
	"runs_failed" integer NOT NULL,
	"runs_cancelled" integer NOT NULL,
	"credits_spent" integer NOT NULL,
	"credits_refunded" integer NOT NULL,
	"model_calls" integer NOT NULL,
	"model_credits" integer NOT NULL,
	"trials_started" integer NOT NULL,
	"trials_converted" integer NOT NULL,
	"trials_expired" integer NOT NULL,
	"cancellations" integer NOT NULL,
	"revenue" numeric(14, 2) NOT NULL,
	"mrr" numeric(14, 2),
	"paying_subscriptions" integer,
	"rolled_up_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "users_created_at_index" ON "users" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "credit_ledger_created_at_reason_index" ON "credit_ledger" USING btree ("created_at","reason");--> statement-breakpoint
CREATE INDEX "payments_created_at_index" ON "payments" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "automation_runs_finished_at_status_index" ON "automation_runs" USING btree ("finished_at","status");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_failed_idx" ON "webhook_deliveries" USING btree ("updated_at") WHERE "webhook_deliveries"."status" = 'failed';