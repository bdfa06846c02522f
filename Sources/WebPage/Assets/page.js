'use strict';
const meta = name => document.querySelector(`meta[name="${name}"]`).content;
const controls = meta('home2mqtt-controls');
let csrf = meta('home2mqtt-csrf');
const model = { retained: {}, changed: {}, commands: [], messages: [], bridge: {}, leftOut: 0, skew: 0, streaming: false };
const $ = selector => document.querySelector(selector);
const esc = value => String(value ?? '').replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const parse = text => { try { return JSON.parse(text); } catch { return text; } };
// On a wide screen the details are open; on a phone they wait below what a person came for.
if (matchMedia('(min-width: 700px)').matches) $('#details').open = true;

function base() {
  const state = Object.keys(model.retained).find(topic => topic.endsWith('/bridge/state'));
  return state ? state.slice(0, -'/bridge/state'.length) : 'home';
}
const get = topic => { const text = model.retained[`${base()}/${topic}`]; return text === undefined ? undefined : parse(text); };
const since = topic => model.changed[`${base()}/${topic}`];
const under = prefix => Object.keys(model.retained).filter(t => t.startsWith(`${base()}/${prefix}`) && !t.slice(base().length + 1 + prefix.length).includes('/'))
  .map(t => [t.slice(base().length + 1 + prefix.length), parse(model.retained[t])]).sort((a, b) => a[0].localeCompare(b[0]));
const now = () => Date.now() + model.skew;

