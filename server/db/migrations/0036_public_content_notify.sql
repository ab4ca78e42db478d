-- The page cache hears of a change of what public pages show when it commits, instead of reading
-- the version for every hit (docs/decisions/050): the version's trigger function also notifies
-- aether_public_content, which PostgreSQL delivers at commit to every connection listening.
CREATE OR REPLACE FUNCTION "bump_public_content_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "public_content_version" SET "version" = txid_current() WHERE "id" = 1;
  PERFORM pg_notify('aether_public_content', '');
  RETURN NULL;
END
$$;
