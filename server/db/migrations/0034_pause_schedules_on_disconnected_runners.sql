-- Schedules set to run on a local runner that was disconnected are paused, not left to fail at
-- each firing (docs/decisions/032, amended): the member chooses another runner or the cloud.
UPDATE "automations" SET "enabled" = false, "updated_at" = now()
WHERE "enabled" = true AND "schedule" IS NOT NULL
  AND "device_id" IN (SELECT "id" FROM "devices" WHERE "revoked_at" IS NOT NULL);
