ALTER TABLE "automations" ALTER COLUMN "steps_version" SET DEFAULT 4;--> statement-breakpoint
ALTER TABLE "automation_templates" ALTER COLUMN "steps_version" SET DEFAULT 4;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "data_rows" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "row_outcomes" jsonb DEFAULT '[]'::jsonb NOT NULL;