-- gen.sql: grow a bench database to @sites sites and @rows consent entries.
--
-- Run by bench/run.sh with the sqlite3 shell on a copy of the database that
-- consentctl made (schema, the site "bench" with id 1 and its published
-- config), as
--   sqlite3 -cmd '.parameter set @sites 10000' -cmd '.parameter set @rows 1000000' DB < gen.sql
-- Nothing here goes through HTTP; every table an endpoint reads or writes is
-- filled the way the endpoints fill it, so indexes have their real size:
--   sites        @sites - 1 generated sites (every third paid, every 50th paused)
--   domains      one or two per site
--   configs      one published version per site: the bench config with
--                English only (about 3 KB)
--   consent_log  @rows entries over the last 90 days; one in ten is the
--                bench site's, the rest spread at random over the others
--   mau_visitors, mau_counts   derived from consent_log, as store.c keeps them
--   scripts      20 records per site
--   syncs        one finished sync per ten sites

PRAGMA synchronous = OFF;          -- a crash here only loses the bench copy
PRAGMA cache_size = -262144;       -- 256 MiB: index inserts stay in memory

BEGIN;

WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < @sites)
INSERT INTO sites (id, site_key, name, tier, mau_cap, paused, created_at)
SELECT i, printf('gen-%05d', i), printf('Generated site %d', i),
       CASE WHEN i % 3 = 0 THEN 'paid' ELSE 'free' END,
       CASE WHEN i % 7 = 0 THEN 5000 END,
       i % 50 = 0,
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('-%d days', i % 700))
FROM n;

INSERT INTO domains (site_id, host)
SELECT id, printf('site%05d.example', id) FROM sites WHERE id > 1;
INSERT INTO domains (site_id, host)
SELECT id, printf('www.site%05d.example.org', id) FROM sites WHERE id > 1 AND id % 4 = 0;

INSERT INTO configs (site_id, version, document, published_at)
SELECT s.id, 1,
       json_remove(b.document, '$.content.translations.de', '$.content.translations.fr',
                   '$.content.translations.es', '$.content.translations.it',
                   '$.content.translations.nl', '$.content.translations.pl',
                   '$.content.translations."pt-BR"'),
       s.created_at
FROM sites s, (SELECT c.document FROM sites t JOIN configs c ON c.id = t.config_id
               WHERE t.id = 1) b
WHERE s.id > 1;
UPDATE sites SET config_id = (SELECT c.id FROM configs c WHERE c.site_id = sites.id AND c.version = 1)
WHERE id > 1;

WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < @rows),
e AS (
	SELECT i,
	       CASE WHEN i % 10 = 0 THEN 1 ELSE 2 + abs(random()) % (@sites - 1) END AS site,
	       strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('-%d seconds', abs(random()) % 7776000)) AS at,
	       abs(random()) % 100 AS r
	FROM n
)
INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type,
    event_action, config_id, published_version, config_version, region,
    consent_model, regulation, time_to_action_ms, interaction, preferences_opened,
    banner_load_time_ms, banner_position, page_url, sdk_version, language,
    resolved_language, browser, os, device_type, country)
SELECT e.site, e.at, lower(hex(randomblob(32))),
       CASE e.r % 4
       WHEN 0 THEN '{"necessary":true,"analytics":true,"marketing":true,"functional":true}'
       WHEN 1 THEN '{"necessary":true,"analytics":false,"marketing":false,"functional":false}'
       WHEN 2 THEN '{"necessary":true,"analytics":true,"marketing":false,"functional":true}'
       ELSE '{"necessary":true}' END,
       CASE WHEN e.r < 60 THEN 'initial' WHEN e.r < 75 THEN 'update' ELSE 'impression' END,
       CASE WHEN e.r < 75 THEN CASE e.r % 4 WHEN 0 THEN 'opt_in' WHEN 1 THEN 'opt_out'
                                            ELSE 'partial' END END,
       s.config_id, 1, 1,
       CASE WHEN e.r < 55 THEN 'gdpr' WHEN e.r < 80 THEN 'us_state_laws' ELSE 'default' END,
       CASE WHEN e.r < 55 THEN 'opt_in' WHEN e.r < 80 THEN 'opt_out' ELSE 'notice_only' END,
       CASE WHEN e.r < 55 THEN 'gdpr' WHEN e.r < 80 THEN 'ccpa' END,
       200 + e.r * 97, CASE WHEN e.r < 75 THEN 'banner_button' END, e.r % 3 = 0,
       40 + e.r, 'bottom-full',
       printf('https://site%05d.example/page/%d', e.site, e.i % 1000), '1.4.2',
       CASE WHEN e.r < 40 THEN 'de-DE' WHEN e.r < 80 THEN 'en-US' ELSE 'fr-FR' END,
       CASE WHEN e.r < 40 THEN 'de' WHEN e.r < 80 THEN 'en' ELSE 'fr' END,
       CASE e.r % 5 WHEN 0 THEN 'Chrome' WHEN 1 THEN 'Safari' WHEN 2 THEN 'Firefox'
                    WHEN 3 THEN 'Edge' ELSE 'Samsung Internet' END,
       CASE e.r % 6 WHEN 0 THEN 'Windows' WHEN 1 THEN 'iOS' WHEN 2 THEN 'Android'
                    WHEN 3 THEN 'macOS' WHEN 4 THEN 'Linux' ELSE 'iPadOS' END,
       CASE e.r % 6 WHEN 1 THEN 'mobile' WHEN 2 THEN 'mobile' WHEN 5 THEN 'tablet'
                    ELSE 'desktop' END,
       CASE WHEN e.r < 55 THEN 'DE' WHEN e.r < 80 THEN 'US' ELSE 'BR' END
FROM e JOIN sites s ON s.id = e.site;

INSERT OR IGNORE INTO mau_visitors (site_id, month, anon_id_hash)
SELECT site_id, substr(created_at, 1, 7), anon_id_hash FROM consent_log
ORDER BY 1, 2, 3;
INSERT OR REPLACE INTO mau_counts (site_id, month, visitors)
SELECT site_id, month, count(*) FROM mau_visitors GROUP BY site_id, month;

WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 19)
INSERT OR IGNORE INTO scripts (site_id, domain, category, blocked, first_seen, last_seen,
    seen_count, last_src, last_page_url)
SELECT s.id, printf('cdn%02d.vendor%03d.example', n.i, (s.id * 7 + n.i) % 500),
       CASE n.i % 5 WHEN 0 THEN 'analytics' WHEN 1 THEN 'marketing'
                    WHEN 2 THEN 'functional' END,
       n.i % 2, s.created_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
       1 + abs(random()) % 5000,
       printf('https://cdn%02d.vendor%03d.example/tag.js', n.i, (s.id * 7 + n.i) % 500),
       printf('https://site%05d.example/', s.id)
FROM sites s, n;

INSERT INTO syncs (sync_id, site_id, status, page_url, created_at, finished_at)
SELECT lower(printf('%s-%s-4%s-8%s-%s', hex(randomblob(4)), hex(randomblob(2)),
                    substr(hex(randomblob(2)), 2), substr(hex(randomblob(2)), 2),
                    hex(randomblob(6)))),
       id, 'complete', printf('https://site%05d.example/', id), created_at, created_at
FROM sites WHERE id % 10 = 0;

COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