function badge(text) { return `<span class="badge ${esc(text ?? 'unknown')}">${esc(text ?? 'unknown')}</span>`; }
function ago(iso) {
  if (!iso) return '—';
  const seconds = Math.max(0, Math.round((now() - Date.parse(iso)) / 1000));
  return `<span class="ago" data-from="${esc(iso)}" title="${esc(iso)}">${duration(seconds)} ago</span>`;
}
function duration(seconds) {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ${Math.floor(seconds % 3600 / 60)} min`;
  return `${Math.floor(seconds / 86400)} d ${Math.floor(seconds % 86400 / 3600)} h`;
}
function countdown(iso, label) {
  if (!iso) return '';
  return `<span class="countdown" data-until="${esc(iso)}">${esc(label)} ${left(iso)}</span>`;
}
function left(iso) { return `in ${duration(Math.max(0, Math.round((Date.parse(iso) - now()) / 1000)))}`; }
function tick() {
  for (const element of document.querySelectorAll('[data-until]')) {
    element.textContent = `${element.textContent.split(' in ')[0]} ${left(element.dataset.until)}`;
  }
  for (const element of document.querySelectorAll('[data-from]')) {
    element.textContent = `${duration(Math.max(0, Math.round((now() - Date.parse(element.dataset.from)) / 1000)))} ago`;
  }
  const started = model.bridge.started_at;
  if (started && $('#uptime')) $('#uptime').textContent = duration(Math.max(0, Math.round((now() - Date.parse(started)) / 1000)));
}

function renderBridge() {
  const info = get('bridge/info') || {};
  const b = model.bridge;
  const broker = b.broker_connected === undefined ? 'unknown' : (b.broker_connected ? 'online' : 'offline');
  $('#connection').className = `badge ${model.streaming ? broker : 'unknown'}`;
  $('#connection').textContent = model.streaming ? `broker ${b.broker_connected ? 'connected' : 'disconnected'}` : 'page reconnecting…';
  $('#bridge-facts').innerHTML = `
    <dt>version</dt><dd>${esc(b.version ?? info.version)}</dd>
    <dt>state</dt><dd>${badge(get('bridge/state'))}</dd>
    <dt>uptime</dt><dd id="uptime"></dd>
    <dt>broker</dt><dd>${badge(broker)}</dd>
    <dt>reconnects</dt><dd>${esc(b.reconnects)}</dd>
    <dt>integrations</dt><dd>${esc((info.integrations || []).join(', '))}</dd>
    ${model.leftOut ? `<dt>left out</dt><dd>${esc(model.leftOut)} state topics beyond the page's bound</dd>` : ''}`;
}

function upstreamRow(integration, upstream, availabilityTopic, lastRead, error) {
  return `<tr data-integration="${esc(integration)}"><td>${esc(integration)}</td><td>${esc(upstream)}</td>
    <td>${badge(get(availabilityTopic))}</td><td>${ago(since(availabilityTopic))}</td>
    <td>${ago(lastRead)}</td><td>${esc(error ?? '')}</td></tr>`;
}
const objects = prefix => under(prefix).filter(([, value]) => value && typeof value === 'object');
const latest = times => times.filter(Boolean).sort().pop();
/// Each upstream of an integration: [name, availability topic, last successful read, last error].
function upstreams(name) {
  if (name === 'pihole') return piholes().map(([id, p]) => [id, `pihole/${id}/availability`, p.last_seen, p.error]);
  if (name === 'unifi') {
    const rules = objects('unifi/rule/').map(([, r]) => r);
    return objects('unifi/controller/').map(([id, c]) =>
      [id, `unifi/controller/${id}/availability`, latest(rules.filter(r => r.controller === id).map(r => r.read_at)), c.error]);
  }
  if (name === 'reef') {
    const health = get('reef/health') || {};
    const reads = {
      core: (get('reef/system') || {}).read_at,
      temperature: latest(objects('reef/probe/').map(([, p]) => p.read_at)),
      outlets: latest(objects('reef/outlet/').map(([, o]) => o.last_seen)),
    };
    return Object.keys(reads).filter(service => health[service]).map(service =>
      [service, `reef/${service}/availability`, reads[service], health[service].error]);
  }
  return [];
}
function renderUpstreams() {
  const info = get('bridge/info') || {};
  const lastSuccess = (get('bridge/health') || {}).last_success || {};
  const rows = [];
  for (const name of info.integrations || []) {
    const each = upstreams(name);
    rows.push(upstreamRow(name, 'all', `${name}/availability`, latest([lastSuccess[name], ...each.map(u => u[2])]), ''));
    for (const [upstream, availability, read, error] of each) rows.push(upstreamRow(name, upstream, availability, read, error));
  }
  $('#upstream-table tbody').innerHTML = rows.join('');
}

const piholes = () => objects('pihole/').filter(([, p]) => p.id);
function switchButtons(topic, kind, values) {
  return `<span class="control">${values.map(v => `<button type="button" data-topic="${esc(topic)}" data-kind="${kind}" data-value="${v}">${v}</button>`).join('')}
    <input class="for" data-topic="${esc(topic)}" type="number" min="1" placeholder="for s" aria-label="for seconds"></span>`;
}
function renderPiholes() {
  const list = piholes();
  $('#pihole').hidden = list.length === 0;
  const all = get('pihole') || {};
  // One Pi-hole: its card says it all.
  $('#pihole .aggregate').hidden = list.length < 2;
  $('#pihole .aggregate').innerHTML = `<p>all: ${badge(all.blocking)} ${countdown(all.resumes_at, 'resumes')}
    <span class="controls-all"><button type="button" data-topic="pihole/pause" data-payload="30">pause all 30 s</button>
    <button type="button" data-topic="pihole/pause" data-payload="300">pause all 5 min</button>
    <button type="button" data-topic="pihole/resume" data-payload="">resume all</button></span></p>`;
  $('#pihole .cards').innerHTML = list.map(([id, p]) => {
    const stats = get(`pihole/${id}/stats`) || {};
    const diagnostics = get(`pihole/${id}/diagnostics`) || {};
    const groups = Object.entries(get(`pihole/${id}/groups`) || {});
    return `<div class="card" data-pihole="${esc(id)}"><h3>${esc(id)} <small>${esc(p.host)} ${esc(p.version)}</small></h3>
      <p>blocking ${badge(p.blocking)} ${countdown(p.resumes_at, 'resumes')}</p>
      <p class="card-controls"><button type="button" data-topic="pihole/${esc(id)}/pause" data-payload="30">pause 30 s</button>
        <button type="button" data-topic="pihole/${esc(id)}/pause" data-payload="300">pause 5 min</button>
        <button type="button" data-topic="pihole/${esc(id)}/resume" data-payload="">resume</button></p>
      <dl><dt>queries (24 h)</dt><dd>${esc(stats.queries ?? '—')}</dd><dt>blocked</dt><dd>${esc(stats.blocked ?? '—')} (${esc(stats.percent_blocked ?? '—')} %)</dd>
        <dt>clients</dt><dd>${esc(stats.clients_active ?? '—')}</dd><dt>API seats</dt><dd>${esc(diagnostics.sessions_in_use ?? '—')} of ${esc(diagnostics.sessions_max ?? '—')}</dd></dl>
      <table><thead><tr><th>group</th><th>state</th><th>restores</th><th class="control">switch</th></tr></thead><tbody>
      ${groups.map(([key, g]) => `<tr data-group="${esc(key)}"><td>${esc(g.name)}</td><td>${badge(g.enabled ? 'enabled' : 'disabled')}</td>
        <td>${countdown(g.restore_at, g.restore_to ? 'on' : 'off')}</td>
        <td class="control">${g.default ? '' : switchButtons(`pihole/${id}/group/${key}/set`, 'group', ['on', 'off'])}</td></tr>`).join('')}
      </tbody></table></div>`;
  }).join('');
}
function renderUniFi() {
  const rules = objects('unifi/rule/');
  $('#unifi').hidden = rules.length === 0 && !get('unifi/availability');
  $('#unifi tbody').innerHTML = rules.map(([key, r]) => `<tr data-rule="${esc(key)}"><td>${esc(r.name)}</td><td>${esc(r.kind)}</td>
    <td>${badge(r.enabled ? 'on' : 'off')}</td><td>${countdown(r.restore_at, r.restore_to ? 'on' : 'off')}</td>
    <td class="control">${r.origin === 'USER_DEFINED' ? switchButtons(`unifi/rule/${key}/set`, 'rule', ['on', 'off']) : 'read-only'}</td></tr>`).join('');
  renderGuestForm();
}
function renderReef() {
  const probes = objects('reef/probe/');
  const outlets = objects('reef/outlet/');
  $('#reef').hidden = probes.length === 0 && outlets.length === 0 && !get('reef/availability');
  $('#probes tbody').innerHTML = probes.map(([key, p]) => `<tr data-probe="${esc(key)}"><td>${esc(p.name)}</td>
    <td>${p.value === null ? '—' : `${esc(p.value)} ${esc(p.unit)}`}</td><td>${badge(p.status)} ${esc(p.error ?? '')}</td></tr>`).join('');
  $('#outlets tbody').innerHTML = outlets.map(([key, o]) => `<tr data-outlet="${esc(key)}"><td>${esc(o.name)}</td><td>${badge(o.state)}</td>
    <td>${o.power_w === null || o.power_w === undefined ? '—' : `${esc(o.power_w)} W`}</td>
    <td>${countdown(o.restore_at, o.restore_state ?? '')}</td>
    <td class="control">${o.enabled ? switchButtons(`reef/outlet/${key}/set`, 'outlet', ['on', 'off', 'toggle']) : 'disabled'}</td></tr>`).join('');
}
function renderScenes() {
  const scenes = objects('scene/').filter(([, s]) => s.state);
  $('#scenes').hidden = scenes.length === 0;
  $('#scenes tbody').innerHTML = scenes.map(([key, s]) => `<tr data-scene="${esc(key)}"><td>${esc(key)}</td><td>${badge(s.state)}</td>
    <td>${countdown(s.until, 'off')}</td>
    <td>${(s.parts || []).map(p => `${esc(p.kind)} ${esc(p.target)}${p.status ? ` ${badge(p.status)}` : ''}`).join('<br>')}</td>
    <td class="control">${switchButtons(`scene/${key}/set`, 'scene', ['on', 'off'])}</td></tr>`).join('');
}
function renderCommands() {
  $('#commands tbody').innerHTML = model.commands.slice().reverse().map(c => `<tr><td>${esc(new Date(c.time).toLocaleTimeString())}</td>
    <td>${esc(c.topic)}${c.from_page ? ' <small>(page)</small>' : ''}</td><td class="answer">${esc(c.payload)}</td>
    <td class="outcome">${outcome(c.answer)}</td><td>${esc(Math.round(c.seconds * 1000))} ms</td></tr>`).join('');
}
// An answer as a person reads it (ok, or the error's code and words), its JSON on demand;
// one that is not a whole answer (clipped, withheld) as it came.
function outcome(answer) {
  let parsed;
  try { parsed = JSON.parse(answer); } catch { return `<code>${esc(answer)}</code>`; }
  if (typeof parsed?.status !== 'string') return `<code>${esc(answer)}</code>`;
  const words = parsed.status === 'ok' ? '' : ` ${esc(parsed.code ? `${parsed.code}: ` : '')}${esc(parsed.error ?? '')}`;
  return `<details><summary>${badge(parsed.status)}${words}</summary><code>${esc(answer)}</code></details>`;
}
// An event as a person reads it (docs/topics.md, "Events"); its JSON a tap away.
function sentence(type, d) {
  const where = `${d.integration ?? ''}${d.upstream ? ` ${d.upstream}` : ''}`;
  switch (type) {
    case 'upstream_unavailable': return `${where} unavailable${d.error ? `: ${d.error}` : ''}`;
    case 'upstream_available': return `${where} available again`;
    case 'restore_carried_out': return `${d.integration} ${d.target} put back`;
    case 'configuration_reloaded': return 'configuration reloaded';
    case 'probe_alarm': {
      const alarm = d.alarm || {};
      const unit = (get(`reef/probe/${d.key}`) || {}).unit;
      const reading = alarm.value === null || alarm.value === undefined ? '' : `, ${alarm.value}${unit ? ` ${unit}` : ''}`;
      return alarm.state === 'ok' ? `${d.probe} back within its limits${reading}` : `${d.probe} ${alarm.state}${reading}`;
    }
    case 'scene': return `scene ${d.scene} ${d.state}${(d.failed_parts || []).length ? `, failed: ${d.failed_parts.join(', ')}` : ''}`;
    case 'interlock_tripped': return d.reason === 'probe_lost'
        ? `${d.outlet} held off: ${d.probe} is lost (failing or stale)`
        : `${d.outlet} held off: ${d.probe} at ${d.value}, above ${d.above}`;
    case 'interlock_released': return `${d.outlet} back ${d.state}: ${d.probe} at ${d.value}`;
    case 'interlock_overridden': return `${d.outlet}'s hold ended by ${d.by === 'outside' ? 'a switch outside the bridge' : 'a command'}`;
    default: return type;
  }
}
function renderMessages() {
  $('#messages ul').innerHTML = model.messages.slice().reverse().map(m => {
    const p = parse(m.payload);
    if (m.topic.endsWith('/logging') && p && typeof p === 'object') {
      return `<li class="${esc(p.level)}">${esc(p.time ?? m.time)} ${esc(p.level)} ${esc(p.logger ?? '')}: ${esc(p.message)}</li>`;
    }
    if (p && typeof p === 'object') {
      return `<li class="event">${esc(p.time ?? m.time)} <details><summary>${esc(sentence(p.type, p.data ?? {}))}</summary>
        <code>${esc(p.type)} ${esc(JSON.stringify(p.data ?? {}))}</code></details></li>`;
    }
    return `<li>${esc(m.time)} ${esc(m.payload)}</li>`;
  }).join('') || '<li>none</li>';
}

