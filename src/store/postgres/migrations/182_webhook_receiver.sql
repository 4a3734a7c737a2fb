-- The receiving host of each webhook (`host:port`, the port the scheme's when the URL names
-- none): the dispatcher caps sends in flight per receiver and per account, so one host that
-- hangs, whatever paths point at it, holds only its own deliveries. Filled here from the stored
-- `href` (no credentials, always a `/` after the host); new rows get it from `receiverOf`.
ALTER TABLE webhooks ADD COLUMN receiver text NOT NULL DEFAULT '';
UPDATE webhooks SET receiver = CASE WHEN h LIKE '%]' OR h NOT LIKE '%:%' THEN h || ':' || (CASE WHEN url LIKE 'https:%' THEN '443' ELSE '80' END) ELSE h END
FROM (SELECT batch_id AS id, split_part(substr(url, position('://' in url) + 3), '/', 1) AS h FROM webhooks) parts
WHERE webhooks.batch_id = parts.id;
