-- The embedded database's server keeps the sessions it has read until a table they are read from
-- changes (docs/decisions/055): every statement that writes one of them notifies
-- aether_session_data, which is delivered at commit. Only where the setting
-- aether.notify_session_data is on (PGlite's settings): a PostgreSQL server that several processes
-- share keeps no sessions, and its commits do not queue notifications nobody reads.
CREATE OR REPLACE FUNCTION "notify_session_data"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('aether.notify_session_data', true) = 'on' THEN
    PERFORM pg_notify('aether_session_data', '');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_notify_session_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "notify_session_data"();
--> statement-breakpoint
CREATE TRIGGER "users_notify_session_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "notify_session_data"();
--> statement-breakpoint
CREATE TRIGGER "profiles_notify_session_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "profiles" FOR EACH STATEMENT EXECUTE FUNCTION "notify_session_data"();
--> statement-breakpoint
CREATE TRIGGER "workspaces_notify_session_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "workspaces" FOR EACH STATEMENT EXECUTE FUNCTION "notify_session_data"();
--> statement-breakpoint
CREATE TRIGGER "workspace_members_notify_session_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "workspace_members" FOR EACH STATEMENT EXECUTE FUNCTION "notify_session_data"();
--> statement-breakpoint
CREATE TRIGGER "subscription_plans_notify_session_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "subscription_plans" FOR EACH STATEMENT EXECUTE FUNCTION "notify_session_data"();
