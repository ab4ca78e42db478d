ALTER TABLE "automations" ALTER COLUMN "steps_version" SET DEFAULT 2;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "repairs" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "self_repair" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Steps version 2 (docs/decisions/019): a step's `selector` becomes a target with that one CSS
-- alternative, in every automation and in the steps each run kept.
CREATE FUNCTION "steps_v1_to_v2"(steps jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_agg(
    CASE WHEN jsonb_typeof(step) = 'object' AND step ? 'selector' AND NOT step ? 'target'
      THEN (step - 'selector') || jsonb_build_object('target', jsonb_build_array(jsonb_build_object('by', 'css', 'selector', step->'selector')))
      ELSE step
    END ORDER BY position), '[]'::jsonb)
  FROM jsonb_array_elements(steps) WITH ORDINALITY AS listed(step, position)
$$;--> statement-breakpoint
UPDATE "automations" SET "steps" = "steps_v1_to_v2"("steps"), "steps_version" = 2 WHERE "steps_version" = 1;--> statement-breakpoint
UPDATE "automation_runs" SET "steps" = "steps_v1_to_v2"("steps") WHERE jsonb_path_exists("steps", '$[*].selector');--> statement-breakpoint
DROP FUNCTION "steps_v1_to_v2"(jsonb);
