/// The page itself: a skeleton whose sections `page.js` fills from the event stream. Whether the
/// controls are there, and the CSRF token they send, are written in on the server.
enum PageHTML {
    /// `base`: the ingress prefix (ending in `/`), when the page is served under one.
    static func render(base: String?, controls: String, csrf: String) -> String {
        let baseTag = base.map { #"<base href="\#(escaped($0))">"# } ?? ""
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            \(baseTag)
            <meta name="home2mqtt-controls" content="\(escaped(controls))">
            <meta name="home2mqtt-csrf" content="\(escaped(csrf))">
            <title>home2mqtt</title>
            <link rel="stylesheet" href="page.css">
            <link rel="icon" href="favicon.svg" type="image/svg+xml">
            <link rel="manifest" href="manifest.webmanifest" crossorigin="use-credentials">
            <meta name="theme-color" content="#2b6cb0">
            <script src="page.js" defer></script>
            </head>
            <body>
            <header>
              <h1>home2mqtt</h1>
              <span id="connection" class="badge unknown">connecting…</span>
              <form id="login" hidden><input name="username" autocomplete="username" value="home2mqtt" hidden aria-hidden="true"><input id="password" type="password" placeholder="password" autocomplete="current-password" aria-label="password"><button type="submit">log in</button><span id="login-error"></span></form>
              <button id="logout" type="button" hidden>log out</button>
            </header>
            <main>
              <section id="pihole" hidden><h2>Pi-hole</h2><div class="aggregate"></div><div class="cards"></div></section>
              <section id="scenes" hidden><h2>Scenes</h2><table><thead><tr><th>scene</th><th>state</th><th>until</th><th>parts</th><th class="control">switch</th></tr></thead><tbody></tbody></table></section>
              <section id="reef" hidden><h2>Bella's Reef</h2><table id="probes"><thead><tr><th>probe</th><th>temperature</th><th>status</th></tr></thead><tbody></tbody></table><table id="outlets"><thead><tr><th>outlet</th><th>state</th><th>power</th><th>restores</th><th class="control">switch</th></tr></thead><tbody></tbody></table></section>
              <section id="unifi" hidden><h2>UniFi</h2><table><thead><tr><th>rule</th><th>kind</th><th>state</th><th>restores</th><th class="control">switch</th></tr></thead><tbody></tbody></table>\(PageGuestCard.form)</section>
              <details class="fold" id="details"><summary>Bridge, integrations, last commands and events</summary>
              <section id="bridge"><h2>Bridge</h2><dl id="bridge-facts"></dl></section>
              <section id="upstreams"><h2>Integrations</h2><table id="upstream-table"><thead><tr><th>integration</th><th>upstream</th><th>availability</th><th>since</th><th>last successful read</th><th>last error</th></tr></thead><tbody></tbody></table></section>
              <section id="commands"><h2>Last commands</h2><table><thead><tr><th>time</th><th>topic</th><th>payload</th><th>answer</th><th>duration</th></tr></thead><tbody></tbody></table></section>
              <section id="messages"><h2>Warnings, errors and events</h2><ul></ul></section>
              </details>
            </main>
            \(PageGuestCard.card)
            <div id="toast" role="status" hidden></div>
            </body>
            </html>

            """
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
