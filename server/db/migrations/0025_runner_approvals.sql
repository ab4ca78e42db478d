ALTER TABLE "automation_runs" ADD COLUMN "automation_version" integer;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "device_approved_version" integer;--> statement-breakpoint
-- A local runner runs only what its owner approved (docs/decisions/032, amended by issue 27). An
-- automation set to run on a runner stays approved when its last change, as the activity log
-- records it, was made by the runner's owner; any other (someone else's change, or no record) waits
-- for the owner to approve its current version on the automation's page. Queued runs are not
-- back-filled: they were queued without the check, so the runner refuses them at its claim.
UPDATE "automations" AS a SET "device_approved_version" = a."version"
FROM "devices" AS d
WHERE a."device_id" = d."id"
  AND d."user_id" = (
    SELECT l."actor_id" FROM "audit_log" AS l
    WHERE l."target_type" = 'automation' AND l."target_id" = a."id"::text
      AND l."action" IN ('automation.create', 'automation.update', 'automation.repair')
    ORDER BY l."created_at" DESC, l."id" DESC
    LIMIT 1
  );
