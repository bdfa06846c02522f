/// The readings a Bella's Reef driver puts in an outlet's state, and so the sensors Home Assistant
/// is given for it: a sensor the controller never fills would stay unknown forever.
/// From bellasreef-v2 `smartoutlets/drivers/*.py`, each driver's `_get_state_implementation`.
enum OutletMeter: CaseIterable, Sendable {
    case power, voltage, current, energy

    /// `kasa`: power, voltage and current, never energy; `shelly`: power alone; `vesync` and a
    /// driver this list does not know: all four, as `SmartOutletState` allows.
    static func carried(by driverType: String) -> [OutletMeter] {
        switch driverType {
        case "kasa": [.power, .voltage, .current]
        case "shelly": [.power]
        default: allCases
        }
    }
}
