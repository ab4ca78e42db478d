-- Replays (docs/decisions/060): when an automation's cloud runs keep a Playwright trace, the setting each run started with, and what became of its trace.
ALTER TABLE "automation_runs" ADD COLUMN "trace_mode" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "trace" jsonb;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "trace" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_trace_mode_check" CHECK ("automation_runs"."trace_mode" in ('off', 'onFailure', 'always'));--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_trace_check" CHECK ("automations"."trace" in ('off', 'onFailure', 'always'));