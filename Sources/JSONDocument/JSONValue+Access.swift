extension JSONValue {
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The object without `keys` (any other value unchanged).
    public func removing(_ keys: [String]) -> JSONValue {
        guard case .object(var members) = self else { return self }
        for key in keys { members[key] = nil }
        return .object(members)
    }

    /// The object with `key` set to `value` (any other value unchanged).
    public func setting(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members[key] = value
        return .object(members)
    }
}
