/// The guest card (docs/web.md): with the controls, the UniFi section makes a voucher and shows
/// a printable card with its code, duration, guests and the guest network's name. The code is
/// in the answer to the request that made it and on this card, nowhere else: the command list
/// and every other page show the command withheld, and closing the card takes the code out of
/// the page.
enum PageGuestCard {
    /// In the UniFi section: the form, shown with the controls once a console is known.
    static let form = """
        <form id="guest-form" class="control" hidden><h3>Guest Wi-Fi card</h3>\
        <label id="guest-console-choice">console <select id="guest-console"></select></label>\
        <label>valid for <select id="guest-minutes"></select></label>\
        <label>guests <input id="guest-count" type="number" min="1" max="1000" value="1"></label>\
        <button type="submit">make a guest card</button></form>
        """

    /// Over the page while open; alone on paper.
    static let card = """
        <section id="guest-card" hidden aria-label="guest Wi-Fi card"><div class="guest-card-body"></div>\
        <p class="guest-card-actions"><button type="button" id="guest-print">print</button>\
        <button type="button" id="guest-close">close</button></p></section>
        """

    /// Uses page.js's helpers (`$`, `esc`, `get`, `objects`, `command`, `toast`); appended to it.
    static let script = #"""

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
        """#

    static let style = """
        body.controls-ready #guest-form:not([hidden]) { display: flex; flex-wrap: wrap; gap: .4em 1em; align-items: center; margin: .6em 0; }
        #guest-form h3 { flex-basis: 100%; margin: 0; font-size: 1em; }
        #guest-form input { width: 5em; }
        #guest-card:not([hidden]) { position: fixed; inset: 0; z-index: 10; display: flex; flex-direction: column;
          align-items: center; justify-content: center; background: Canvas; color: CanvasText; }
        .guest-card-body { border: 2px dashed #8888; border-radius: 1em; padding: 1.5em 2em; text-align: center; max-width: 90vw; }
        .guest-card-body p { margin: 0; }
        .guest-card-body .label { color: var(--muted); text-transform: uppercase; font-size: .8em; letter-spacing: .1em; }
        .guest-card-body .network { font-size: 1.6em; font-weight: 600; margin-bottom: .6em; }
        .guest-card-body .code { font: 700 2.6em/1.2 ui-monospace, monospace; letter-spacing: .05em; margin-bottom: .4em; }
        .guest-card-actions button { min-height: 44px; min-width: 6em; margin: 1em .3em 0; }
        /* On paper, the card alone. */
        @media print {
          body.guest-card-open > :not(#guest-card), .guest-card-actions { display: none !important; }
          #guest-card:not([hidden]) { position: static; color: #000; background: #fff; }
        }
        """
}
