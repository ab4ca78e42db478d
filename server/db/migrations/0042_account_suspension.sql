-- Account suspension (docs/decisions/062): an admin suspends a member with a reason; while suspended_at is set nothing of theirs signs in or runs. Their own runs are found by user_id (stopped at suspension, listed in the admin's timeline).
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspension_reason" text;--> statement-breakpoint
CREATE INDEX "automation_runs_user_id_created_at_index" ON "automation_runs" USING btree ("user_id","created_at");