import Foundation
import Testing

@testable import BellasReefAPI

@Suite("Bella's Reef error mapping and ids (no I/O)")
struct ErrorMappingTests {
    func map(_ status: Int, _ body: String, contentType: String = "application/json",
             context: BellasReefErrorMapping.Context = .authenticated) -> BellasReefError {
        BellasReefErrorMapping.error(status: status, contentType: contentType, body: Data(body.utf8), context: context)
    }

    @Test func stringDetail() {
        let login = map(401, #"{"detail":"Incorrect username or password"}"#, context: .login)
        #expect(login == BellasReefError(.wrongCredentials, "Incorrect username or password", status: 401))
        #expect(map(401, #"{"detail":"Could not validate credentials"}"#).code == .unauthorized)
        let probe = map(404, #"{"detail":"Device with hardware ID x not registered."}"#)
        #expect(probe.code == .notFound && probe.message == "Device with hardware ID x not registered.")
    }

    @Test func listDetail() {
        let body = #"{"detail":[{"type":"missing","loc":["body","username"],"msg":"Field required","input":null},"#
            + #"{"type":"greater_than","loc":["query","limit",0],"msg":"Input should be > 0","ctx":{"gt":0}}]}"#
        let error = map(422, body)
        #expect(error.code == .badRequest)
        #expect(error.message == "body.username: Field required; query.limit.0: Input should be > 0")
    }

    @Test func codedDetail() {
        let cases: [(Int, String, BellasReefError.Code)] = [
            (404, "outlet_not_found", .notFound), (409, "outlet_disabled", .outletDisabled),
            (503, "outlet_connection_error", .outletConnection), (504, "outlet_timeout", .outletTimeout),
        ]
        for (status, code, expected) in cases {
            let error = map(status, #"{"detail":{"code":"\#(code)","message":"says \#(code)"}}"#)
            #expect(error == BellasReefError(expected, "says \(code)", controllerCode: code, status: status))
        }
    }

    @Test func plainTextFiveHundred() {
        let plain = map(500, "Internal Server Error", contentType: "text/plain; charset=utf-8")
        #expect(plain == BellasReefError(.server, "Internal Server Error", status: 500))
        // Right after a token problem the core's plain-text 500 means "no usable token".
        let afterRefusal = map(
            500, "Internal Server Error", contentType: "text/plain; charset=utf-8", context: .retryAfterTokenProblem)
        #expect(afterRefusal.code == .unauthorized)
        // A JSON 500 stays a server fault even then.
        #expect(map(500, #"{"detail":"boom"}"#, context: .retryAfterTokenProblem).code == .server)
        #expect(map(502, "").message == "HTTP 502")
    }

    @Test func outletIDsMustBeUUIDs() throws {
        #expect(try BellasReefIDs.outletID("2CC8582C-B9D8-42F9-8568-78718949AECA") == "2cc8582c-b9d8-42f9-8568-78718949aeca")
        for bad in ["1", "heater", "2cc8582c-b9d8-42f9-8568-78718949aeca/../x", "' OR 1=1 --", ""] {
            #expect(throws: BellasReefError.self) { try BellasReefIDs.outletID(bad) }
        }
        #expect(try BellasReefIDs.hardwareID("28-000000bd3685") == "28-000000bd3685")
        #expect(throws: BellasReefError.self) { try BellasReefIDs.hardwareID("../list") }
    }

    @Test func formEncoding() {
        let encoded = BellasReefClient.formEncoded([(name: "username", value: "bellas"), (name: "password", value: "a&b=c+d é")])
        #expect(encoded == "username=bellas&password=a%26b%3Dc%2Bd+%C3%A9")
    }

    @Test func connectionDescriptionRedactsThePassword() {
        let connection = BellasReefConnection(
            coreURL: "http://192.168.1.20:8000", temperatureURL: nil, outletURL: "http://192.168.1.20:8005/",
            username: "bellas", password: "reefrocks")
        #expect(!connection.description.contains("reefrocks"))
        #expect(connection.baseURL(of: .outlets) == "http://192.168.1.20:8005")
        #expect(connection.baseURL(of: .temperature) == nil)
    }
}
