/// The demo's own failures, worded for the person who typed the command.
struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
