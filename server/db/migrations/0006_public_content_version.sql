CREATE TABLE "public_content_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "public_content_version_single_row" CHECK ("public_content_version"."id" = 1)
);
--> statement-breakpoint
-- The page cache's version (server/db/schema/public-content.ts): every statement that changes
-- what a public page shows sets it to its own transaction's id.
INSERT INTO "public_content_version" ("id", "version") VALUES (1, txid_current());--> statement-breakpoint
CREATE FUNCTION "bump_public_content_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "public_content_version" SET "version" = txid_current() WHERE "id" = 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "blog_posts_public_content" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "blog_posts"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_public_content_version"();--> statement-breakpoint
CREATE TRIGGER "subscription_plans_public_content" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "subscription_plans"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_public_content_version"();--> statement-breakpoint
CREATE TRIGGER "app_settings_public_content" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "app_settings"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_public_content_version"();--> statement-breakpoint
-- Posts show their author's name.
CREATE TRIGGER "profiles_public_content" AFTER UPDATE OF "full_name" OR DELETE ON "profiles"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_public_content_version"();
