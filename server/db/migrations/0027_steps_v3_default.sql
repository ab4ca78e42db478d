ALTER TABLE "automations" ALTER COLUMN "steps_version" SET DEFAULT 3;--> statement-breakpoint
ALTER TABLE "automation_templates" ALTER COLUMN "steps_version" SET DEFAULT 3;