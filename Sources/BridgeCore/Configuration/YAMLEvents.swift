import CLibYAML

/// libyaml's parser as a stream of events: the whole YAML 1.1 syntax (flow and block styles,
/// quoting, escapes, multi-line scalars, comments, anchors), with the node structure left to the
/// reader. The configuration needs no more than that: every value is read as text by its section,
/// so YAML's type resolution (which Yams does with Foundation's regular expressions) has no use.
enum YAMLEvent: Equatable {
    case streamStart, streamEnd
    case documentStart, documentEnd
    /// `plain`: written without quotes or block indicators, so `~`, `null` and nothing mean null.
    case scalar(String, plain: Bool)
    case sequenceStart, sequenceEnd
    case mappingStart, mappingEnd
    case alias
}

/// Reads the events of one YAML text, in order. The text is copied and kept for libyaml, which
/// reads it lazily.
final class YAMLEventReader {
    private let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    private let text: UnsafeMutableBufferPointer<UInt8>

    init(_ yaml: String) {
        text = .allocate(capacity: yaml.utf8.count)
        _ = text.initialize(from: yaml.utf8)
        yaml_parser_initialize(parser)
        yaml_parser_set_input_string(parser, text.baseAddress, text.count)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        text.deallocate()
    }

    /// The next event; a syntax error as libyaml describes it, with its line and column.
    func next() throws(ConfigError) -> YAMLEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw syntaxError() }
        defer { yaml_event_delete(&event) }
        switch event.type {
        case YAML_STREAM_START_EVENT: return .streamStart
        case YAML_STREAM_END_EVENT: return .streamEnd
        case YAML_DOCUMENT_START_EVENT: return .documentStart
        case YAML_DOCUMENT_END_EVENT: return .documentEnd
        case YAML_ALIAS_EVENT: return .alias
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let value = UnsafeBufferPointer(start: scalar.value, count: scalar.length)
            return .scalar(String(decoding: value, as: UTF8.self), plain: scalar.style == YAML_PLAIN_SCALAR_STYLE)
        case YAML_SEQUENCE_START_EVENT: return .sequenceStart
        case YAML_SEQUENCE_END_EVENT: return .sequenceEnd
        case YAML_MAPPING_START_EVENT: return .mappingStart
        case YAML_MAPPING_END_EVENT: return .mappingEnd
        default: throw ConfigError(key: "", "the file is not valid YAML: an event libyaml does not document")
        }
    }

    /// "line 3, column 5: mapping values are not allowed in this context (while parsing a block mapping)"
    private func syntaxError() -> ConfigError {
        let mark = parser.pointee.problem_mark
        var description = "line \(mark.line + 1), column \(mark.column + 1): "
        description += parser.pointee.problem.map { String(cString: $0) } ?? "unreadable"
        if let context = parser.pointee.context { description += " (\(String(cString: context)))" }
        return ConfigError(key: "", "the file is not valid YAML: \(description)")
    }
}
