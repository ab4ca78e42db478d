-- The live view of cloud runs: the latest frame of each watched run's browser (docs/decisions/058).
CREATE TABLE "run_live_frames" (
	"run_id" uuid PRIMARY KEY NOT NULL,
	"seq" integer NOT NULL,
	"image" "bytea",
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "run_live_frames" ADD CONSTRAINT "run_live_frames_run_id_automation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."automation_runs"("id") ON DELETE cascade ON UPDATE no action;