let pending = false;
function render() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    // What was typed in a "for" field survives the re-render, and so does its focus.
    const typed = new Map([...document.querySelectorAll('input.for')].filter(i => i.value).map(i => [i.dataset.topic, i.value]));
    const focused = document.activeElement?.matches('input.for') ? document.activeElement.dataset.topic : null;
    renderBridge(); renderUpstreams(); renderPiholes(); renderUniFi(); renderReef(); renderScenes(); renderCommands(); renderMessages(); tick();
    for (const input of document.querySelectorAll('input.for')) {
      if (typed.has(input.dataset.topic)) input.value = typed.get(input.dataset.topic);
      if (input.dataset.topic === focused) input.focus();
    }
    document.body.dataset.rendered = String(Date.now());
  });
}

function payloadFor(button) {
  if (button.dataset.payload !== undefined) return button.dataset.payload;
  const value = button.dataset.value;
  const seconds = parseInt(button.parentElement.querySelector('input.for')?.value || '', 10);
  if (!(seconds > 0)) return value.toUpperCase();
  if (button.dataset.kind === 'outlet' || (button.dataset.kind === 'scene' && value === 'on')) return JSON.stringify({ state: value, for: seconds });
  if (button.dataset.kind === 'scene') return 'OFF';
  return JSON.stringify({ enabled: value === 'on', for: seconds });
}
// A command as an MQTT client would send it; its answer as the bridge gave it.
async function command(topic, payload) {
  const answer = await fetch('command', {
    method: 'POST', credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
    body: JSON.stringify({ topic, payload }),
  });
  const text = await answer.text();
  if (answer.status === 401) showLogin();
  return { ok: answer.ok, text, body: parse(text) };
}
async function send(topic, payload) {
  const { ok, text, body } = await command(topic, payload);
  toast(ok && body.status ? `${topic}: ${body.status}${body.error ? ` — ${body.error}` : ''}` : `${topic}: ${text}`);
}
function toast(text) {
  const element = $('#toast');
  element.textContent = text;
  element.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { element.hidden = true; }, 5000);
}

