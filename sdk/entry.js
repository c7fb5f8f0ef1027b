// entry.js: the body of a consent entry (SDK.md 6): the event, the
// categories, and what the SDK knows of the configuration, the banner and
// the page.  Pure: the caller gives the browser's side in `env`.

import { isNotice, isSwitchable } from './state.js';

// The consent model of the resolved region, when it is a known one.
function regionModel(a) {
  const r = (a.config.regions || []).find((x) => x?.id === a.resolvedRegion);
  return r && (isNotice(r.consentModel) || isSwitchable(r.consentModel)) ? r.consentModel : undefined;
}

// st: index.js's state (answer, allowed, prefsOpened, bannerAt);
// env: {key, anonId, position, page, language, version, t0};
// extra: fields of this event (event_action, interaction, time_to_action_ms).
// Returns a new object; undefined fields are left out by JSON.
export function entryBody(st, env, type, extra) {
  const a = st.answer;
  const body = {
    site_key: env.key, anon_id: env.anonId, event_type: type,
    categories: { ...st.allowed }, config_version: a.version, region: a.resolvedRegion ?? undefined,
    regulation: a.resolvedRegion ?? undefined, consent_model: regionModel(a),
    preferences_opened: st.prefsOpened, banner_position: env.position,
    page_url: env.page.slice(0, 2000), sdk_version: env.version,
    language: (env.language || '').slice(0, 35) || undefined,
    resolved_language: a.resolvedLanguage, ...extra,
  };
  if (st.bannerAt) body.banner_load_time_ms = Math.round(st.bannerAt - env.t0);
  return body;
}
