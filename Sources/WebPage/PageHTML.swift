/// The page itself (`Assets/page.html`): a skeleton whose sections `page.js` fills from the event
/// stream. Whether the controls are there, and the CSRF token they send, are written in on the
/// server, and so is the ingress prefix the page's relative links start from.
enum PageHTML {
    private static let template = String(decoding: PackageResources.page_html, as: UTF8.self)

    /// `base`: the ingress prefix (ending in `/`), when the page is served under one.
    static func render(base: String?, controls: String, csrf: String) -> String {
        // The prefix last: it comes from a request header, and no text in it is read as a placeholder.
        template
            .replacing("{{controls}}", with: escaped(controls))
            .replacing("{{csrf}}", with: escaped(csrf))
            .replacing("{{base}}", with: base.map { #"<base href="\#(escaped($0))">"# } ?? "")
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