function showLogin() { document.body.classList.remove('controls-ready'); $('#login').hidden = false; $('#logout').hidden = true; }
function controlsReady() { document.body.classList.add('controls-ready'); $('#login').hidden = true; $('#logout').hidden = controls === 'ingress'; }
async function login(event) {
  event.preventDefault();
  const answer = await fetch('login', { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ password: $('#password').value }) });
  if (!answer.ok) { $('#login-error').textContent = await answer.text(); return; }
  csrf = (await answer.json()).csrf;
  $('#password').value = ''; $('#login-error').textContent = '';
  controlsReady();
}
async function logout() {
  await fetch('logout', { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  csrf = ''; showLogin();
}

function stream() {
  const source = new EventSource('events');
  source.addEventListener('snapshot', event => {
    const snapshot = JSON.parse(event.data);
    model.retained = {}; model.changed = {};
    for (const [topic, entry] of Object.entries(snapshot.retained)) { model.retained[topic] = entry.payload; model.changed[topic] = entry.changed_at; }
    model.commands = snapshot.commands; model.messages = snapshot.messages; model.leftOut = snapshot.retained_left_out;
    bridge(snapshot.bridge); model.streaming = true; render();
  });
  source.addEventListener('retained', event => {
    const change = JSON.parse(event.data);
    if (change.payload === '') { delete model.retained[change.topic]; delete model.changed[change.topic]; }
    else { model.retained[change.topic] = change.payload; model.changed[change.topic] = change.changed_at; }
    render();
  });
  source.addEventListener('command', event => { model.commands.push(JSON.parse(event.data)); model.commands = model.commands.slice(-100); render(); });
  source.addEventListener('message', event => { model.messages.push(JSON.parse(event.data)); model.messages = model.messages.slice(-100); render(); });
  source.addEventListener('bridge', event => { bridge(JSON.parse(event.data)); renderBridge(); tick(); });
  source.onerror = () => { model.streaming = false; render(); };
}
function bridge(status) { model.bridge = status; if (status.now_ms) model.skew = status.now_ms - Date.now(); }

document.addEventListener('DOMContentLoaded', () => {
  if (controls === 'session' || controls === 'ingress') controlsReady();
  if (controls === 'login') showLogin();
  $('#login').addEventListener('submit', login);
  $('#logout').addEventListener('click', logout);
  document.addEventListener('click', event => {
    const button = event.target.closest('button[data-topic]');
    if (button) send(button.dataset.topic, payloadFor(button));
  });
  setInterval(tick, 250);
  stream();
});
// The guest card: its form follows the consoles and voucher presets the bridge publishes.
function renderGuestForm() {
  const consoles = objects('unifi/controller/').map(([id]) => id);
  $('#guest-form').hidden = consoles.length === 0;
  $('#guest-console-choice').hidden = consoles.length < 2;
  const presets = (((get('bridge/info') || {}).config || {}).unifi || {}).vouchers?.presets || [1440];
  fill($('#guest-console'), consoles.map(id => [id, id]));
  fill($('#guest-minutes'), presets.map(minutes => [String(minutes), durationName(minutes)]));
}
// Options replaced only when they change, so that a choice survives the live re-render.
function fill(select, options) {
  const wanted = JSON.stringify(options);
  if (select.dataset.options === wanted) return;
  const chosen = select.value;
  select.innerHTML = options.map(([value, label]) => `<option value="${esc(value)}">${esc(label)}</option>`).join('');
  select.dataset.options = wanted;
  if (options.some(([value]) => value === chosen)) select.value = chosen;
}
// As Home Assistant's voucher buttons name them: 1440 → "1 day", 90 → "90 minutes".
function durationName(minutes) {
  for (const [unit, size] of [['week', 10080], ['day', 1440], ['hour', 60]]) {
    if (minutes % size === 0) { const count = minutes / size; return `${count} ${unit}${count === 1 ? '' : 's'}`; }
  }
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
async function makeGuestCard(event) {
  event.preventDefault();
  const several = objects('unifi/controller/').length > 1;
  const topic = several ? `unifi/controller/${$('#guest-console').value}/voucher/create` : 'unifi/voucher/create';
  const guests = parseInt($('#guest-count').value, 10);
  const payload = JSON.stringify({ minutes: parseInt($('#guest-minutes').value, 10), guests: guests > 0 ? guests : 1, note: 'guest card' });
  // One voucher a press: a second press while the first is on its way would make another.
  const button = $('#guest-form button[type=submit]');
  button.disabled = true;
  const { ok, text, body } = await command(topic, payload).finally(() => { button.disabled = false; });
  const voucher = ok && body.status === 'ok' ? body.data?.vouchers?.[0] : undefined;
  if (!voucher?.code) { toast(`guest card: ${ok && body.status ? body.error ?? 'the answer has no code' : text}`); return; }
  showGuestCard(voucher, body.data.guest_networks);
}
function showGuestCard(voucher, networks) {
  // Consoles show a code of ten digits as 12345-67890.
  const code = /^\d{10}$/.test(voucher.code) ? `${voucher.code.slice(0, 5)}-${voucher.code.slice(5)}` : voucher.code;
  const guests = voucher.guests === null ? 'any number of guests' : `${voucher.guests} guest${voucher.guests === 1 ? '' : 's'}`;
  $('#guest-card .guest-card-body').innerHTML = `<p class="label">Wi-Fi</p>
    <p class="network">${(networks || []).length ? networks.map(esc).join(' or ') : 'the guest network'}</p>
    <p class="label">voucher code</p><p class="code">${esc(code)}</p>
    <p class="terms">${esc(durationName(voucher.minutes))} from the first sign-in · ${esc(guests)}</p>`;
  $('#guest-card').hidden = false;
  document.body.classList.add('guest-card-open');
}
function closeGuestCard() {
  $('#guest-card .guest-card-body').innerHTML = '';
  $('#guest-card').hidden = true;
  document.body.classList.remove('guest-card-open');
}
document.addEventListener('DOMContentLoaded', () => {
  $('#guest-form').addEventListener('submit', makeGuestCard);
  $('#guest-print').addEventListener('click', () => print());
  $('#guest-close').addEventListener('click', closeGuestCard);
});
