import ArgumentParser

/// A length of time as people type it: `90`, `90s`, `10m`, `1h30m`, `2d`.
struct DurationArgument: ExpressibleByArgument, Equatable, Sendable {
    let seconds: Int

    init?(argument: String) {
        var total = 0
        var number = ""
        for character in argument.lowercased() {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            let unit: Int
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86_400
            default: return nil
            }
            guard let value = Int(number) else { return nil }
            total += value * unit
            number = ""
        }
        if !number.isEmpty {
            guard let value = Int(number) else { return nil }
            total += value
        }
        guard total > 0 else { return nil }
        seconds = total
    }

    static var defaultCompletionKind: CompletionKind { .default }

    /// As a user writes it, in `--help`: `1d`, `90m`, `2d12h`.
    var defaultValueDescription: String {
        var left = seconds, text = ""
        for (unit, length) in [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] where left >= length {
            text += "\(left / length)\(unit)"
            left %= length
        }
        return text
    }
}
