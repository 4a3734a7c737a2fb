-- The receiving host of each webhook (`host:port`, the port the scheme's when the URL names
-- none): the dispatcher caps sends in flight per receiver and per account, so one host that
-- hangs, whatever paths point at it, holds only its own deliveries. Filled here from the stored
-- `href` (no credentials, always a `/` after the host); new rows get it from `receiverOf`.
ALTER TABLE webhooks ADD COLUMN receiver TEXT NOT NULL DEFAULT '';
UPDATE webhooks SET receiver = (
  SELECT CASE WHEN h LIKE '%]' OR h NOT LIKE '%:%' THEN h || ':' || (CASE WHEN url LIKE 'https:%' THEN '443' ELSE '80' END) ELSE h END
  FROM (SELECT substr(rest, 1, instr(rest || '/', '/') - 1) AS h FROM (SELECT substr(url, instr(url, '://') + 3) AS rest))
);
