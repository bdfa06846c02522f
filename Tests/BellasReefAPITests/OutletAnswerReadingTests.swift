@testable import BellasReefAPI
import JSONDocument
import Testing

/// The outlets' answers are read by hand, not by JSONDecoder: they must take and refuse what
/// `SmartOutletState` and the decoder did.
@Suite("Reading an outlet's state and a switch's answer")
struct OutletAnswerReadingTests {
    private func state(_ text: String) -> BellasReefOutletState? {
        JSONValue.parse(Array(text.utf8)).flatMap(BellasReefOutletState.init(json:))
    }

    @Test func aRealControllersStateReadsWithItsNullReadings() {
        // As observed-responses.json has it.
        let read = state(#"{"is_on": true, "power_w": 0.928511, "voltage_v": 231.067823, "current_a": 1.4937e-05, "energy_kwh": null, "temperature_c": null, "is_online": true}"#)
        #expect(read == BellasReefOutletState(isOn: true, powerW: 0.928511, voltageV: 231.067823, currentA: 1.4937e-05 * 1000, isOnline: true))
        #expect(state(#"{"is_on": false, "is_online": false, "power_w": 3}"#) == BellasReefOutletState(isOn: false, powerW: 3, isOnline: false))
    }

    /// The Kasa driver's current is a thousandth of the plug's (bellasreef-v2 `drivers/kasa.py`);
    /// V·I can never be below P, so such a current is scaled back, and only such a one.
    @Test func aCurrentAThousandTimesTooSmallIsScaledBack() {
        #expect(BellasReefOutletState.amperes(1.4937e-05, powerW: 0.928511, voltageV: 231.067823) == 1.4937e-05 * 1000)
        #expect(abs((BellasReefOutletState.amperes(0.000106, powerW: 24.5, voltageV: 231) ?? 0) - 0.106) < 1e-12)
        // Physical currents as they are: a power factor of 1, of 0.5, and a mended driver's.
        #expect(BellasReefOutletState.amperes(0.106, powerW: 24.5, voltageV: 231) == 0.106)
        #expect(BellasReefOutletState.amperes(0.212, powerW: 24.5, voltageV: 231) == 0.212)
        #expect(BellasReefOutletState.amperes(0.0149, powerW: 0.93, voltageV: 231) == 0.0149)
        // Nothing to judge by.
        #expect(BellasReefOutletState.amperes(0, powerW: 0, voltageV: 231) == 0)
        #expect(BellasReefOutletState.amperes(0.0001, powerW: nil, voltageV: 231) == 0.0001)
        #expect(BellasReefOutletState.amperes(nil, powerW: 24.5, voltageV: 231) == nil)
    }

    @Test func whatTheSchemaRefusesIsNoState() {
        #expect(state(#"{"is_online": true}"#) == nil)  // is_on is required
        #expect(state(#"{"is_on": true}"#) == nil)  // so is is_online
        #expect(state(#"{"is_on": "true", "is_online": true}"#) == nil)
        #expect(state(#"{"is_on": 1, "is_online": true}"#) == nil)
        #expect(state(#"{"is_on": true, "is_online": null}"#) == nil)
        #expect(state(#"{"is_on": true, "is_online": true, "power_w": "12"}"#) == nil)
        #expect(state(#"{"is_on": true, "is_online": true, "temperature_c": {}}"#) == nil)
        #expect(state(#"[{"is_on": true, "is_online": true}]"#) == nil)
    }

    @Test func aSwitchAnswersWithItsMessageOrNone() {
        func message(_ text: String) -> String? { JSONValue.parse(Array(text.utf8)).flatMap(BellasReefClient.message) }
        #expect(message(#"{"message": "Outlet turned on"}"#) == "Outlet turned on")
        #expect(message(#"{"message": null}"#) == "")
        #expect(message("{}") == "")
        #expect(message(#"{"message": 3}"#) == nil)
        #expect(message(#"["Outlet turned on"]"#) == nil)
        #expect(message("null") == nil)
    }
}
