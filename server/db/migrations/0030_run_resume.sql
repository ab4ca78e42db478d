ALTER TABLE "automation_runs" ADD COLUMN "resumed_from" uuid;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "start_step" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "resume_url" text;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "stopped_at" jsonb;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_resumed_from_automation_runs_id_fk" FOREIGN KEY ("resumed_from") REFERENCES "public"."automation_runs"("id") ON DELETE set null ON UPDATE no action;