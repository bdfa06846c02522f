import BellasReefSimulator

/// The observed controller's outlets (`SimulatedOutlet.observed`), by what the tests call them.
enum Outlets {
    static let returnPump = SimulatedOutlet.observed[1].id
    static let heater = SimulatedOutlet.observed[2].id
    static let disabledPlug = SimulatedOutlet.observed[0].id
}
