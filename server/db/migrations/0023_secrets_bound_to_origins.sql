ALTER TABLE "vault_secrets" ADD COLUMN "origins" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "vault_secrets" ADD COLUMN "use_role" text DEFAULT 'member' NOT NULL;--> statement-breakpoint
ALTER TABLE "vault_secrets" ADD COLUMN "origins_from_steps_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vault_secrets" ADD CONSTRAINT "vault_secrets_use_role_check" CHECK ("vault_secrets"."use_role" in ('member', 'admin', 'owner'));--> statement-breakpoint
ALTER TABLE "vault_secrets" ADD CONSTRAINT "vault_secrets_origins_check" CHECK (jsonb_typeof("vault_secrets"."origins") = 'array');--> statement-breakpoint
-- Secrets bound to origins (docs/decisions/039). A secret that steps type today gets the origins of
-- the pages they type it on: for every type step whose text names it ({{secrets.name}}, or
-- {{totp.name}} for a TOTP secret), in every automation of its workspace (sign-in blocks are steps
-- of their automation), the origin of the last navigate before that step. Origins are written as
-- the URL standard does (scheme and host in lower case, no user name, no default port); an address
-- whose host is an input or not plain ASCII gives none. The vault page asks the member to check
-- origins set this way (origins_from_steps_at) until they are saved, and the activity says so. A
-- secret no step types gets none: it cannot be used until someone names one.
WITH numbered AS (
  SELECT a.id AS automation_id, a.workspace_id, s.step, s.n
  FROM automations a
  CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(a.steps) = 'array' THEN a.steps ELSE '[]'::jsonb END) WITH ORDINALITY AS s(step, n)
),
typed AS (
  SELECT t.workspace_id, t.step->>'text' AS text,
    (SELECT nav.step->>'url' FROM numbered nav
      WHERE nav.automation_id = t.automation_id AND nav.n < t.n AND nav.step->>'type' = 'navigate'
      ORDER BY nav.n DESC LIMIT 1) AS page_url
  FROM numbered t
  WHERE t.step->>'type' = 'type' AND jsonb_typeof(t.step->'text') = 'string'
),
uses AS (
  SELECT typed.workspace_id, m[1] AS kind, m[2] AS name,
    lower(substring(typed.page_url from '^([A-Za-z][A-Za-z0-9+.-]*)://')) AS scheme,
    lower(regexp_replace(substring(typed.page_url from '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#\\]*)'), '^.*@', '')) AS host_port
  FROM typed
  CROSS JOIN LATERAL regexp_matches(typed.text, '\{\{\s*(secrets|totp)\.([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}', 'g') AS m
  WHERE typed.page_url IS NOT NULL
),
found AS (
  SELECT workspace_id, kind, name,
    scheme || '://' || regexp_replace(host_port, CASE scheme WHEN 'http' THEN ':80$' ELSE ':443$' END, '') AS origin
  FROM uses
  WHERE scheme IN ('http', 'https')
    AND host_port ~ '^([a-z0-9_-]+(\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])(:[0-9]{1,5})?$'
),
per_secret AS (
  SELECT v.id, jsonb_agg(DISTINCT f.origin ORDER BY f.origin) AS origins
  FROM vault_secrets v
  JOIN found f ON f.workspace_id = v.workspace_id AND f.name = v.name AND (f.kind = 'totp') = (v.kind = 'totp')
  GROUP BY v.id
)
UPDATE vault_secrets v
SET origins = per_secret.origins, origins_from_steps_at = now()
FROM per_secret
WHERE per_secret.id = v.id;--> statement-breakpoint
INSERT INTO audit_log (workspace_id, actor_id, actor_email, action, target_type, target_id, summary, after)
SELECT v.workspace_id, NULL, 'Aether', 'secret.origins.set', 'secret', v.id::text,
  CASE WHEN jsonb_array_length(v.origins) > 0
    THEN 'Set the sites the secret ' || v.name || ' may be typed on from the automations that type it: '
      || (SELECT string_agg(o, ', ' ORDER BY o) FROM jsonb_array_elements_text(v.origins) AS o)
      || '. Check them in Vault.'
    ELSE 'The secret ' || v.name || ' is typed by no automation, so it names no site yet: it cannot be used until you name the sites it may be typed on in Vault.'
  END,
  jsonb_build_object('origins', v.origins)
FROM vault_secrets v;
