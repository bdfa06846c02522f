import JSONDocument

enum JSONFuzz {
    /// Whatever parses must print as JSON that parses back to the same value: the bridge
    /// republishes what it read, and the simulators answer what they were given.
    static func run(_ bytes: [UInt8]) {
        guard let value = JSONValue.parse(bytes) else { return }
        let printed = value.encoded()
        guard JSONValue.parse(printed) == value else {
            fatalError("printed JSON does not parse back: \(String(decoding: printed, as: UTF8.self))")
        }
    }
}
