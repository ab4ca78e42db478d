-- Viewing the app as a member (docs/decisions/064): sessions.impersonated_by marks a session an admin opened as a member (read-only, 30 minutes); a trigger keeps such a session's expiry from ever growing, whoever updates it.
ALTER TABLE "sessions" ADD COLUMN "impersonated_by" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_impersonated_by_users_id_fk" FOREIGN KEY ("impersonated_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "keep_view_as_session"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.impersonated_by IS NOT NULL THEN
    NEW.impersonated_by := OLD.impersonated_by;
    NEW.expires_at := LEAST(NEW.expires_at, OLD.expires_at);
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_keep_view_as_session" BEFORE UPDATE ON "sessions" FOR EACH ROW EXECUTE FUNCTION "keep_view_as_session"();
