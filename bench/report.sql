-- report.sql: a consent log of @rows entries for the site "bench" over the
-- last 30 days, oldest first as the service stores them, for timing `consentctl report` (bench/report.sh).  Run with
-- the sqlite3 shell on a database consentctl made with that site, as
--   sqlite3 -cmd '.parameter set @rows 1000000' DB < report.sql
-- A visitor (one in 400,000) has about 2.5 entries: impressions (30%),
-- initial decisions (55%) and updates (15%), with every field the report
-- groups by varied, time_to_action_ms up to 2 minutes, GPC sent by 7%.
PRAGMA synchronous = OFF;
PRAGMA cache_size = -262144;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < @rows),
e AS (SELECT i, abs(random()) % 100 AS r FROM n)
INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type,
    event_action, published_version, region, consent_model, time_to_action_ms,
    banner_position, page_url, browser, os, device_type, country, gpc)
SELECT (SELECT id FROM sites WHERE site_key = 'bench'),
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('-%d seconds', 2592000 * (@rows - e.i) / @rows)),
       printf('%064x', e.i % 400000),
       CASE e.r % 4
       WHEN 0 THEN '{"necessary":true,"functional":true,"analytics":true,"marketing":true}'
       WHEN 1 THEN '{"necessary":true,"functional":false,"analytics":false,"marketing":false}'
       WHEN 2 THEN '{"necessary":true,"functional":true,"analytics":true,"marketing":false}'
       ELSE '{"necessary":true}' END,
       CASE WHEN e.r < 30 THEN 'impression' WHEN e.r < 85 THEN 'initial' ELSE 'update' END,
       CASE WHEN e.r >= 30 THEN CASE e.r % 4 WHEN 0 THEN 'opt_in' WHEN 1 THEN 'opt_out'
                                             WHEN 2 THEN 'partial' ELSE 'acknowledge' END END,
       1,
       CASE WHEN e.r % 7 < 4 THEN 'gdpr' WHEN e.r % 7 < 6 THEN 'us_state_laws' ELSE 'default' END,
       'opt_in',
       CASE WHEN e.r >= 30 THEN (e.i * 7919) % 120000 END,
       CASE e.r % 3 WHEN 0 THEN 'bottom-full' WHEN 1 THEN 'center-modal' ELSE 'bottom-left' END,
       printf('https://bench.example/page/%d', e.i % 1000),
       CASE e.r % 5 WHEN 0 THEN 'Chrome' WHEN 1 THEN 'Safari' WHEN 2 THEN 'Firefox'
                    WHEN 3 THEN 'Edge' ELSE 'Samsung Internet' END,
       'Linux',
       CASE e.r % 6 WHEN 1 THEN 'mobile' WHEN 2 THEN 'mobile' WHEN 5 THEN 'tablet'
                    ELSE 'desktop' END,
       'DE', CASE WHEN e.r % 14 = 0 THEN 1 ELSE 0 END
FROM e;
INSERT OR REPLACE INTO mau_counts (site_id, month, visitors)
SELECT site_id, substr(created_at, 1, 7), count(DISTINCT anon_id_hash)
FROM consent_log GROUP BY 1, 2;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 59)
INSERT INTO scripts (site_id, domain, category, blocked, first_seen, last_seen,
    seen_count, last_page_url)
SELECT (SELECT id FROM sites WHERE site_key = 'bench'), printf('cdn%02d.vendor.example', i),
       CASE i % 4 WHEN 0 THEN 'analytics' WHEN 1 THEN 'marketing' WHEN 2 THEN 'functional' END,
       i % 2, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-20 days'),
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 100 + i, 'https://bench.example/'
FROM n;
COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
