-- Webhook URLs often carry the receiver's token in their path or query, and the activity feed is
-- read by viewers and any API key, who may not read /webhooks (issue 27, item 6). The service now
-- names an endpoint by webhookUrlHint (common/webhooks.ts): its origin, and of the rest only the
-- last 4 characters once it has 16 or more. This rewrites the entries written before the same way.
-- Their summaries are "<prefix><url>", and for webhook.update "<prefix><url>: <changed fields>".
WITH entries AS (
  SELECT
    id,
    summary,
    substring(summary from '^(Added the webhook endpoint |Changed the webhook endpoint |Deleted the webhook endpoint |Rotated the signing secret of the webhook endpoint )') AS prefix,
    CASE
      WHEN action = 'webhook.update'
        THEN coalesce(substring(summary from '(: (?:url|description|events|enabled)(?:, (?:url|description|events|enabled))*)$'), '')
      ELSE ''
    END AS suffix
  FROM audit_log
  WHERE action IN ('webhook.create', 'webhook.update', 'webhook.delete', 'webhook.rotate-secret')
), urls AS (
  SELECT id, prefix, suffix, substr(summary, length(prefix) + 1, length(summary) - length(prefix) - length(suffix)) AS url
  FROM entries
  WHERE prefix IS NOT NULL
), parts AS (
  SELECT
    id,
    prefix,
    suffix,
    url,
    lower(substring(url from '^([A-Za-z][A-Za-z0-9+.-]*)://')) AS scheme,
    substring(url from '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#\\]*)') AS authority
  FROM urls
), rests AS (
  SELECT
    id,
    prefix,
    suffix,
    scheme,
    -- The origin as URL.origin writes it: the scheme and host in lower case, without the scheme's default port.
    scheme || '://' || regexp_replace(lower(authority), CASE WHEN scheme = 'https' THEN ':(443)?$' ELSE ':(80)?$' END, '') AS origin,
    substr(url, length(scheme) + 3 + length(authority) + 1) AS rest
  FROM parts
), hints AS (
  SELECT
    id,
    prefix,
    suffix,
    CASE
      WHEN scheme IS NULL OR scheme NOT IN ('http', 'https') THEN 'a webhook URL'
      ELSE origin || CASE
        WHEN rest = '' OR rest = '/' THEN '/'
        ELSE '/…' || CASE
          WHEN length(CASE WHEN rest LIKE '/%' THEN rest ELSE '/' || rest END) >= 16 THEN right(rest, 4)
          ELSE ''
        END
      END
    END AS hint
  FROM rests
)
UPDATE audit_log
SET summary = hints.prefix || hints.hint || hints.suffix
FROM hints
WHERE audit_log.id = hints.id;
